import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { type Box, boxesForFile, type Server } from "../support/binary.ts";
import { axeViolations, screenshotPath, signedInConsole, skipWithoutChromium } from "../support/browser.ts";
import { cityLot } from "../support/lots.ts";
import { pngPhoto } from "../support/photos.ts";

const newBox = boxesForFile();
setDefaultTimeout(60_000);
const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

let box: Box;
let server: Server;
let admin: string;
let handheld: string;
const contexts: BrowserContext[] = [];

async function call(token: string, method: string, path: string, body?: unknown, type = "application/json") {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": type },
    body: (body === undefined
      ? undefined
      : body instanceof Uint8Array
        ? body
        : JSON.stringify(body)) as BodyInit,
  });
}

async function issue(id: string, plate: string): Promise<number> {
  const r = await call(handheld, "POST", "/api/v1/attendants/notices", {
    id,
    registration_number: plate,
    zone: 1002,
    verdict: "none",
    reason: "no-permit",
    note: "valves 2 and 7",
    observed_at: new Date().toISOString(),
  });
  expect(r.status).toBe(201);
  return ((await r.json()) as { data: { number: number } }).data.number;
}

const signedIn = (name: string, viewport = DESKTOP, locale = "en-GB", timezoneId?: string): Promise<Page> =>
  signedInConsole(
    { url: server.url, token: admin, dir: box.dir, contexts },
    name,
    viewport,
    locale,
    timezoneId,
  );

const rowCount = (page: Page) => page.locator("#notices-table tbody tr").count();

/**
 * The operator's control notices in the console, against the built binary in headless Chromium:
 * searched, opened with their photos, voided, exported; the reasons table kept. Skipped only
 * without Chromium, never with CI=true.
 */
describe.skipIf(skipWithoutChromium)("the console's control notices", () => {
  let first: number;
  beforeAll(async () => {
    box = newBox();
    admin = await box.token("console", "admin");
    handheld = await box.token("handheld-1", "permits:read", "notices:write");
    server = await box.serve(["--http"]);
    const reason = await call(admin, "POST", "/api/v1/notice-reasons", {
      code: "no-permit",
      title: "No valid permit",
      amount: 50000,
    });
    expect(reason.status).toBe(201);
    first = await issue("console-notice-1", "ABC123");
    await issue("console-notice-2", "XYZ789");
    const photo = await call(
      handheld,
      "POST",
      "/api/v1/attendants/notices/console-notice-1/photos",
      pngPhoto(320, 240, 7),
      "image/png",
    );
    expect(photo.status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  test("searched by plate, opened with its photo, voided with a reason; the CSV link carries the search", async () => {
    const page = await signedIn("notices");
    await page.click('nav a[data-page="notices"]');
    await page.waitForSelector("#notices-table tbody tr");
    expect(await rowCount(page)).toBe(2);

    await page.fill('#notice-search input[name="registration_number"]', "abc 123");
    await page.click("#notice-search button[type=submit]");
    await page.waitForFunction(() => document.querySelectorAll("#notices-table tbody tr").length === 1);
    expect(await page.locator("#notices-table tbody").textContent()).toContain("ABC123");
    expect(page.url()).toContain("#/notices?registration_number=abc+123");
    const csv = await page.locator("#notices-csv").getAttribute("href");
    expect(csv).toContain("/api/v1/notices.csv?registration_number=abc+123");
    const exported = await call(admin, "GET", csv!);
    expect(exported.status).toBe(200);
    const text = await exported.text();
    expect(text).toContain("ABC123");
    expect(text).not.toContain("XYZ789");
    // The English console's form, in the site's time with its offset, the zone named in the
    // heading (this box runs in UTC).
    expect(text.split("\r\n")[0]).toContain(",issued_at (UTC),");
    expect(text.split("\r\n")[1]).toMatch(/^\d+,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00,ABC123,/);

    await page.click(`#notices-table a[href="#/notices/${first}"]`);
    await page.waitForSelector("#notice-facts");
    expect(await page.locator("#notice-detail h2").textContent()).toBe(`Notice no. ${first} · ABC123`);
    expect(await page.locator("#notice-facts").textContent()).toContain("No valid permit (no-permit)");
    // The verdict the attendant was given, beside the reason chosen.
    expect(await page.locator("#notice-facts").textContent()).toMatch(
      /Verdict the attendant saw(no valid permit|over time limit)/,
    );
    // The photo is the one the handheld sent, drawn from the box (a session may read it).
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>("#notice-photos img");
      return !!img && img.complete && img.naturalWidth === 320;
    });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("desktop-notice"), fullPage: true });

    // A void needs its reason: the field refuses an empty one before anything is sent.
    await page.click("#void-form button[type=submit]");
    expect(await page.locator("#void-form").count()).toBe(1);
    await page.fill('#void-form input[name="reason"]', "Permit shown at the office");
    await page.click("#void-form button[type=submit]");
    await page.waitForFunction(() => !document.querySelector("#void-form"));
    expect(await page.locator("#notice-facts").textContent()).toContain("Permit shown at the office");
    expect(await page.locator("#notice-facts [data-state]").getAttribute("data-state")).toBe("voided");
    const stored = (await (await call(admin, "GET", `/api/v1/notices/${first}`)).json()) as {
      data: { state: string; voided_by: string };
    };
    expect(stored.data.state).toBe("voided");
    expect(stored.data.voided_by).toContain("console");
  });

  test("the reasons table: a reason added and one changed reach the box; a bad code is refused at the field", async () => {
    const page = await signedIn("reasons", PHONE, "sv-SE");
    await page.goto(`${server.url}/#/notices`);
    await page.waitForSelector("#reasons-table tbody tr");
    expect(await page.locator("#reasons-table tbody tr").count()).toBe(1);

    await page.fill('#reason-add input[name="code"]', "Bad Code");
    await page.fill('#reason-add input[name="title"]', "Fel");
    await page.click("#reason-add button[type=submit]");
    expect(await page.locator("#reason-add input[name=code]:invalid").count()).toBe(1);

    await page.fill('#reason-add input[name="code"]', "expired-ticket");
    await page.fill('#reason-add input[name="title"]', "Biljetten har gått ut");
    await page.fill('#reason-add input[name="amount"]', "300,00");
    // Offered after neither verdict: said at once, nothing sent.
    await page.getByLabel("Erbjuds efter ”inget giltigt tillstånd”", { exact: true }).uncheck();
    await page.getByLabel("Erbjuds efter ”över tidsgränsen”", { exact: true }).uncheck();
    await page.click("#reason-add button[type=submit]");
    await page.waitForFunction(() =>
      document.querySelector("#reasons-status")?.textContent?.includes("minst ett beslut"),
    );
    expect(await page.locator("#reasons-table tbody tr").count()).toBe(1);
    // An expired ticket is a car over its time: offered after OVER TIME LIMIT only.
    await page.getByLabel("Erbjuds efter ”över tidsgränsen”", { exact: true }).check();
    await page.click("#reason-add button[type=submit]");
    await page.waitForFunction(() => document.querySelectorAll("#reasons-table tbody tr").length === 2);

    const row = page.locator("#reasons-table tbody tr", { hasText: "no-permit" });
    await row.locator('input[name="title"]').fill("Ingen giltig parkering");
    await row.locator('input[name="active"]').uncheck();
    await row.getByLabel("no-permit erbjuds efter ”över tidsgränsen”").uncheck();
    await row.locator("button").click();
    await page.waitForFunction(() =>
      document.querySelector("#reasons-status")?.textContent?.includes("no-permit"),
    );

    const list = (await (await call(admin, "GET", "/api/v1/notice-reasons")).json()) as {
      data: { code: string; title: string; amount: number; active: boolean; verdicts: string[] }[];
    };
    expect(list.data.find((r) => r.code === "expired-ticket")).toMatchObject({
      amount: 30000,
      active: true,
      verdicts: ["over_time_limit"],
    });
    expect(list.data.find((r) => r.code === "no-permit")).toMatchObject({
      title: "Ingen giltig parkering",
      amount: 50000,
      active: false,
      verdicts: ["none"],
    });
    // The table shows each reason's verdicts as saved.
    await page.reload();
    await page.waitForSelector("#reasons-table tbody tr");
    const offered = (code: string) =>
      page
        .locator("#reasons-table tbody tr", { hasText: code })
        .locator('input[name="verdicts"]:checked')
        .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value));
    expect(await offered("expired-ticket")).toEqual(["over_time_limit"]);
    expect(await offered("no-permit")).toEqual(["none"]);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("phone-notice-reasons"), fullPage: true });
  });

  test("the history reads notices and reasons in the operator's words, filtered by either", async () => {
    const page = await signedIn("notice-history");
    await page.goto(`${server.url}/#/changes`);
    await page.waitForSelector("#changes-filter");
    await page.selectOption('#changes-filter select[name="subject"]', "notice");
    await page.click("#changes-filter button[type=submit]");
    await page.waitForFunction(() =>
      [...document.querySelectorAll("#changes-list tbody tr")].some((r) => r.textContent?.includes("ABC123")),
    );
    const notices = (await page.locator("#changes-list").textContent()) ?? "";
    // Names, not columns; money in kronor; the verdict in words; who, and through what.
    expect(notices).toContain("Registration number: ABC123");
    expect(notices).toContain("Verdict the attendant saw: no valid permit");
    expect(notices).toMatch(/Amount: SEK\s?500\.00/);
    expect(notices).toContain("token:handheld-1 (API)");
    expect(notices).not.toMatch(/registration_number|amount: 50000|observed_at/);
    await page.selectOption('#changes-filter select[name="subject"]', "notice_reason");
    await page.click("#changes-filter button[type=submit]");
    await page.waitForFunction(() =>
      document.querySelector("#changes-list")?.textContent?.includes("Title:"),
    );
    const reasons = (await page.locator("#changes-list").textContent()) ?? "";
    expect(reasons).toContain("Title: No valid permit");
    expect(reasons).toMatch(/Amount: SEK\s?500\.00/);
    expect(reasons).toContain("Active: yes");
    expect(reasons).toContain("Offered after: no valid permit, over time limit");
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("history-notices"), fullPage: true });
  });

  test("text a handheld or an operator typed is shown as text, never run", async () => {
    const hostile = '<img src=x onerror="window.__pwned=1">';
    const reason = await call(admin, "POST", "/api/v1/notice-reasons", {
      code: "markup",
      title: `<b onmouseover="window.__pwned=2">Bold</b>`,
      amount: 100,
    });
    expect(reason.status).toBe(201);
    const r = await call(handheld, "POST", "/api/v1/attendants/notices", {
      id: "console-notice-hostile",
      registration_number: "HTML1",
      zone: 1002,
      verdict: "none",
      reason: "markup",
      note: hostile,
      observed_at: new Date().toISOString(),
    });
    expect(r.status).toBe(201);
    const { number } = ((await r.json()) as { data: { number: number } }).data;
    const page = await signedIn("hostile");
    await page.goto(`${server.url}/#/notices/${number}`);
    await page.waitForSelector("#notice-facts");
    await page.waitForSelector("#reasons-table tbody tr");
    expect(await page.locator("#notice-facts").textContent()).toContain(hostile);
    expect(await page.locator("#notice-facts img, #notices-table img, #notice-facts b").count()).toBe(0);
    await page.hover("#notices-table tbody tr:first-child");
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  test("an OVER TIME LIMIT notice shows the mark it follows; a NO VALID PERMIT one no mark line", async () => {
    const lot = await call(admin, "POST", "/api/v1/parkings", {
      ...cityLot(),
      zone_number: 1777,
      max_time: 2 * 3600,
    });
    expect(lot.status).toBe(201);
    const over = await call(admin, "POST", "/api/v1/notice-reasons", {
      code: "over-time",
      title: "Over the time limit",
      amount: 30000,
      verdicts: ["over_time_limit"],
    });
    expect(over.status).toBe(201);
    const marked = await call(handheld, "POST", "/api/v1/attendants/observations", {
      registration_number: "LATE 1",
      zone: 1777,
    });
    expect(marked.status).toBe(201);
    const seen = ((await marked.json()) as { data: { first_seen_at: string } }).data.first_seen_at;
    const r = await call(handheld, "POST", "/api/v1/attendants/notices", {
      id: "console-notice-over",
      registration_number: "LATE 1",
      zone: 1777,
      verdict: "over_time_limit",
      reason: "over-time",
      observed_at: new Date().toISOString(),
    });
    expect(r.status).toBe(201);
    const { number } = ((await r.json()) as { data: { number: number } }).data;
    const page = await signedIn("notice-mark");
    await page.goto(`${server.url}/#/notices/${number}`);
    await page.waitForSelector("#notice-facts");
    const facts = (await page.locator("#notice-facts").textContent()) ?? "";
    expect(facts).toContain("Verdict the attendant sawover time limit");
    const time = await page.evaluate(
      (iso) => new Date(iso).toLocaleString("en-GB", { dateStyle: "short", timeStyle: "short" }),
      seen,
    );
    expect(facts).toContain(`Mark it followsseen ${time} by token:handheld-1 (limit 2 h)`);
    // Written at once after the mark: before the car was over its limit, which the page says.
    expect(facts).toContain("Written before the car was over its limit by this mark (over at ");
    // The zone's one lot, taken for the notice, by its name.
    const lotId = ((await lot.json()) as { data: { id: number } }).data.id;
    expect(facts).toContain(`LotCentrum P-hus (#${lotId})`);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("desktop-notice-mark"), fullPage: true });
    await page.goto(`${server.url}/#/notices/${first}`);
    await page.waitForFunction(() =>
      document.querySelector("#notice-detail h2")?.textContent?.includes("ABC123"),
    );
    expect(await page.locator("#notice-facts").textContent()).not.toContain("Mark it follows");
  });

  test("an operator in another time zone reads and types the site's times (the box's --timezone, UTC here)", async () => {
    const page = await signedIn("other-zone", DESKTOP, "en-GB", "America/New_York");
    const issuedAt = (
      (await (await call(admin, "GET", `/api/v1/notices/${first}`)).json()) as { data: { issued_at: string } }
    ).data.issued_at;
    const siteTime = (iso: string, hours = 0) =>
      page.evaluate(
        ([iso, hours]) => {
          const d = new Date(Date.parse(iso as string) + (hours as number) * 3_600_000);
          return {
            shown: d.toLocaleString("en-GB", { dateStyle: "short", timeStyle: "short", timeZone: "UTC" }),
            typed: d.toISOString().slice(0, 16),
          };
        },
        [iso, hours] as const,
      );
    await page.goto(`${server.url}/#/notices/${first}`);
    await page.waitForSelector("#notice-facts");
    expect(await page.locator("#notice-facts").textContent()).toContain(
      `Issued${(await siteTime(issuedAt)).shown}`,
    );
    // An hour before the notice, at the site: from then, every notice; to then, none. Read in
    // New York's zone, the same wall time would be five hours later and say the opposite.
    const hourBefore = (await siteTime(issuedAt, -1)).typed;
    await page.fill('#notice-search input[name="from"]', hourBefore);
    await page.click("#notice-search button[type=submit]");
    await page.waitForFunction(() => document.querySelectorAll("#notices-table tbody tr").length > 1);
    await page.fill('#notice-search input[name="from"]', "");
    await page.fill('#notice-search input[name="to"]', hourBefore);
    await page.click("#notice-search button[type=submit]");
    await page.waitForFunction(() => document.body.textContent?.includes("No notices match."));
    expect(await page.locator("#notices-table tbody tr").count()).toBe(0);
  });
});
