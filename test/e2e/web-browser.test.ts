import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { boxesForFile, type Server } from "../support/binary.ts";
import { openBrowser, screenshotPath, skipWithoutChromium, waitInPage } from "../support/browser.ts";

const newBox = boxesForFile();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

let server: Server;
let dir: string;
const tokens: Record<string, string> = {};
const contexts: BrowserContext[] = [];
/** Anything the browser refused under the Content-Security-Policy, or a script error. */
const refused: string[] = [];

async function send(body: Record<string, unknown>): Promise<void> {
  const r = await fetch(`${server.url}/api/v1/actions/tickets`, {
    method: "POST",
    headers: { authorization: `Bearer ${tokens.terminal}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(200);
}

function ticket(ticketId: string, plate: string, zone: number): Record<string, unknown> {
  const now = Date.now();
  return {
    eventType: "TicketCreated",
    ticketId,
    zoneCode: String(zone),
    parkingLotId: null,
    startDate: new Date(now - 3_600_000).toISOString(),
    endDate: new Date(now + 2 * 3_600_000).toISOString(),
    licenseNumber: plate,
    ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
  };
}

async function adminApi(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${tokens.admin}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function browser(
  name: string,
  viewport: { width: number; height: number },
  locale?: string,
): Promise<Page> {
  const ctx = await openBrowser(join(dir, `profile-${name}`), viewport, locale);
  contexts.push(ctx);
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  page.on("pageerror", (e) => refused.push(`page error (${name}): ${e.message}`));
  // The browser tells the page of each refusal; the page then says so in the console.
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`Refused to ${e.violatedDirective}: ${e.blockedURI}`),
    ),
  );
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(`${name}: ${m.text()}`);
  });
  return page;
}

/**
 * The web app in headless Chromium against the built binary: an attendant signs in with a
 * token, checks a plate, watches a zone that a terminal changes, and loses the network; an
 * operator signs in as a user, edits a lot with its price preview, and makes and revokes a token.
 * Skipped only on a laptop without Chromium, never with CI=true (skipWithoutChromium).
 */
describe.skipIf(skipWithoutChromium)("the web app in a browser", () => {
  beforeAll(async () => {
    const box = newBox();
    dir = box.dir;
    tokens.admin = await box.token("console", "admin");
    tokens.attendant = await box.token("handheld-1", "permits:read");
    tokens.terminal = await box.token("terminal-1", "tickets:write");
    const made = await box.run(
      ["user", "create", "--name", "operator", "--scope", "admin", "--password-stdin"],
      { stdin: "correct horse battery" },
    );
    expect(made.code).toBe(0);
    server = await box.serve(["--http"]);
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  test("attendant: token sign-in, plate check, live zone list, offline", async () => {
    await send(ticket("T-1", "ÅBC123", 7));
    const page = await browser("attendant", PHONE);
    await page.goto(`${server.url}/`);
    await page.fill("#token", tokens.attendant!);
    await page.click("#token-form button[type=submit]");
    await page.waitForSelector("#plate");
    // An attendant token sees the attendant page only.
    expect(await page.locator("nav.console-nav").count()).toBe(0);

    await page.fill("#plate", "åbc-123");
    await page.click("#check-button");
    await expect(page.locator("[data-verdict]").getAttribute("data-verdict")).resolves.toBe("valid");
    expect(await page.textContent("#result")).toContain("ÅBC123");
    expect(await page.textContent("#result")).toContain("7");

    await page.fill("#plate", "NOPE 999");
    await page.click("#check-button");
    await page.waitForSelector('[data-verdict="invalid"]');
    await page.screenshot({ path: screenshotPath("phone-check-invalid") });

    await page.fill("#plate", "Åbc 123");
    await page.click("#check-button");
    await page.waitForSelector('[data-verdict="valid"]');
    await page.screenshot({ path: screenshotPath("phone-check-valid") });

    // The zone list, live: a terminal's event shows without a reload.
    await page.fill("#zone", "7");
    await page.click("#zone-form button");
    // The zone's plates are drawn as searched for (a digit both plates have).
    await page.fill("#zone-filter", "12");
    await page.waitForSelector("#plates li");
    expect(await page.locator("#plates li").allTextContents()).toEqual(["ÅBC123"]);
    await page.fill("#zone-filter", "7");
    const before = Date.now();
    await send(ticket("T-2", "XYZ789", 7));
    await page.waitForFunction(
      () => document.querySelector("#plates")?.textContent?.includes("XYZ789"),
      null,
      {
        timeout: 5_000,
      },
    );
    expect(Date.now() - before).toBeLessThan(2_000);
    expect(await page.textContent("#zone-state")).toContain("2");
    await page.fill("#zone-filter", "123");
    await page.waitForSelector("#plates li");
    await send({ eventType: "TicketCanceled", ticketId: "T-1" });
    await page.waitForFunction(
      () => !document.querySelector("#plates")?.textContent?.includes("ÅBC123"),
      null,
      {
        timeout: 5_000,
      },
    );
    await page.fill("#zone-filter", "7");
    await page.screenshot({ path: screenshotPath("phone-attendant-live") });

    // The saved list for offline verdicts follows the zone's changes within 15 s.
    await waitInPage(
      page,
      async () => {
        const kept = await (await caches.open("parkd-zones-v1")).match("/api/v1/tickets/zone/7/permits");
        return !!kept && (await kept.text()).includes("XYZ789");
      },
      25_000,
    );

    // The network cut: the page says so and keeps the last list, with its age.
    await page.context().setOffline(true);
    await page.waitForSelector("#net:not([hidden])");
    await page.waitForFunction(() => document.querySelector("#zone-state")?.className.includes("offline"));
    expect(await page.textContent("#zone-state")).toMatch(/Offline · Saved list from .* ago/);
    expect(await page.locator("#plates li").allTextContents()).toEqual(["XYZ789"]);
    // A plate in the saved list is judged from it as the box would, marked as offline.
    await page.fill("#plate", "xyz 789");
    await page.click("#check-button");
    await page.waitForSelector('#result [data-verdict="valid_here"]');
    expect(await page.textContent("#offline-band")).toMatch(/^Offline · list from \d\d:\d\d$/);
    await page.fill("#plate", "ABC 1");
    await page.click("#check-button");
    await page.waitForSelector('#result [data-verdict="not_in_list"]');
    const answeredBy = Date.now();
    await page.screenshot({ path: screenshotPath("phone-offline") });

    // Opened again without a network: the service worker serves the page and the saved list.
    await page.reload();
    await page.waitForSelector("#plate");
    await page.fill("#zone-filter", "7");
    await page.waitForFunction(() => document.querySelector("#plates")?.textContent?.includes("XYZ789"));
    expect(await page.textContent("#zone-state")).toContain("Offline");
    await page.screenshot({ path: screenshotPath("phone-offline-reloaded") });
    await page.context().setOffline(false);
    await page.waitForSelector("#zone-state.live");
    // What the phone answered without the box is in the box's records once it answers again,
    // at the instant it was answered, as answered offline.
    const offline = async () => {
      const r = (await (await adminApi("GET", "/api/v1/lookups?limit=100")).json()) as {
        data: { by: string; query: string; verdict: string | null; credential: string; at: string }[];
      };
      return r.data.filter((x) => x.by === "offline_verdict");
    };
    const sentBy = Date.now() + 25_000;
    while ((await offline()).length < 2 && Date.now() < sentBy) await Bun.sleep(250);
    expect((await offline()).map((x) => [x.query, x.verdict]).sort()).toEqual([
      ["ABC1@7", null],
      ["XYZ789@7", "valid_here"],
    ]);
    // The phone's clock follows the box's Date header, to the second.
    for (const x of await offline()) expect(Date.parse(x.at)).toBeLessThan(answeredBy + 1_000);
    // Signing out takes the saved lists off the handheld.
    expect(await page.evaluate(() => caches.has("parkd-zones-v1"))).toBe(true);
    await page.click("#signout");
    await page.waitForSelector("#token-form");
    expect(await page.evaluate(() => caches.has("parkd-zones-v1"))).toBe(false);

    // A closed page frees its feed on the box.
    await page.close();
    const deadline = Date.now() + 5_000;
    let open = -1;
    while (Date.now() < deadline) {
      const st = (await (await adminApi("GET", "/api/v1/status")).json()) as { data: { live_feeds: number } };
      open = st.data.live_feeds;
      if (open === 0) break;
      await Bun.sleep(100);
    }
    expect(open).toBe(0);
  }, 90_000);

  test("operator: user sign-in, lot form with its price preview, token created and revoked", async () => {
    const made = await adminApi("POST", "/api/v1/parkings", {
      name: "Harbour",
      zone_number: 7,
      number_of_spaces: 40,
      parking_lot_fee: [
        {
          cost_per_unit: 2000,
          unit: 1,
          start_time: "00:00:00",
          end_time: "24:00:00",
          type_of_day: 1,
          round: true,
        },
        {
          cost_per_unit: 2000,
          unit: 1,
          start_time: "00:00:00",
          end_time: "24:00:00",
          type_of_day: 2,
          round: true,
        },
        {
          cost_per_unit: 2000,
          unit: 1,
          start_time: "00:00:00",
          end_time: "24:00:00",
          type_of_day: 3,
          round: true,
        },
      ],
    });
    expect(made.status).toBe(201);
    const lotId = ((await made.json()) as { data: { id: number } }).data.id;

    const page = await browser("operator", DESKTOP);
    page.on("dialog", (d) => void d.accept());
    await page.goto(`${server.url}/`);
    await page.fill("#username", "operator");
    await page.fill("#password", "correct horse battery");
    await page.click("#user-form button[type=submit]");
    await page.waitForSelector("nav.console-nav");

    // Lots: open the lot, see its price, change a fee, save, see the new price.
    await page.click(`[data-lot="${lotId}"]`);
    await page.waitForSelector("#lot-form");
    await page.fill("#quote-start", "2026-06-15T10:00");
    await page.fill("#quote-end", "2026-06-15T12:00");
    await page.waitForFunction(() => document.querySelector("#quote-out")?.textContent?.includes("40"));
    const fee = page.locator('#fees tbody tr:first-child input[name="cost_per_unit"]');
    expect(await fee.inputValue()).toBe("20.00");
    await fee.fill("35");
    await page.fill('#lot-form input[name="name"]', "Harbour North");
    await page.click("#lot-form button[type=submit]");
    await page.waitForFunction(() => document.querySelector("#lot-status")?.textContent === "Saved");
    const lot = (await (await adminApi("GET", `/api/v1/parkings/${lotId}`)).json()) as {
      data: { name: string; parking_lot_fee: { cost_per_unit: number; type_of_day: number }[] };
    };
    expect(lot.data.name).toBe("Harbour North");
    expect(lot.data.parking_lot_fee.find((f) => f.type_of_day === 1)!.cost_per_unit).toBe(3500);
    await page.fill("#quote-start", "2026-06-15T10:00");
    await page.fill("#quote-end", "2026-06-15T12:00");
    await page.waitForFunction(() => document.querySelector("#quote-out")?.textContent?.includes("70"));
    await page.screenshot({ path: screenshotPath("desktop-lot-form"), fullPage: true });

    // Permits: one issued through the form, with a weekly window, is what the API then holds.
    await page.goto(`${server.url}/#/permits`);
    await page.click("#new-permit");
    await page.fill('#permit-form input[name="registration_number"]', "res 42");
    await page.fill('#permit-form input[name="zone"]', "7");
    await page.fill('#permit-form input[name="note"]', "Resident, weekdays");
    await page.click("#permit-windows button.add");
    await page.click("#permit-form button[type=submit]");
    await page.waitForFunction(() =>
      document.querySelector("#permits-list")?.textContent?.includes("res 42"),
    );
    const permits = (await (await adminApi("GET", "/api/v1/permits?registration_number=RES42")).json()) as {
      data: {
        zone: number;
        note: string;
        days: { weekday: number; start_time: string; end_time: string }[];
      }[];
    };
    expect(permits.data).toHaveLength(1);
    expect(permits.data[0]).toMatchObject({
      zone: 7,
      note: "Resident, weekdays",
      // A new row of hours is Mon-Fri 07-18: one row, five windows.
      days: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start_time: "07:00:00", end_time: "18:00:00" })),
    });

    // Credentials: a new token is shown once with its QR code, works, and stops working when revoked.
    await page.goto(`${server.url}/#/credentials`);
    await page.waitForSelector("#token-create");
    await page.fill('#token-create input[name="name"]', "handheld-9");
    await page.click("#token-create button[type=submit]");
    await page.waitForSelector("#token-value");
    const token = (await page.textContent("#token-value"))!.trim();
    expect(token.startsWith("pk_")).toBe(true);
    expect(await page.locator("#new-token svg.qr path").count()).toBe(1);
    // The console was opened at a loopback address and the box knows no other: it says so.
    expect(await page.textContent("#qr-unreachable")).toContain("--public-url");
    await page.screenshot({ path: screenshotPath("desktop-token-created"), fullPage: true });
    const who = (t: string) =>
      fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${t}` } }).then(
        (r) => r.status,
      );
    expect(await who(token)).toBe(200);
    await page.click('[data-revoke="handheld-9"]');
    await page.waitForFunction(() => !document.querySelector('[data-revoke="handheld-9"]'));
    expect(await who(token)).toBe(401);

    // Every scope can be given here, each with a line saying what it allows: a handheld that
    // issues notices is made from the console.
    for (const scope of ["permits:read", "notices:write", "tickets:write", "admin"])
      expect((await page.textContent(`[id="token-${scope}-about"]`))?.length).toBeGreaterThan(20);
    expect(await page.getAttribute('[id="token-notices:write"]', "aria-describedby")).toBe(
      "token-notices:write-about",
    );
    await page.fill('#token-create input[name="name"]', "notices-1");
    await page.check('[id="token-notices:write"]');
    await page.click("#token-create button[type=submit]");
    await page.waitForFunction(() =>
      document.querySelector("#tokens-table")?.textContent?.includes("notices-1"),
    );
    const listed = (await (await adminApi("GET", "/api/v1/tokens")).json()) as {
      data: { name: string; scopes: string[] }[];
    };
    expect(listed.data.find((x) => x.name === "notices-1")?.scopes.sort()).toEqual([
      "notices:write",
      "permits:read",
    ]);
    await page.screenshot({ path: screenshotPath("desktop-token-scopes"), fullPage: true });

    // The other pages render with data.
    await page.goto(`${server.url}/#/tickets`);
    await page.waitForSelector("#tickets-table tbody tr");
    await page.click("#tickets-table tbody tr:first-child a");
    await page.waitForSelector("#ticket-history tbody tr");
    await page.screenshot({ path: screenshotPath("desktop-tickets"), fullPage: true });
    await page.goto(`${server.url}/#/audit`);
    await page.waitForSelector("#audit-table tbody tr");
    await page.goto(`${server.url}/#/status`);
    await page.waitForSelector("#status .figure");
    await page.screenshot({ path: screenshotPath("desktop-status") });
    await page.goto(`${server.url}/#/permits`);
    await page.click("#new-permit");
    await page.screenshot({ path: screenshotPath("desktop-permits") });
  }, 90_000);

  test("the QR code's one-time link signs a handheld in, never replaces a session unasked, and revocation ends it", async () => {
    const r = await adminApi("POST", "/api/v1/tokens", { name: "handheld-qr", scopes: ["permits:read"] });
    const { token, id } = ((await r.json()) as { data: { token: string; id: string } }).data;
    const codeLink = async () => {
      const c = await adminApi("POST", "/api/v1/session/codes", { token_id: id });
      expect(c.status).toBe(201);
      const url = ((await c.json()) as { data: { sign_in_url: string } }).data.sign_in_url;
      expect(url).not.toContain(token);
      return url;
    };
    const page = await browser("qr", PHONE);
    const link = await codeLink();
    await page.goto(link);
    await page.waitForSelector("#plate");
    expect(page.url()).not.toContain("code=");
    // The code worked once: the same link again is refused (no session to replace after a sign-out).
    await page.click("#signout");
    await page.waitForSelector("#token-form");
    await page.goto(link);
    await page.waitForSelector("#signin-error:not(:empty)");
    // Signed in as someone else, a new link asks first; dismissed, nothing changes.
    await page.fill("#token", tokens.attendant!);
    await page.click("#token-form button[type=submit]");
    await page.waitForSelector("#plate");
    const asked: string[] = [];
    page.once("dialog", (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.goto(await codeLink());
    await page.waitForSelector("#plate");
    expect(asked).toHaveLength(1);
    const who = await page.evaluate(() =>
      fetch("/api/v1/session").then((x) => x.json() as Promise<{ data: { name: string } }>),
    );
    expect(who.data.name).not.toBe("handheld-qr");
    // Accepted, the device signs in as the link's token; revoking it ends that session.
    page.once("dialog", (d) => void d.accept());
    await page.goto(await codeLink());
    await page.waitForFunction(() =>
      fetch("/api/v1/session")
        .then((x) => x.json() as Promise<{ data?: { name: string } }>)
        .then((j) => j.data?.name === "handheld-qr"),
    );
    await page.waitForSelector("#plate");
    expect(await page.textContent(".who")).toBe("handheld-qr");
    expect((await adminApi("DELETE", `/api/v1/tokens/${id}`)).status).toBe(204);
    await page.reload();
    await page.waitForSelector("#token-form");
  }, 60_000);

  test("Swedish from the browser's language", async () => {
    const page = await browser("swedish", PHONE, "sv-SE");
    await page.goto(`${server.url}/`);
    await page.waitForSelector("#token-form");
    expect(await page.textContent("#token-form button")).toBe("Logga in");
    await page.fill("#token", tokens.attendant!);
    await page.click("#token-form button[type=submit]");
    await page.fill("#plate", "nope 1");
    await page.click("#check-button");
    await page.waitForSelector('[data-verdict="invalid"]');
    expect(await page.textContent("#result")).toContain("INGET GILTIGT TILLSTÅND");
    await page.screenshot({ path: screenshotPath("phone-swedish") });
  }, 60_000);

  test("no page broke the Content-Security-Policy or threw", () => {
    expect(refused).toEqual([]);
  });

  test("SIGTERM with a zone feed open: the feed ends and the box stops at once", async () => {
    // Only the feed is open: the browsers' keep-alive connections are not what this measures.
    for (const c of contexts.splice(0)) await c.close();
    const res = await fetch(`${server.url}/api/v1/tickets/zone/7/events`, {
      headers: { authorization: `Bearer ${tokens.attendant}` },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("retry:");
    const t0 = Date.now();
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(Date.now() - t0).toBeLessThan(3_000);
    for (;;) if ((await reader.read()).done) break;
  }, 30_000);
});
