import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { type Box, boxesForFile, type Server } from "../support/binary.ts";
import { axeViolations, openBrowser, screenshotPath, skipWithoutChromium } from "../support/browser.ts";

const newBox = boxesForFile();
const PHONE = { width: 390, height: 844 };

let box: Box;
let server: Server;
const tokens: Record<string, string> = {};
let setupAt = 0;
const contexts: BrowserContext[] = [];

async function adminApi(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${tokens.admin}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function send(
  ticketId: string,
  plate: string,
  zone: number,
  from: number,
  until: number,
): Promise<void> {
  const r = await fetch(`${server.url}/api/v1/actions/tickets`, {
    method: "POST",
    headers: { authorization: `Bearer ${tokens.terminal}`, "content-type": "application/json" },
    body: JSON.stringify({
      eventType: "TicketCreated",
      ticketId,
      zoneCode: String(zone),
      parkingLotId: null,
      startDate: new Date(from).toISOString(),
      endDate: new Date(until).toISOString(),
      licenseNumber: plate,
      ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
    }),
  });
  expect(r.status).toBe(200);
}

async function browser(name: string, locale?: string): Promise<Page> {
  const ctx = await openBrowser(join(box.dir, `profile-${name}`), PHONE, locale);
  contexts.push(ctx);
  return ctx.pages()[0] ?? (await ctx.newPage());
}

async function signedIn(name: string, token: string, zone?: number, locale?: string): Promise<Page> {
  const page = await browser(name, locale);
  await page.goto(`${server.url}/`);
  await page.fill("#token", token);
  await page.click("#token-form button[type=submit]");
  await page.waitForSelector("#plate");
  if (zone !== undefined) {
    await page.fill("#zone", String(zone));
    await page.click("#zone-form button");
    await page.waitForSelector("#zone-state.live");
  }
  return page;
}

async function check(page: Page, plate: string): Promise<string> {
  await page.fill("#plate", plate);
  await page.click("#check-form button");
  await page.waitForFunction(() => !document.querySelector("#result .pending"));
  return (await page.locator("#result [data-verdict]").getAttribute("data-verdict"))!;
}

/**
 * The attendant page as a handheld uses it on the street, against the built binary in headless
 * Chromium: the verdict for the zone the attendant stands in, a revoked token, a restarted box
 * (the handheld stays signed in), and signing out without a network. Skipped only without Chromium, never with CI=true.
 */
describe.skipIf(skipWithoutChromium)("the attendant page on the street", () => {
  beforeAll(async () => {
    box = newBox();
    tokens.admin = await box.token("console", "admin");
    tokens.terminal = await box.token("terminal-1", "tickets:write");
    tokens.attendant = await box.token("handheld-1", "permits:read");
    server = await box.serve(["--http", "--grace-minutes", "10"]);
    const now = Date.now();
    setupAt = now;
    await send("H-1", "HERE1", 1002, now - 3_600_000, now + 80 * 60_000);
    await send("E-1", "ELSE1", 1001, now - 3_600_000, now + 2 * 3_600_000);
    await send("G-1", "GRACE1", 1002, now - 3_600_000, now - 2 * 60_000);
    // A resident permit whose only window is tomorrow 01:00-02:00 (site time is UTC here).
    const tomorrow = ((new Date(now).getUTCDay() + 6) % 7) + 2;
    const r = await adminApi("POST", "/api/v1/permits", {
      registration_number: "NIGHT1",
      zone: 1002,
      start_at: new Date(now - 86_400_000).toISOString(),
      end_at: null,
      note: "resident",
      days: [{ weekday: tomorrow > 7 ? 1 : tomorrow, start_time: "01:00:00", end_time: "02:00:00" }],
    });
    expect(r.status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  test("the verdict is for the zone the attendant stands in, with the time left", async () => {
    const page = await signedIn("verdict", tokens.attendant!, 1002);
    expect(await check(page, "here 1")).toBe("valid_here");
    expect(await page.getAttribute("#result", "class")).toContain("ok");
    // The end is 80 minutes after the setup: a time today, or a date and time after midnight.
    const ends = new Date(setupAt + 80 * 60_000);
    const today = ends.getUTCDate() === new Date(setupAt).getUTCDate();
    expect(await page.textContent("#verdict-line")).toMatch(
      today
        ? /^1 h 1\d min left · until \d\d:\d\d$/
        : /^1 h 1\d min left · until \d\d\/\d\d\/\d{4}, \d\d:\d\d$/,
    );
    // The plate is selected: the next car's plate replaces it as it is typed.
    expect(
      await page.evaluate(() => {
        const p = document.querySelector<HTMLInputElement>("#plate")!;
        return document.activeElement === p && p.selectionStart === 0 && p.selectionEnd === p.value.length;
      }),
    ).toBe(true);
    await page.screenshot({ path: screenshotPath("phone-verdict-here") });
    expect(await check(page, "ELSE1")).toBe("valid_elsewhere");
    expect(await page.textContent("#result .verdict")).toBe("VALID IN ZONE 1001");
    expect(await page.getAttribute("#result", "class")).toContain("warn");
    await page.screenshot({ path: screenshotPath("phone-verdict-elsewhere") });
    expect(await check(page, "GRACE1")).toBe("grace");
    expect(await page.textContent("#verdict-line")).toMatch(/grace until \d\d:\d\d/);
    expect(await check(page, "NIGHT1")).toBe("outside_hours");
    expect(await page.textContent("#verdict-line")).toMatch(/^Valid again /);
    expect(await page.getAttribute("#result", "class")).toContain("bad");
    await page.screenshot({ path: screenshotPath("phone-verdict-outside-hours") });
    expect(await check(page, "NOPE1")).toBe("none");
  }, 60_000);

  test("axe-core finds nothing moderate or worse, at normal and at 200 % text", async () => {
    const page = await signedIn("a11y", tokens.attendant!, 1002);
    expect(await check(page, "HERE1")).toBe("valid_here");
    expect(await axeViolations(page, { bestPractice: true })).toEqual([]);
    // One h1; the live regions are the verdict and the feed's state only.
    expect(await page.locator("h1").count()).toBe(1);
    expect(
      await page.evaluate(() => [...document.querySelectorAll("[aria-live]")].map((e) => e.id).sort()),
    ).toEqual(["result", "zone-state"]);
    // Text at twice the browser's size: nothing sideways, the check still in reach.
    await page.evaluate(() => {
      document.documentElement.style.fontSize = "200%";
    });
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`),
    );
    expect(wide).toEqual([]);
    expect(await check(page, "ELSE1")).toBe("valid_elsewhere");
    await page.screenshot({ path: screenshotPath("phone-text-200") });
  }, 60_000);

  test("Swedish: the states come from the answer's fields, not the server's English", async () => {
    const page = await signedIn("verdict-sv", tokens.attendant!, 1002, "sv-SE");
    expect(await check(page, "ELSE1")).toBe("valid_elsewhere");
    expect(await page.textContent("#result .verdict")).toBe("GILTIGT I ZON 1001");
    expect(await page.textContent("#result")).toContain("Biljett · Zon 1001 · giltig");
    expect(await page.textContent("#zone-state")).toContain("Direkt");
    await page.screenshot({ path: screenshotPath("phone-verdict-swedish") });
  }, 60_000);

  test("a revoked token: the feed ends, the page signs in again saying why, and nothing stays", async () => {
    const token = await box.token("handheld-revoked", "permits:read");
    const page = await signedIn("revoked", token, 1002);
    expect(await page.evaluate(() => caches.has("parkd-zones-v1"))).toBe(true);
    const list = (await (await adminApi("GET", "/api/v1/tokens")).json()) as {
      data: { id: string; name: string }[];
    };
    const id = list.data.find((t) => t.name === "handheld-revoked")!.id;
    expect((await adminApi("DELETE", `/api/v1/tokens/${id}`)).status).toBe(204);
    await page.waitForSelector("#token-form", { timeout: 3_000 });
    expect(await page.textContent("#signin-error")).toContain("this token was revoked");
    expect(await page.evaluate(() => caches.has("parkd-zones-v1"))).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem("parkd.session"))).toBeNull();
    await page.screenshot({ path: screenshotPath("phone-signed-out-revoked") });
  }, 60_000);

  test("the box restarts: the handheld stays signed in, its zone feed comes back live, the saved list stays", async () => {
    const page = await signedIn("restart", tokens.attendant!, 1002);
    expect(await page.evaluate(() => caches.has("parkd-zones-v1"))).toBe(true);
    const port = server.port;
    expect(await server.stop()).toBe(0);
    // While the box is away the feed is not live.
    await page.waitForSelector("#zone-state:not(.live)", { timeout: 10_000 });
    server = await box.serve(["--http", "--grace-minutes", "10"], { port });
    // The same binary on the same data folder and port: the feed comes back under the session
    // the box kept, and the page never asked to sign in again.
    await page.waitForSelector("#zone-state.live", { timeout: 20_000 });
    expect(await page.locator("#token-form").count()).toBe(0);
    expect(await page.locator("#plate").count()).toBe(1);
    expect(await page.evaluate(() => caches.has("parkd-zones-v1"))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("parkd.session"))).not.toBeNull();
    expect(await page.evaluate(() => fetch("/api/v1/session").then((r) => r.status))).toBe(200);
    expect(await check(page, "here 1")).toBe("valid_here");
    await page.screenshot({ path: screenshotPath("phone-after-restart") });
  }, 60_000);

  test("sign-out without a network: at once, and the box is told when it is back", async () => {
    const page = await signedIn("offline-signout", tokens.attendant!, 1002);
    await page.context().setOffline(true);
    await page.waitForSelector("#net:not([hidden])");
    await page.click("#signout");
    await page.waitForSelector("#token-form");
    expect(await page.evaluate(() => caches.has("parkd-zones-v1"))).toBe(false);
    // A reload, still offline: the sign-in page, never the old session.
    await page.reload();
    await page.waitForSelector("#token-form");
    await page.context().setOffline(false);
    // Back online, the box ends the session; a reload then still shows sign-in.
    await page.waitForFunction(() => localStorage.getItem("parkd.signedOut") === null, null, {
      timeout: 5_000,
    });
    expect(await page.evaluate(() => fetch("/api/v1/session").then((r) => r.status))).toBe(401);
    await page.reload();
    await page.waitForSelector("#token-form");
  }, 60_000);

  test("the service worker keeps the app's own files only", async () => {
    const page = await signedIn("sw-own-files", tokens.attendant!);
    await page.goto(`${server.url}/healthz`);
    await page.context().setOffline(true);
    await page.goto(`${server.url}/`).catch(() => {});
    await page.waitForSelector("#plate");
    await page.context().setOffline(false);
  }, 60_000);
});
