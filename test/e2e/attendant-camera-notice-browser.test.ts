import { beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { axeViolations, screenshotPath, skipWithoutChromium } from "../support/browser.ts";
import { CAMERA_SCENE, fakeCamera } from "../support/fake-camera.ts";
import { handheldRig } from "../support/handheld.ts";

const rig = handheldRig();
const { tokens, adminApi, signedIn, check } = rig;

/** The camera test's scene: a clear plate at 1280 × 720, here a car with no permit. */
const SCENE = CAMERA_SCENE;
let camera: { args: string[]; permissions: string[] };

type NoticeRow = {
  number: number;
  registration_number: string;
  photos: { width: number; height: number; bytes: number }[];
};

async function noticesAtBox(): Promise<NoticeRow[]> {
  const r = await adminApi("GET", "/api/v1/notices");
  expect(r.status).toBe(200);
  const list = ((await r.json()) as { data: { number: number }[] }).data;
  // The list may leave the photos out: each notice as the box opens it.
  return Promise.all(
    list.map(
      async (n) =>
        ((await (await adminApi("GET", `/api/v1/notices/${n.number}`)).json()) as { data: NoticeRow }).data,
    ),
  );
}

/** Points the camera at the plate until the read fills the field. */
async function readWithCamera(page: Page): Promise<void> {
  await page.fill("#plate", "");
  await page.click("#camera-button");
  await page.waitForFunction(() => document.querySelector<HTMLInputElement>("#plate")!.value !== "", null, {
    timeout: 90_000,
  });
  expect(await page.inputValue("#plate")).toBe(SCENE.shown);
}

/** Taps Check on what the field holds; the verdict shown. */
async function tapCheck(page: Page): Promise<string> {
  await page.click("#check-button");
  await page.waitForFunction(() => !document.querySelector("#result .pending"));
  return (await page.locator("#result [data-verdict]").getAttribute("data-verdict"))!;
}

/** Opens the notice form from the verdict shown; the photos it starts with. */
async function openNotice(page: Page): Promise<number> {
  await page.click("#write-notice");
  await page.waitForSelector("#notice-form");
  const photos = await page.locator("#notice-photos li").count();
  if (photos)
    await page.waitForSelector("#notice-photos li img[src^='data:image/jpeg']", { timeout: 20_000 });
  return photos;
}

/**
 * A car read with the phone's camera and then given a notice: the frame the plate was read from
 * is the notice's first photo, said to be from the scan, so the attendant does not photograph the
 * car again. Another plate, typed or corrected over the read, is another car and gets no photo of
 * this one. Against the built binary in headless Chromium with a fake camera.
 */
describe.skipIf(skipWithoutChromium)("the notice's photo from the camera's read", () => {
  beforeAll(async () => {
    await rig.start(
      {
        admin: ["console", "admin"],
        terminal: ["terminal-1", "tickets:write"],
        issuer: ["handheld-1", "permits:read", "notices:write"],
      },
      ["--http"],
    );
    const now = Date.now();
    // Another car's ticket makes the zone a known one; the scanned car has none.
    await rig.sendTicket("OWN-1", "OWN 100", 1002, now - 3_600_000, now + 3_600_000);
    const reason = await adminApi("POST", "/api/v1/notice-reasons", {
      code: "no-permit",
      title: "No valid permit",
      amount: 50000,
      verdicts: ["none"],
    });
    expect(reason.status).toBe(201);
    camera = await fakeCamera(rig.box.dir);
  }, 60_000);

  const withCamera = () => camera;

  const signedInWithCamera = async (name: string) => {
    const page = await signedIn(name, tokens.issuer!, 1002, undefined, withCamera());
    await page.waitForFunction(() => localStorage.getItem("parkd.noticeReasons") !== null);
    return page;
  };

  test("read, Check, Write notice: the scan's frame is the first photo, and the box gets it", async () => {
    const page = await signedInWithCamera("scan-notice");
    await readWithCamera(page);
    expect(await tapCheck(page)).toBe("none");
    expect(await openNotice(page)).toBe(1);
    expect(await page.textContent("#notice-photos li .from-scan")).toBe("Photo from the scan");
    expect(await page.textContent("#notice-photo-label")).toBe("Photo (1 of 3)");
    // More may be taken beside it, up to the limit.
    expect(await page.isEnabled("#notice-photo")).toBe(true);
    await page.selectOption("#notice-reason", "no-permit");
    await page.fill("#notice-note", "read by the camera");
    expect(await axeViolations(page, { bestPractice: true })).toEqual([]);
    await page.screenshot({ path: screenshotPath("phone-notice-scan-photo"), fullPage: true });
    await page.click("#notice-send");
    await page.waitForSelector("#notice-summary.sent", { timeout: 20_000 });
    expect(await page.textContent("#notice-summary")).toContain("Photos: 1");

    // At the box: the whole camera frame (1280 × 720, not the guide's crop), within the photo limit.
    const held = await noticesAtBox();
    expect(held).toHaveLength(1);
    expect(held[0]!.registration_number.replace(/\s/g, "")).toBe(SCENE.plate);
    expect(held[0]!.photos).toHaveLength(1);
    expect(held[0]!.photos[0]).toMatchObject({ width: 1280, height: 720 });
    expect(held[0]!.photos[0]!.bytes).toBeLessThanOrEqual(500 * 1024);

    // Its notice kept, the frame has had its use: the car checked again starts with no photo.
    expect(await tapCheck(page)).toBe("none");
    expect(await openNotice(page)).toBe(0);
  }, 150_000);

  test("another plate typed over the read, or checked after it: no photo from the scan", async () => {
    const page = await signedInWithCamera("scan-typed");
    // The read, then another plate typed over it: another car.
    await readWithCamera(page);
    expect(await check(page, "TYP 123")).toBe("none");
    expect(await openNotice(page)).toBe(0);
    expect(await page.locator("#notice-photos .from-scan").count()).toBe(0);
    expect(await page.textContent("#notice-photo-label")).toBe("Photo (0 of 3)");
    await page.click("#notice-cancel");

    // A check of another plate forgets the frame: the scanned plate typed afterwards gets none.
    await readWithCamera(page);
    expect(await tapCheck(page)).toBe("none");
    expect(await check(page, "TYP 123")).toBe("none");
    expect(await check(page, SCENE.shown)).toBe("none");
    expect(await openNotice(page)).toBe(0);
    await page.click("#notice-cancel");

    // Removed like any photo; the form given up and opened again offers it again.
    await readWithCamera(page);
    expect(await tapCheck(page)).toBe("none");
    expect(await openNotice(page)).toBe(1);
    await page.click("#notice-photos li .remove-photo");
    expect(await page.locator("#notice-photos li").count()).toBe(0);
    expect(await page.textContent("#notice-photo-label")).toBe("Photo (0 of 3)");
    await page.click("#notice-cancel");
    expect(await openNotice(page)).toBe(1);
  }, 150_000);
});
