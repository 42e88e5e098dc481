/**
 * A phone camera for the browser tests: Chromium's fake capture device playing a video of one
 * synthetic plate scene (test/support/plate-scene.ts), a clear plate at a phone's 1280 × 720.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openBrowser } from "./browser.ts";
import { plateSceneSpec, renderPlateScenes } from "./plate-scene.ts";

/** The camera tests' scene: the first clear 1280 × 720 plate of the seed. */
export const CAMERA_SEED = 20261207;
export const CAMERA_SCENE = Array.from({ length: 400 }, (_, i) => plateSceneSpec(CAMERA_SEED, i)).find(
  (s) => s.degradations.length === 0 && s.width === 1280,
)!;

/**
 * Renders the scene and writes it into dir as the fake device's file (concatenated JPEGs, which
 * it plays over and over); returns the browser options that give a page that camera.
 */
export async function fakeCamera(dir: string): Promise<{ args: string[]; permissions: string[] }> {
  const render = await openBrowser(join(dir, "profile-render"), { width: 400, height: 400 });
  const page = render.pages()[0] ?? (await render.newPage());
  const [scene] = await renderPlateScenes(page, { seed: CAMERA_SEED, count: 1, from: CAMERA_SCENE.index });
  await render.close();
  const file = join(dir, "plate.mjpeg");
  writeFileSync(file, Buffer.concat(Array.from({ length: 30 }, () => Buffer.from(scene!.jpeg))));
  return {
    args: ["--use-fake-device-for-media-stream", `--use-file-for-fake-video-capture=${file}`],
    permissions: ["camera"],
  };
}
