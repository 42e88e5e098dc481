/**
 * The bench's page: draws each synthetic scene, makes it a camera frame (a JPEG, decoded, as the
 * fake camera and a real one give it), and reads it as the attendant page will: the guide's crop,
 * the reader, then `readPlate(text, "se")`. bench/plate-reads.ts drives it through `plateBench`.
 */
import {
  createPlateReader,
  guideRect,
  type PlateReader,
  type PlateReaderOptions,
  type PlateTextDetail,
} from "../../src/client/plate-reader/index.ts";
import { blueOf, greyOf, plateLine, WORK_WIDTH } from "../../src/client/plate-reader/preprocess.ts";
import { readPlate } from "../../src/domain/plate-formats.ts";
import { drawPlateScene, type PlateSceneSpec, plateSceneSpec } from "../../test/support/plate-scene.ts";

export interface SceneResult {
  index: number;
  plate: string;
  width: number;
  height: number;
  degradations: string[];
  text: string;
  confidence: number;
  chars: number;
  /** Frame to result: the crop, the preparation, the engine and readPlate. */
  ms: number;
  engineMs: number;
  /** The plate readPlate made of the text, or null with why not. */
  read: string | null;
  why: string | null;
}

let reader: PlateReader | null = null;

async function frameOf(spec: PlateSceneSpec): Promise<ImageBitmap> {
  const canvas = new OffscreenCanvas(spec.width, spec.height);
  drawPlateScene(canvas, spec);
  const jpeg = await canvas.convertToBlob({ type: "image/jpeg", quality: spec.quality });
  return createImageBitmap(jpeg);
}

async function readFrame(
  frame: ImageBitmap,
): Promise<{ detail: PlateTextDetail; ms: number; reading: ReturnType<typeof readPlate> }> {
  const started = performance.now();
  const guide = guideRect(frame.width, frame.height);
  const crop = new OffscreenCanvas(guide.width, guide.height);
  crop
    .getContext("2d")!
    .drawImage(frame, guide.x, guide.y, guide.width, guide.height, 0, 0, guide.width, guide.height);
  const detail = (await reader!.read(crop)) as PlateTextDetail;
  const reading = readPlate(detail.text, "se");
  return { detail, reading, ms: performance.now() - started };
}

async function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.readAsDataURL(blob);
  });
}

const bench = {
  async load(opts: Omit<PlateReaderOptions, "base">): Promise<number> {
    const started = performance.now();
    reader = await createPlateReader({ base: "/plate-reader/", ...opts });
    return performance.now() - started;
  },
  async close(): Promise<void> {
    await reader?.close();
    reader = null;
  },
  async run(seed: number, from: number, count: number): Promise<SceneResult[]> {
    const out: SceneResult[] = [];
    for (let index = from; index < from + count; index++) {
      const spec = plateSceneSpec(seed, index);
      const frame = await frameOf(spec);
      const { detail, reading, ms } = await readFrame(frame);
      frame.close();
      out.push({
        index,
        plate: spec.plate,
        width: spec.width,
        height: spec.height,
        degradations: spec.degradations,
        text: detail.text,
        confidence: detail.confidence,
        chars: detail.chars,
        ms,
        engineMs: detail.engineMs,
        read: reading.ok ? reading.plate : null,
        why: reading.ok ? null : reading.why,
      });
    }
    return out;
  },
  /** The scene's frame and its prepared line as data: URLs, to look at a failure. */
  async look(seed: number, index: number): Promise<{ frame: string; line: string | null; work: string }> {
    const spec = plateSceneSpec(seed, index);
    const canvas = new OffscreenCanvas(spec.width, spec.height);
    drawPlateScene(canvas, spec);
    const jpeg = await canvas.convertToBlob({ type: "image/jpeg", quality: spec.quality });
    const frame = await createImageBitmap(jpeg);
    const guide = guideRect(frame.width, frame.height);
    const h = Math.round((guide.height * WORK_WIDTH) / guide.width);
    // Cut and scaled in two steps as readFrame and the reader do: scaled from the frame in one
    // step, the line can come out a little different from the one that was read.
    const crop = new OffscreenCanvas(guide.width, guide.height);
    crop
      .getContext("2d")!
      .drawImage(frame, guide.x, guide.y, guide.width, guide.height, 0, 0, guide.width, guide.height);
    const work = new OffscreenCanvas(WORK_WIDTH, h);
    const g = work.getContext("2d")!;
    g.imageSmoothingEnabled = true;
    g.imageSmoothingQuality = "medium";
    g.drawImage(crop, 0, 0, guide.width, guide.height, 0, 0, WORK_WIDTH, h);
    const rgba = g.getImageData(0, 0, WORK_WIDTH, h).data;
    const line = plateLine(greyOf(rgba, WORK_WIDTH, h), undefined, blueOf(rgba, WORK_WIDTH, h));
    let lineUrl: string | null = null;
    if (line) {
      const c = new OffscreenCanvas(line.image.width, line.image.height);
      const data = new ImageData(line.image.width, line.image.height);
      line.image.pixels.forEach((v, i) => {
        data.data.set([v, v, v, 255], i * 4);
      });
      c.getContext("2d")!.putImageData(data, 0, 0);
      lineUrl = await blobToDataUrl(await c.convertToBlob({ type: "image/png" }));
    }
    // The frame as a PNG, halved, with the guide drawn: easier to look at than the JPEG.
    const view = new OffscreenCanvas(Math.round(frame.width / 2), Math.round(frame.height / 2));
    const v = view.getContext("2d")!;
    v.drawImage(frame, 0, 0, view.width, view.height);
    v.strokeStyle = "lime";
    v.strokeRect(guide.x / 2, guide.y / 2, guide.width / 2, guide.height / 2);
    return {
      frame: await blobToDataUrl(await view.convertToBlob({ type: "image/png" })),
      line: lineUrl,
      work: await blobToDataUrl(new Blob([new Uint32Array([WORK_WIDTH, h]), rgba])),
    };
  },
};

(globalThis as unknown as { plateBench: typeof bench }).plateBench = bench;
document.title = "plate-reads ready";
