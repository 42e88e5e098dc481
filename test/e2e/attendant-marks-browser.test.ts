import { beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { axeViolations, screenshotPath, skipWithoutChromium, waitInPage } from "../support/browser.ts";
import { handheldRig, morningZone } from "../support/handheld.ts";
import { cityLot } from "../support/lots.ts";

const rig = handheldRig();
const { tokens, adminApi, signedIn, check } = rig;

const SERVE = ["--http", "--timezone", morningZone()];

type HeldMark = { plate_norm: string; first_seen_at: string; note: string };

/** The marks the box holds for zone 1002 today, as its saved list for the zone carries them. */
async function marksAtBox(): Promise<HeldMark[]> {
  const r = await fetch(`${rig.server.url}/api/v1/tickets/zone/1002/permits`, {
    headers: { authorization: `Bearer ${tokens.issuer}` },
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { observations: HeldMark[] }).observations;
}

/** What waits in the phone's queue (IndexedDB), notices and marks. */
function waitingOnPhone(page: Page): Promise<{ kind?: string; input: { id: string; marked_at?: string } }[]> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const req = indexedDB.open("parkd-notices", 1);
        req.onupgradeneeded = () => req.result.createObjectStore("waiting", { keyPath: "input.id" });
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const all = req.result.transaction("waiting").objectStore("waiting").getAll();
          all.onsuccess = () => {
            req.result.close();
            resolve(all.result);
          };
        };
      }),
  );
}

/**
 * The box's answers to the phone's marks, in order: what the box did with each POST. A route
 * would reach the box past the browser's offline switch: while the phone is offline (the
 * context's `setOffline`), a mark it tries to send fails as the network would fail it.
 */
async function answersToMarks(page: Page, opts: { loseFirst?: boolean } = {}): Promise<number[]> {
  const statuses: number[] = [];
  const context = page.context();
  let offline = false;
  const setOffline = context.setOffline.bind(context);
  context.setOffline = async (value: boolean) => {
    offline = value;
    await setOffline(value);
  };
  await page.route("**/api/v1/attendants/observations", async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    if (offline) return route.abort("internetdisconnected");
    const answer = await route.fetch();
    statuses.push(answer.status());
    // The box stores the mark; the phone never hears the answer.
    if (opts.loseFirst && statuses.length === 1) return route.abort("connectionreset");
    return route.fulfill({ response: answer });
  });
  return statuses;
}

const micros = (iso: string) => iso.replace(/Z$/, "000Z");

/**
 * Marking a car from the handheld while the box cannot be reached: the mark waits on the phone in
 * the queue the notices use, listed, and reaches the box once when it answers, with the time the
 * attendant marked the car. With the box's clock moved 2 h 14 min ahead (`serve --clock-shift`),
 * the box's verdict for the car is OVER TIME LIMIT, said with the time it was seen.
 */
describe.skipIf(skipWithoutChromium)("marking a car from the handheld, offline first", () => {
  beforeAll(async () => {
    await rig.start(
      {
        admin: ["console", "admin"],
        terminal: ["terminal-1", "tickets:write"],
        issuer: ["handheld-1", "permits:read", "notices:write"],
      },
      SERVE,
    );
    const now = Date.now();
    await rig.sendTicket("P-1", "PAID1", 1002, now - 3_600_000, now + 6 * 3_600_000);
    // Zone 1002 has a 2-hour limit: cars there can be marked.
    const lot = await adminApi("POST", "/api/v1/parkings", {
      ...cityLot(),
      zone_number: 1002,
      max_time: 7200,
    });
    expect(lot.status).toBe(201);
    const other = await adminApi("POST", "/api/v1/parkings", {
      ...cityLot(),
      zone_number: 1003,
      max_time: 3600,
    });
    expect(other.status).toBe(201);
    // Zone 1004's lot sets no limit: nothing to mark there.
    const unlimited = await adminApi("POST", "/api/v1/parkings", {
      ...cityLot(),
      zone_number: 1004,
      max_time: 0,
    });
    expect(unlimited.status).toBe(201);
  }, 60_000);

  let markedAt = "";
  let shownTime = "";

  test("marked offline: kept on the phone and listed; on reconnect the box gets it once, with the time of marking", async () => {
    const page = await signedIn("marks-offline", tokens.issuer!, 1002);
    await waitInPage(page, async () => {
      const cache = await caches.open("parkd-zones-v1");
      return !!(await cache.match("/api/v1/tickets/zone/1002/permits"));
    });
    const answers = await answersToMarks(page);
    await page.context().setOffline(true);
    // Not in the saved list (no ticket, no mark): the car can be marked from the offline answer.
    expect(await check(page, "offl 1")).toBe("not_in_list");
    await page.fill("#mark-note", "valves 2 and 7");
    await page.click("#mark");
    await page.waitForSelector("#mark-said.mark-waiting");
    expect(await page.textContent("#mark-said")).toMatch(
      /^Marked \d\d:\d\d in zone 1002: kept on this phone, it goes to the box when it answers\.$/,
    );
    const kept = await waitingOnPhone(page);
    expect(kept.map((w) => w.kind)).toEqual(["mark"]);
    markedAt = kept[0]!.input.marked_at!;
    // Listed under the plate field as the notices waiting are: the car, the zone, the time.
    await page.waitForSelector("#marks-waiting:not([hidden])");
    expect(await page.textContent("#marks-waiting h2")).toBe("Marks waiting to send: 1");
    const item = (await page.textContent("#marks-waiting-list li"))!;
    expect(item).toMatch(/^OFFL 1 Zone 1002 · marked \d\d:\d\d$/);
    shownTime = item.slice(-5);
    expect(await page.textContent("#mark-said")).toContain(`Marked ${shownTime} in zone 1002`);
    // A second car, to see the list hold more than one.
    expect(await check(page, "OFFL2")).toBe("not_in_list");
    await page.click("#mark");
    await page.waitForSelector("#mark-said.mark-waiting");
    await page.waitForFunction(() => document.querySelectorAll("#marks-waiting-list li").length === 2);
    expect(await page.textContent("#marks-waiting h2")).toBe("Marks waiting to send: 2");
    expect(answers).toEqual([]);
    expect(await marksAtBox()).toEqual([]);
    expect(await axeViolations(page, { bestPractice: true })).toEqual([]);
    await page.screenshot({ path: screenshotPath("phone-marks-waiting"), fullPage: true });

    await page.context().setOffline(false);
    await page.waitForSelector("#marks-waiting", { state: "hidden", timeout: 20_000 });
    await page.waitForSelector("#mark-said.mark-sent");
    expect(await page.textContent("#mark-said")).toMatch(/^Marked \d\d:\d\d in zone 1002 \(limit 2 h\)$/);
    expect(await waitingOnPhone(page)).toEqual([]);
    // Each mark sent once, each stored: first seen when the attendant marked it, not when it came.
    expect(answers).toEqual([201, 201]);
    const held = await marksAtBox();
    expect(held.map((m) => m.plate_norm)).toEqual(["OFFL1", "OFFL2"]);
    expect(held[0]).toMatchObject({ first_seen_at: micros(markedAt), note: "valves 2 and 7" });
    // The page opened again sends nothing more.
    await page.reload();
    await page.waitForSelector("#plate");
    await page.waitForFunction(() => localStorage.getItem("parkd.noticeReasons") !== null);
    expect(answers).toEqual([201, 201]);
    expect(await marksAtBox()).toHaveLength(2);
  }, 120_000);

  test("an answer lost on the way back: the mark is sent again at page start, and the box keeps one", async () => {
    const page = await signedIn("marks-lost-answer", tokens.issuer!, 1002);
    const answers = await answersToMarks(page, { loseFirst: true });
    expect(await check(page, "LOST1")).toBe("none");
    await page.click("#mark");
    await page.waitForSelector("#mark-said.mark-waiting");
    for (let i = 0; i < 80 && answers.length === 0; i++) await Bun.sleep(100);
    expect(answers).toEqual([201]);
    expect(await waitingOnPhone(page)).toHaveLength(1);
    await page.waitForSelector("#marks-waiting:not([hidden])");
    // Opened again: the waiting mark goes first; the box answers it with the mark it stored.
    await page.reload();
    await page.waitForSelector("#plate");
    for (let i = 0; i < 80 && (await waitingOnPhone(page)).length > 0; i++) await Bun.sleep(250);
    expect(await waitingOnPhone(page)).toEqual([]);
    expect(answers).toEqual([201, 200]);
    expect((await marksAtBox()).filter((m) => m.plate_norm === "LOST1")).toHaveLength(1);
  }, 120_000);

  test("refused by the box (the car marked later in another zone): said once with why, then gone, never sent again", async () => {
    const page = await signedIn("marks-refused", tokens.issuer!, 1002);
    await waitInPage(page, async () => {
      const cache = await caches.open("parkd-zones-v1");
      return !!(await cache.match("/api/v1/tickets/zone/1002/permits"));
    });
    const answers = await answersToMarks(page);
    await page.context().setOffline(true);
    expect(await check(page, "MOVED1")).toBe("not_in_list");
    await page.click("#mark");
    await page.waitForSelector("#mark-said.mark-waiting");
    // Meanwhile another handheld marks the car in zone 1003, online: later than this mark. (The
    // phone's time is the box's as learnt from its Date header, whole seconds: within a second.)
    await Bun.sleep(1_500);
    const elsewhere = await fetch(`${rig.server.url}/api/v1/attendants/observations`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.issuer}`, "content-type": "application/json" },
      body: JSON.stringify({ registration_number: "MOVED1", zone: 1003 }),
    });
    expect(elsewhere.status).toBe(201);
    await page.context().setOffline(false);
    await page.waitForSelector("#mark-said.mark-refused", { timeout: 20_000 });
    expect(answers).toEqual([409]);
    // Said under its verdict, once: no panel of refusals above the page.
    expect(await page.textContent("#mark-said")).toBe(
      "The box refused the mark: Marked later in another zone",
    );
    await page.waitForFunction(() => document.querySelector<HTMLElement>("#marks-waiting")?.hidden === true);
    expect(await waitingOnPhone(page)).toEqual([]);
    expect(await axeViolations(page, { bestPractice: true })).toEqual([]);
    await page.screenshot({ path: screenshotPath("phone-mark-refused"), fullPage: true });
    // Gone from the phone: the page opened again sends nothing and shows nothing of it.
    await page.reload();
    await page.waitForFunction(() => localStorage.getItem("parkd.noticeReasons") !== null);
    expect(await page.locator("#marks-waiting").isHidden()).toBe(true);
    expect(answers).toEqual([409]);
    expect((await marksAtBox()).some((m) => m.plate_norm === "MOVED1")).toBe(false);
  }, 120_000);

  test("a refused mark sent from the queue while another car is shown: said once above the page, gone at the next check", async () => {
    const page = await signedIn("marks-refused-later", tokens.issuer!, 1002);
    await waitInPage(page, async () => {
      const cache = await caches.open("parkd-zones-v1");
      return !!(await cache.match("/api/v1/tickets/zone/1002/permits"));
    });
    const answers = await answersToMarks(page);
    await page.context().setOffline(true);
    expect(await check(page, "MOVED2")).toBe("not_in_list");
    await page.click("#mark");
    await page.waitForSelector("#mark-said.mark-waiting");
    await Bun.sleep(1_500);
    const elsewhere = await fetch(`${rig.server.url}/api/v1/attendants/observations`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.issuer}`, "content-type": "application/json" },
      body: JSON.stringify({ registration_number: "MOVED2", zone: 1003 }),
    });
    expect(elsewhere.status).toBe(201);
    // Another car is checked (offline) before the box is back: the mark's verdict is gone.
    expect(await check(page, "OTHER2")).toBe("not_in_list");
    await page.context().setOffline(false);
    await page.waitForSelector("#marks-refused li", { timeout: 20_000 });
    expect(answers).toEqual([409]);
    expect(await page.textContent("#marks-refused li")).toBe(
      "The box refused the mark of MOVED2 in zone 1002: Marked later in another zone",
    );
    expect(await waitingOnPhone(page)).toEqual([]);
    expect(await axeViolations(page, { bestPractice: true })).toEqual([]);
    await page.screenshot({ path: screenshotPath("phone-mark-refused-later"), fullPage: true });
    expect(await check(page, "OTHER2")).not.toBe("");
    await page.waitForSelector("#marks-waiting", { state: "hidden" });
  }, 120_000);

  test("a zone without a time limit offers no mark; a zone with one does", async () => {
    const page = await signedIn("marks-no-limit", tokens.issuer!, 1002);
    await page.waitForFunction(() =>
      (localStorage.getItem("parkd.knownZones") ?? "").includes("time_limit_seconds"),
    );
    expect(await check(page, "NOLIM1")).toBe("none");
    expect(await page.locator("#mark").count()).toBe(1);
    await page.fill("#zone", "1004");
    await page.waitForFunction(() =>
      document.querySelector("#zone-state")?.textContent?.includes("zone 1004"),
    );
    expect(await check(page, "NOLIM1")).toBe("none");
    expect(await page.locator("#mark").count()).toBe(0);
    expect(await page.locator("#write-notice").count()).toBe(1);
  }, 60_000);

  test("the box's clock 2 h 14 min on: its verdict is OVER TIME LIMIT, seen at the time of marking", async () => {
    expect(markedAt).not.toBe("");
    const page = await signedIn("marks-over", tokens.issuer!, 1002);
    const port = rig.server.port;
    expect(await rig.server.stop()).toBe(0);
    // Moved so that the box reads 2 h 14 min (and a few seconds) since the car was marked.
    const shift = Math.round((Date.parse(markedAt) + (2 * 60 + 14) * 60_000 - Date.now()) / 1000) + 5;
    rig.server = await rig.box.serve([...SERVE, "--clock-shift", String(shift)], { port });
    expect(rig.server.stderr() + rig.server.stdout()).toContain("--clock-shift");
    await page.waitForSelector("#zone-state.live", { timeout: 20_000 });
    expect(await check(page, "OFFL1")).toBe("over_time_limit");
    expect(await page.getAttribute("#result", "class")).not.toContain("offline-answer");
    expect(await page.textContent("#result .verdict")).toBe(
      `OVER TIME LIMIT · seen ${shownTime}, 2 h 14 min ago (limit 2 h) · zone 1002`,
    );
    expect(await page.textContent("#observation-note")).toBe("valves 2 and 7");
    // The mark was found; what the car lacks is a ticket or permit.
    expect(await page.textContent("#result")).toContain("No ticket or permit for OFFL1");
    expect(await page.locator("#write-notice").count()).toBe(1);
    expect(await page.locator("#mark").count()).toBe(0);
    // A ticket valid here still wins.
    expect(await check(page, "PAID1")).toBe("valid_here");
    expect(await check(page, "OFFL1")).toBe("over_time_limit");
    expect(await axeViolations(page, { bestPractice: true })).toEqual([]);
    await page.screenshot({ path: screenshotPath("phone-over-time-box-clock"), fullPage: true });
  }, 120_000);
});
