/**
 * Reads a licence plate in the page, from the framing guide's crop: no picture leaves the phone
 * and a read works in a car park without signal. The crop is made into one clean line of
 * characters here (preprocess.ts), and tesseract's LSTM recogniser reads that line in a worker,
 * from files the box serves (files.ts). The caller holds the text against the country's formats
 * (`readPlate(text, "se")`) and the attendant confirms it.
 */
import { createWorker, OEM, type PSM, type Worker as TesseractWorker } from "tesseract.js";
import { readPlate } from "../../domain/plate-formats.ts";
import { CORE_FILE, LANGUAGE, WORKER_FILE } from "./files.ts";
import {
  blueOf,
  DEFAULT_LINE_OPTIONS,
  type GreyImage,
  greyOf,
  type LineOptions,
  type PreparedLine,
  pgm,
  plateLine,
  slotImage,
  WORK_WIDTH,
} from "./preprocess.ts";
import { lastByShape, SHAPE_PAIRS } from "./shape.ts";

export { guideRect } from "./guide.ts";

export interface PlateText {
  /** What the engine read: letters and digits, any spacing; empty when no plate was found. */
  text: string;
  /**
   * tesseract's confidence in its least sure character, 0..1. Measured, it does not tell right
   * reads from wrong ones here (clean right reads often score 0): see bench/plate-reads/README.md.
   */
  confidence: number;
  /** Milliseconds spent in `read`. */
  ms: number;
}

export interface PlateReader {
  read(image: ImageData | HTMLCanvasElement | OffscreenCanvas | ImageBitmap): Promise<PlateText>;
  close(): Promise<void>;
}

/** What a read found, for the bench and for whoever tunes the reader. */
export interface PlateTextDetail extends PlateText {
  /** Characters found in the crop before reading (0 when no line of characters was found). */
  chars: number;
  /** Milliseconds of the engine alone (the rest is preparing the picture). */
  engineMs: number;
}

/** Letters of Swedish plates and digits: the engine never answers with anything else. */
const CHARACTERS = "ABCDEFGHJKLMNOPRSTUWXYZ0123456789";
/** The plates read are Swedish: their formats say how many characters a line read should have. */
const COUNTRY = "se";

/**
 * A plate's last character may be a letter or a digit (`ABC 12A`, `ABC 124`), and the line
 * reader, having just read digits, reads a final A as 4 (S as 5...) even when it is clean: a
 * wrong plate. When the last character read is one of these digits, that character is read
 * again on its own, between the digit and the letter it may be. Z/2 and B/8, the commonest of
 * these, are decided by the glyph's shape instead (shape.ts): read again, the engine was as sure
 * of the wrong answer.
 */
const LETTER_OR_DIGIT: Readonly<Record<string, string>> = {
  "4": "A",
  "5": "S",
  "6": "G",
  "7": "T",
};

/**
 * A WebAssembly module using one SIMD instruction: the core is the SIMD build, so a browser
 * without SIMD is told so at once rather than failing inside the worker.
 */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98,
  11,
]);

export class PlateReaderUnavailable extends Error {}

export interface PlateReaderOptions {
  /** Where the files of PLATE_READER_FILES are served, e.g. "/plate-reader/". */
  base: string;
  /** Tuning, for the bench: how the line is prepared. */
  line?: Partial<LineOptions>;
  /** For the bench: hand the engine the crop as it is (grey), without preparing the line. */
  raw?: boolean;
  /** Tuning, for the bench: the page segmentation mode (7, a single line, unless told). */
  pageSegMode?: "7" | "8" | "13";
}

type Source = ImageData | HTMLCanvasElement | OffscreenCanvas | ImageBitmap;

/** Bytes of an image file are what the worker takes (its types name Node's byte buffer; the code takes any bytes). */
const imageBytes = (img: GreyImage) => pgm(img) as unknown as Parameters<TesseractWorker["recognize"]>[0];

/** The crop at the working width, as RGBA bytes. */
async function workPixels(
  image: Source,
): Promise<{ rgba: Uint8ClampedArray; width: number; height: number }> {
  const source: CanvasImageSource =
    typeof ImageData !== "undefined" && image instanceof ImageData
      ? await createImageBitmap(image)
      : (image as Exclude<Source, ImageData>);
  const sw = image.width;
  const sh = image.height;
  const width = WORK_WIDTH;
  const height = Math.max(1, Math.round((sh * WORK_WIDTH) / Math.max(1, sw)));
  const canvas =
    typeof OffscreenCanvas !== "undefined"
      ? new OffscreenCanvas(width, height)
      : Object.assign(document.createElement("canvas"), { width, height });
  const g = canvas.getContext("2d", { willReadFrequently: true }) as
    | CanvasRenderingContext2D
    | OffscreenCanvasRenderingContext2D
    | null;
  if (!g) throw new PlateReaderUnavailable("no 2D canvas to prepare the picture on");
  g.imageSmoothingEnabled = true;
  g.imageSmoothingQuality = "medium";
  g.drawImage(source, 0, 0, sw, sh, 0, 0, width, height);
  if (source !== image && "close" in source) (source as ImageBitmap).close();
  return { rgba: g.getImageData(0, 0, width, height).data, width, height };
}

interface Symbol {
  text: string;
  confidence: number;
}

/** The characters of tesseract's block tree, wherever they sit in it. */
function symbolsOf(blocks: unknown): Symbol[] {
  const found: Symbol[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const n of node) walk(n);
      return;
    }
    const o = node as Record<string, unknown>;
    if (Array.isArray(o.symbols)) {
      for (const s of o.symbols as { text?: unknown; confidence?: unknown }[]) {
        if (typeof s.text === "string" && typeof s.confidence === "number")
          found.push({ text: s.text, confidence: s.confidence });
      }
      return;
    }
    for (const key of ["paragraphs", "lines", "words"]) walk(o[key]);
  };
  walk(blocks);
  return found;
}

/**
 * Starts the engine: the worker, the core and the language data come from `base`, nothing from
 * anywhere else. Resolves once a read can start; rejects with PlateReaderUnavailable when this
 * browser cannot run it or a file cannot be had (the page then hides its camera button).
 */
export async function createPlateReader(opts: PlateReaderOptions): Promise<PlateReader> {
  if (typeof WebAssembly !== "object" || !WebAssembly.validate(SIMD_PROBE))
    throw new PlateReaderUnavailable("this browser has no WebAssembly SIMD");
  if (typeof Worker === "undefined") throw new PlateReaderUnavailable("this browser has no workers");
  const base = new URL(opts.base, location.href).href.replace(/\/?$/, "/");
  const lineOptions: LineOptions = { ...DEFAULT_LINE_OPTIONS, ...opts.line };

  // tesseract.js reports a failed file through errorHandler and leaves createWorker pending, so
  // the first failure ends the wait here.
  let failed: (why: unknown) => void = () => {};
  const failure = new Promise<never>((_, reject) => {
    failed = reject;
  });
  let broken: string | null = null;
  const worker: TesseractWorker = await Promise.race([
    createWorker(
      LANGUAGE,
      OEM.LSTM_ONLY,
      {
        workerPath: `${base}${WORKER_FILE}`,
        corePath: `${base}${CORE_FILE}`,
        langPath: base.slice(0, -1),
        // A blob: worker would need `worker-src blob:`; the script's own address does not.
        workerBlobURL: false,
        // The service worker keeps the files; a second copy in IndexedDB would only fill the phone.
        cacheMethod: "none",
        gzip: true,
        logger: () => {},
        errorHandler: (why: unknown) => {
          broken = String(why);
          failed(new PlateReaderUnavailable(`the plate reader failed to start: ${broken}`));
        },
      },
      // Word lists would pull a read towards English words; plates are not words.
      {
        load_system_dawg: "0",
        load_freq_dawg: "0",
        load_unambig_dawg: "0",
        load_punc_dawg: "0",
        load_number_dawg: "0",
        load_bigram_dawg: "0",
      },
    ),
    failure,
  ]).catch((e: unknown) => {
    throw e instanceof PlateReaderUnavailable
      ? e
      : new PlateReaderUnavailable(`the plate reader failed: ${e}`);
  });
  await worker.setParameters({
    tessedit_pageseg_mode: (opts.pageSegMode ?? "7") as PSM,
    tessedit_char_whitelist: CHARACTERS,
    // The line is drawn at a set size; without a resolution tesseract guesses one and warns.
    user_defined_dpi: "300",
  });

  let queue: Promise<unknown> = Promise.resolve();
  const readOne = async (image: Source): Promise<PlateTextDetail> => {
    const started = performance.now();
    const { rgba, width, height } = await workPixels(image);
    const grey = greyOf(rgba, width, height);
    if (opts.raw) {
      const engineStarted = performance.now();
      const { data } = await worker.recognize(imageBytes(grey), {}, { text: true });
      const text = (data.text ?? "").replace(/\s+/g, " ").trim();
      const engineMs = performance.now() - engineStarted;
      return {
        text,
        confidence: 0,
        ms: performance.now() - started,
        chars: 0,
        engineMs,
      };
    }
    const line = plateLine(grey, lineOptions, blueOf(rgba, width, height));
    if (!line) {
      return {
        text: "",
        confidence: 0,
        ms: performance.now() - started,
        chars: 0,
        engineMs: 0,
      };
    }
    const engineStarted = performance.now();
    const { data } = await worker.recognize(imageBytes(line.image), {}, { text: true, blocks: true });
    const symbols = symbolsOf(data.blocks);
    let text = (data.text ?? "").replace(/\s+/g, " ").trim();
    let least = symbols.length ? Math.min(...symbols.map((s) => s.confidence)) : 0;
    const read = text.replace(/ /g, "");
    const count = line.slots.length;
    // The slots are a guess at how many characters there are: a speck makes one more, two
    // characters run together one fewer. A line read the plate formats take is believed;
    // otherwise the line reader doubled or dropped a character, and each slot is read alone.
    if (read.length !== count && count >= 4 && count <= 8 && !readPlate(read, COUNTRY).ok) {
      const each = await readSlots(
        line,
        line.slots.map(() => CHARACTERS),
      );
      // A slot read as nothing is a speck or a character the engine cannot make out: either way
      // the count is in doubt, and a plate pieced together round it would be a guess.
      text = each.every((c) => c.text) ? each.map((c) => c.text).join("") : "";
      least = Math.min(...each.map((c) => c.confidence));
    } else if (read.length === count && LETTER_OR_DIGIT[read.at(-1) ?? ""]) {
      const last = read.at(-1)!;
      const [again] = await readSlots(line, [`${last}${LETTER_OR_DIGIT[last]}`], count - 1);
      if (again?.text.length === 1 && again.text !== last) text = `${text.slice(0, -1)}${again.text}`;
    }
    const last = text.at(-1) ?? "";
    if (SHAPE_PAIRS[last] && text.replace(/ /g, "").length === count) {
      // Where the shape does not tell the pair apart, no read rather than a guess: the camera
      // reads the next frame a moment later.
      const seen = lastByShape(slotImage(line, count - 1), last);
      text = seen ? `${text.slice(0, -1)}${seen}` : "";
    }
    const engineMs = performance.now() - engineStarted;
    return {
      text,
      confidence: text ? Math.max(0, Math.min(1, least / 100)) : 0,
      ms: performance.now() - started,
      chars: line.chars,
      engineMs,
    };
  };

  /** Slots `from`.. of the line, each read alone, in its own alphabet. */
  const readSlots = async (line: PreparedLine, alphabets: string[], from = 0) => {
    const out: { text: string; confidence: number }[] = [];
    for (let k = 0; k < alphabets.length; k++) {
      // Options given to one recognize are set for it and put back after.
      const { data } = await worker.recognize(
        imageBytes(slotImage(line, from + k)),
        // As a word (8), not as a character (10): the LSTM, given one glyph as a character or as
        // a line (7), answers nothing for many a clean R, D or 4.
        { tessedit_pageseg_mode: "8", tessedit_char_whitelist: alphabets[k] } as Record<string, string>,
        { text: true, blocks: true },
      );
      const symbols = symbolsOf(data.blocks);
      out.push({
        // Two at most: a slot may hold two characters run together (blur, glare), never more.
        text: (data.text ?? "").replace(/\s+/g, "").slice(0, 2),
        confidence: symbols.length ? Math.min(...symbols.map((s) => s.confidence)) : 0,
      });
    }
    return out;
  };

  return {
    // Reads run one after another (the engine is one worker); a caller should still drop frames
    // while a read is running rather than queue them.
    read(image: Source): Promise<PlateTextDetail> {
      if (broken) return Promise.reject(new PlateReaderUnavailable(broken));
      const next = queue.then(() => readOne(image));
      queue = next.catch(() => {});
      return next;
    },
    async close() {
      await worker.terminate();
    },
  };
}
