import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { type Box, boxesForFile, type Server } from "../support/binary.ts";
import {
  axeViolations,
  openBrowser,
  screenshotPath,
  skipWithoutChromium,
  waitInPage,
} from "../support/browser.ts";
import { pngPhoto } from "../support/photos.ts";

const newBox = boxesForFile();
const PHONE = { width: 390, height: 844 };

let box: Box;
let server: Server;
const tokens: Record<string, string> = {};
const contexts: BrowserContext[] = [];

async function adminApi(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${tokens.admin}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

type NoticeRow = { number: number; registration_number: string; photos: { width: number; bytes: number }[] };

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

async function signedIn(name: string, token: string, zone: number): Promise<Page> {
  for (const c of contexts.splice(0)) await c.close().catch(() => {});
  const ctx = await openBrowser(join(box.dir, `profile-${name}`), PHONE);
  contexts.push(ctx);
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  await page.goto(`${server.url}/`);
  await page.fill("#token", token);
  await page.click("#token-form button[type=submit]");
  await page.waitForSelector("#plate");
  await page.fill("#zone", String(zone));
  await page.click("#zone-form button");
  await page.waitForSelector("#zone-state.live");
  return page;
}

async function check(page: Page, plate: string): Promise<string> {
  await page.fill("#plate", plate);
  await page.click("#check-form button");
  await page.waitForFunction(() => !document.querySelector("#result .pending"));
  return (await page.locator("#result [data-verdict]").getAttribute("data-verdict"))!;
}

/** The notices waiting in the phone's IndexedDB. */
function waitingOnPhone(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const req = indexedDB.open("parkd-notices", 1);
        req.onupgradeneeded = () => req.result.createObjectStore("waiting", { keyPath: "input.id" });
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const count = req.result.transaction("waiting").objectStore("waiting").count();
          count.onsuccess = () => {
            req.result.close();
            resolve(count.result);
          };
        };
      }),
  );
}

/** Opens the notice form from the verdict shown and adds one camera photo (a 2400 × 1200 PNG). */
async function writeNotice(page: Page, note: string): Promise<void> {
  await page.click("#write-notice");
  await page.waitForSelector("#notice-form");
  await page.selectOption("#notice-reason", "no-permit");
  await page.fill("#notice-note", note);
  await page.setInputFiles("#notice-photo", {
    name: "camera.png",
    mimeType: "image/png",
    buffer: Buffer.from(pngPhoto(2400, 1200, 7)),
  });
  await page.waitForSelector("#notice-photos li img[src^='data:image/jpeg']", { timeout: 20_000 });
}

/**
 * The handheld's control notice against the built binary in a phone-sized Chromium: written from
 * a NO VALID PERMIT verdict with a camera photo while the phone is offline, kept on the phone,
 * sent exactly once when the network is back, numbered by the box.
 */
describe.skipIf(skipWithoutChromium)("a control notice from the handheld", () => {
  beforeAll(async () => {
    box = newBox();
    tokens.admin = await box.token("console", "admin");
    tokens.terminal = await box.token("terminal-1", "tickets:write");
    tokens.issuer = await box.token("handheld-1", "permits:read", "notices:write");
    tokens.reader = await box.token("handheld-2", "permits:read");
    server = await box.serve(["--http"]);
    const now = Date.now();
    const r = await fetch(`${server.url}/api/v1/actions/tickets`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.terminal}`, "content-type": "application/json" },
      body: JSON.stringify({
        eventType: "TicketCreated",
        ticketId: "X-1",
        zoneCode: "1002",
        parkingLotId: null,
        startDate: new Date(now - 3_600_000).toISOString(),
        endDate: new Date(now - 40 * 60_000).toISOString(),
        licenseNumber: "ENDED1",
        ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
      }),
    });
    expect(r.status).toBe(200);
    const reason = await adminApi("POST", "/api/v1/notice-reasons", {
      code: "no-permit",
      title: "No valid permit",
      amount: 50000,
    });
    expect(reason.status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  test("issued offline with a photo: kept on the phone, sent once on reconnect, the box's number shown", async () => {
    const page = await signedIn("notice-offline", tokens.issuer!, 1002);
    // What an offline notice needs is on the phone once the zone is live: the saved list, the reasons.
    await waitInPage(page, async () => {
      const cache = await caches.open("parkd-zones-v1");
      return !!(await cache.match("/api/v1/tickets/zone/1002/permits"));
    });
    await page.waitForFunction(() => localStorage.getItem("parkd.noticeReasons") !== null);
    await page.context().setOffline(true);
    expect(await check(page, "ENDED1")).toBe("none");
    expect(await page.getAttribute("#result", "class")).toContain("offline-answer");
    await writeNotice(page, "valves 10 and 4");
    expect(await page.textContent("#notice-photo-label")).toBe("Photo (1 of 3)");
    expect(await axeViolations(page, { bestPractice: true })).toEqual([]);
    await page.screenshot({ path: screenshotPath("phone-notice-form"), fullPage: true });
    await page.click("#notice-send");
    await page.waitForSelector("#notice-summary.waiting");
    expect(await page.textContent("#notice-summary h2")).toBe("Notice kept on this phone");
    expect(await page.getAttribute("#notice-summary", "data-number")).toBe("");
    expect(await waitingOnPhone(page)).toBe(1);
    expect(await page.textContent("#notices-waiting")).toBe("Notices waiting to send: 1");
    expect(await noticesAtBox()).toEqual([]);
    await page.screenshot({ path: screenshotPath("phone-notice-waiting"), fullPage: true });

    await page.context().setOffline(false);
    await page.waitForSelector("#notice-summary.sent", { timeout: 20_000 });
    expect(await page.getAttribute("#notice-summary", "data-number")).toBe("1");
    expect(await page.textContent("#notice-summary h2")).toBe("Notice no. 1");
    expect(await page.textContent("#notice-summary")).toMatch(/Zone 1002 · No valid permit · SEK\s500\.00/);
    expect(await page.textContent("#notice-summary")).toContain("Photos: 1");
    expect(await page.isHidden("#notices-waiting")).toBe(true);
    expect(await waitingOnPhone(page)).toBe(0);
    expect(await axeViolations(page, { bestPractice: true })).toEqual([]);
    await page.screenshot({ path: screenshotPath("phone-notice-issued"), fullPage: true });

    // At the box: one notice, its photo scaled on the phone to 1600 px and at most 500 KB.
    const held = await noticesAtBox();
    expect(held.map((n) => [n.number, n.registration_number])).toEqual([[1, "ENDED1"]]);
    expect(held[0]!.photos).toHaveLength(1);
    expect(held[0]!.photos[0]!.width).toBe(1600);
    expect(held[0]!.photos[0]!.bytes).toBeLessThanOrEqual(500 * 1024);
    // The page opened again sends nothing more: still one notice.
    await page.reload();
    await page.waitForSelector("#plate");
    await page.waitForFunction(() => localStorage.getItem("parkd.noticeReasons") !== null);
    expect(await noticesAtBox()).toHaveLength(1);
  }, 120_000);

  test("an answer lost on the way back: the notice is sent again at page start and the box keeps one", async () => {
    const page = await signedIn("notice-lost-answer", tokens.issuer!, 1002);
    await page.waitForFunction(() => localStorage.getItem("parkd.noticeReasons") !== null);
    // The box stores the notice; the phone never hears the answer.
    let lost = 0;
    await page.route("**/api/v1/attendants/notices", async (route) => {
      if (route.request().method() !== "POST" || lost > 0) return route.continue();
      lost++;
      await route.fetch();
      await route.abort("connectionreset");
    });
    expect(await check(page, "NOPE2")).toBe("none");
    await writeNotice(page, "");
    await page.click("#notice-send");
    await page.waitForSelector("#notice-summary.waiting");
    expect(lost).toBe(1);
    const before = await noticesAtBox();
    expect(before).toHaveLength(2);
    expect(before.find((n) => n.registration_number === "NOPE2")!.photos).toHaveLength(0);
    expect(await waitingOnPhone(page)).toBe(1);
    // Opened again: the waiting notice goes first; the box answers it with the number it stored.
    await page.reload();
    await page.waitForSelector("#plate");
    for (let i = 0; i < 80 && (await waitingOnPhone(page)) > 0; i++) await Bun.sleep(250);
    expect(await waitingOnPhone(page)).toBe(0);
    const after = await noticesAtBox();
    expect(after.map((n) => n.number).sort()).toEqual([1, 2]);
    expect(after.find((n) => n.registration_number === "NOPE2")!.photos).toHaveLength(1);
  }, 120_000);

  test("a handheld that may only check gets no Write notice button", async () => {
    const page = await signedIn("notice-reader", tokens.reader!, 1002);
    expect(await check(page, "NOPE3")).toBe("none");
    expect(await page.locator("#write-notice").count()).toBe(0);
  }, 60_000);
});
