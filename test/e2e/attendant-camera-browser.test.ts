import { beforeAll, describe, expect, test } from "bun:test";
import { axeViolations, screenshotPath, skipWithoutChromium } from "../support/browser.ts";
import { CAMERA_SCENE, fakeCamera } from "../support/fake-camera.ts";
import { handheldRig } from "../support/handheld.ts";

const rig = handheldRig();
const { tokens, adminApi, signedIn, check } = rig;

/** A clear plate at a phone camera's 1280 × 720: the first such scene of the set's seed. */
const SCENE = CAMERA_SCENE;
let camera: { args: string[]; permissions: string[] };

/**
 * Point the phone at the plate, against the built binary in headless Chromium with a fake camera
 * fed a video of a plate: the read fills the plate field (never judged until the attendant taps
 * Check), the verdict follows the tap, and the lookup record says the plate came from the camera.
 * A camera refused, and no camera at all, leave typing as it was, with a word why.
 */
describe.skipIf(skipWithoutChromium)("reading the plate with the phone's camera", () => {
  beforeAll(async () => {
    await rig.start(
      {
        admin: ["console", "admin"],
        terminal: ["terminal-1", "tickets:write"],
        attendant: ["handheld-1", "permits:read"],
      },
      ["--http"],
    );
    const now = Date.now();
    await rig.sendTicket("CAM-1", SCENE.shown, 1002, now - 3_600_000, now + 3_600_000);
    camera = await fakeCamera(rig.box.dir);
  }, 60_000);

  const withCamera = () => camera;

  test("the read fills the field; Check gives the verdict; the record says camera", async () => {
    const page = await signedIn("camera-read", tokens.attendant!, 1002, undefined, withCamera());
    await page.click("#camera-button");
    await page.waitForSelector("#camera:not([hidden])");
    // The camera's view while it reads: the guide over the picture, a word of what it does.
    await page.waitForFunction(() => document.querySelector("#camera-status")?.textContent !== "");
    await page.screenshot({ path: screenshotPath("phone-camera-view") });
    expect(await axeViolations(page)).toEqual([]);
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>("#plate")!.value !== "", null, {
      timeout: 90_000,
    });
    expect(await page.inputValue("#plate")).toBe(SCENE.shown);
    expect(await page.isHidden("#camera")).toBe(true);
    expect(await page.textContent("#camera-note")).toMatch(
      new RegExp(`^Read by the camera: ${SCENE.shown} \\(\\d+ %\\)\\. Check it, then tap Check\\.$`),
    );
    // Nothing is judged before the attendant taps Check.
    expect(await page.locator("#result [data-verdict]").count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("check-button");
    await page.screenshot({ path: screenshotPath("phone-camera-read") });
    expect(await axeViolations(page)).toEqual([]);
    await page.click("#check-button");
    await page.waitForSelector("#result [data-verdict]");
    expect(await page.getAttribute("#result [data-verdict]", "data-verdict")).toBe("valid_here");
    // The audit's record of that verdict keeps the camera's read.
    let records: { query: string; camera_read: string | null }[] = [];
    for (let tries = 0; records.length === 0 && tries < 40; tries++) {
      if (tries) await Bun.sleep(250);
      const res = await adminApi("GET", "/api/v1/lookups?by=verdict");
      records = ((await res.json()) as { data: typeof records }).data;
    }
    expect(records[0]).toMatchObject({ query: `${SCENE.plate}@1002`, camera_read: SCENE.plate });
    // The next car, typed: no camera read goes along.
    expect(await check(page, "TYP 123")).toBe("none");
  }, 120_000);

  test("offline, the page and its reader from the phone's own copies: the camera still reads", async () => {
    const page = await signedIn("camera-offline", tokens.attendant!, 1002, undefined, withCamera());
    // The service worker keeps the reader's four files once the page has fetched them.
    const kept = () =>
      page.evaluate(async () => (await (await caches.open("parkd-plate-reader")).keys()).length);
    for (let tries = 0; (await kept()) < 4 && tries < 120; tries++) await Bun.sleep(500);
    expect(await kept()).toBe(4);
    await page.context().setOffline(true);
    try {
      await page.reload();
      await page.waitForSelector("#camera-button:not([hidden])", { timeout: 20_000 });
      await page.click("#camera-button");
      await page.waitForFunction(
        () => document.querySelector<HTMLInputElement>("#plate")!.value !== "",
        null,
        { timeout: 90_000 },
      );
      expect(await page.inputValue("#plate")).toBe(SCENE.shown);
    } finally {
      await page.context().setOffline(false);
    }
  }, 180_000);

  test("a camera refused: a clear word, and the plate is typed as before", async () => {
    const page = await signedIn("camera-refused", tokens.attendant!, 1002, undefined, {
      args: withCamera().args,
    });
    await page.click("#camera-button");
    await page.waitForSelector("#camera-note.warn:not([hidden])");
    expect(await page.textContent("#camera-note")).toContain("The camera is not allowed on this page");
    expect(await page.isHidden("#camera")).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("plate");
    await page.screenshot({ path: screenshotPath("phone-camera-refused") });
    expect(await axeViolations(page)).toEqual([]);
    expect(await check(page, SCENE.shown)).toBe("valid_here");
  }, 60_000);

  test("no camera at all: said so, and typing works", async () => {
    const page = await signedIn("camera-none", tokens.attendant!, 1002, undefined, {
      permissions: ["camera"],
    });
    await page.click("#camera-button");
    await page.waitForSelector("#camera-note.warn:not([hidden])");
    expect(await page.textContent("#camera-note")).toBe("No camera on this device: type the plate.");
    expect(await axeViolations(page)).toEqual([]);
    expect(await check(page, SCENE.shown)).toBe("valid_here");
  }, 60_000);
});
