import { beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { axeViolations, screenshotPath, skipWithoutChromium, waitInPage } from "../support/browser.ts";
import { handheldRig, morningZone } from "../support/handheld.ts";
import { cityLot } from "../support/lots.ts";
import { pngPhoto } from "../support/photos.ts";

const rig = handheldRig();
const { tokens, adminApi, signedIn, check } = rig;

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
 * sent exactly once when the network is back, numbered by the rig.box.
 */
describe.skipIf(skipWithoutChromium)("a control notice from the handheld", () => {
  beforeAll(async () => {
    await rig.start(
      {
        admin: ["console", "admin"],
        terminal: ["terminal-1", "tickets:write"],
        issuer: ["handheld-1", "permits:read", "notices:write"],
        reader: ["handheld-2", "permits:read"],
      },
      // A mark and the phone's clock 2 h 14 min on fall on one site-local day at any hour.
      ["--http", "--timezone", morningZone()],
    );
    const now = Date.now();
    await rig.sendTicket("X-1", "ENDED1", 1002, now - 3_600_000, now - 40 * 60_000);
    // Zone 1002 has a 2-hour limit: cars there can be marked.
    const lot = await adminApi("POST", "/api/v1/parkings", {
      ...cityLot(),
      zone_number: 1002,
      max_time: 7200,
    });
    expect(lot.status).toBe(201);
    // Each reason follows its verdict: the form offers only the verdict's own.
    for (const [code, title, verdicts] of [
      ["no-permit", "No valid permit", ["none"]],
      ["over-time", "Over the time limit", ["over_time_limit"]],
    ] as const) {
      const reason = await adminApi("POST", "/api/v1/notice-reasons", {
        code,
        title,
        amount: 50000,
        verdicts,
      });
      expect(reason.status).toBe(201);
    }
  }, 60_000);

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
    expect(
      await page
        .locator("#notice-reason option")
        .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)),
    ).toEqual(["no-permit"]);
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

  test("a handheld that may only check gets no Write notice button and no Mark", async () => {
    const page = await signedIn("notice-reader", tokens.reader!, 1002);
    expect(await check(page, "NOPE3")).toBe("none");
    expect(await page.locator("#write-notice").count()).toBe(0);
    expect(await page.locator("#mark").count()).toBe(0);
  }, 60_000);

  test("a car marked at 2 h limit: after the phone's clock moves 2 h 14 min, OVER TIME LIMIT in its own colour, from the saved list", async () => {
    const page = await signedIn("chalk", tokens.issuer!, 1002);
    await page.clock.install();
    expect(await check(page, "CHALK1")).toBe("none");
    await page.fill("#mark-note", "valves 2 and 7");
    await page.click("#mark");
    await page.waitForSelector("#mark-said.mark-sent");
    const said = (await page.textContent("#mark-said"))!;
    expect(said).toMatch(/^Marked \d\d:\d\d in zone 1002 \(limit 2 h\)$/);
    const seenAt = said.slice("Marked ".length, "Marked ".length + 5);
    // The mark asks for the zone's saved list again: the phone holds it before the network goes.
    await waitInPage(page, async () => {
      const kept = await (await caches.open("parkd-zones-v1")).match("/api/v1/tickets/zone/1002/permits");
      const list = kept ? await kept.json() : null;
      return !!list?.observations?.some((o: { plate_norm: string }) => o.plate_norm === "CHALK1");
    });
    // Checked again at once, online: the mark is said under the verdict.
    expect(await check(page, "CHALK1")).toBe("none");
    expect(await page.textContent("#observation-line")).toMatch(
      new RegExp(`^Marked ${seenAt}, \\d+ min ago \\(limit 2 h\\)$`),
    );
    expect(await page.locator("#mark").count()).toBe(0);

    await page.context().setOffline(true);
    // Half a minute past 2 h 14 min: the phone's installed clock and the box's may differ by
    // some hundreds of ms, which must not move the whole minutes the verdict shows.
    await page.clock.fastForward("02:14:30");
    expect(await check(page, "chalk 1")).toBe("over_time_limit");
    expect(await page.getAttribute("#result", "class")).toContain("over");
    expect(await page.getAttribute("#result", "class")).toContain("offline-answer");
    expect(await page.textContent("#result .verdict")).toBe(
      `OVER TIME LIMIT · seen ${seenAt}, 2 h 14 min ago (limit 2 h) · zone 1002`,
    );
    expect(await page.textContent("#observation-note")).toBe("valves 2 and 7");
    // Its colour is its own: neither the red of NO VALID PERMIT nor the amber of a warning.
    const colour = await page.evaluate(
      () => getComputedStyle(document.querySelector("#result")!).backgroundColor,
    );
    expect(colour).toBe("rgb(91, 26, 140)");
    // A notice may follow it.
    expect(await page.locator("#write-notice").count()).toBe(1);
    expect(await axeViolations(page, { bestPractice: true })).toEqual([]);
    await page.screenshot({ path: screenshotPath("phone-over-time-limit"), fullPage: true });
    // Its form offers the reasons for OVER TIME LIMIT only.
    await page.click("#write-notice");
    await page.waitForSelector("#notice-form");
    expect(
      await page
        .locator("#notice-reason option")
        .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)),
    ).toEqual(["over-time"]);
    await page.click("#notice-cancel");
    await page.context().setOffline(false);
  }, 120_000);
});
