import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { encode } from "uqr";
import { type Box, boxesForFile, type Server } from "../support/binary.ts";
import {
  axeViolations,
  openBrowser,
  screenshotPath,
  signedInConsole,
  skipWithoutChromium,
} from "../support/browser.ts";

const newBox = boxesForFile();
// Browser tests on a shared machine: each gets the minute the other browser tests give theirs.
setDefaultTimeout(60_000);
const DESKTOP = { width: 1366, height: 768 };

let box: Box;
let server: Server;
let admin: string;
let terminal: string;
const contexts: BrowserContext[] = [];

async function api(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const fee = (type_of_day: number, cost_per_unit: number) => ({
  cost_per_unit,
  unit: 1,
  start_time: "00:00:00",
  end_time: "24:00:00",
  type_of_day,
  round: true,
});

async function newLot(name: string): Promise<number> {
  const r = await api("POST", "/api/v1/parkings", {
    name,
    zone_number: 7,
    number_of_spaces: 40,
    parking_lot_fee: [fee(1, 2000), fee(2, 1500), fee(3, 1000)],
  });
  expect(r.status).toBe(201);
  return ((await r.json()) as { data: { id: number } }).data.id;
}

async function weekdayFee(id: number): Promise<number> {
  const lot = (await (await api("GET", `/api/v1/parkings/${id}`)).json()) as {
    data: { parking_lot_fee: { cost_per_unit: number; type_of_day: number }[] };
  };
  return lot.data.parking_lot_fee.find((f) => f.type_of_day === 1)!.cost_per_unit;
}

const signedIn = (name: string, locale = "en-GB", viewport = DESKTOP): Promise<Page> =>
  signedInConsole({ url: server.url, token: admin, dir: box.dir, contexts }, name, viewport, locale);

/** The modules of the QR code of `text`, drawn as the console draws them (one path). */
function qrModules(text: string): string {
  const { data } = encode(text, { ecc: "M", border: 2 });
  let d = "";
  for (let y = 0; y < data.length; y++)
    for (let x = 0; x < data.length; x++) if (data[y]![x]) d += `M${x} ${y}h1v1h-1z`;
  return d;
}

async function openLot(page: Page, id: number) {
  await page.goto(`${server.url}/#/lots`);
  await page.click(`[data-lot="${id}"]`);
  await page.waitForSelector("#lot-form");
  return page.locator('#fees tbody tr:first-child input[name="cost_per_unit"]');
}

/**
 * The operator's console against the built binary, in headless Chromium: amounts read as typed.
 * Skipped only without Chromium, never with CI=true.
 */
describe.skipIf(skipWithoutChromium)("the console reads money as the operator types it", () => {
  beforeAll(async () => {
    box = newBox();
    admin = await box.token("console", "admin");
    terminal = await box.token("terminal-1", "tickets:write");
    server = await box.serve(["--http"]);
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  test("12,50 and 12.50 are 12.50 kr, never 1 250; anything else is refused at the field", async () => {
    const id = await newLot("Harbour");
    const page = await signedIn("money");
    const cost = await openLot(page, id);
    expect(await cost.inputValue()).toBe("20.00");
    await cost.fill("12,50");
    await page.click("#lot-form button[type=submit]");
    await page.waitForFunction(() => document.querySelector("#lot-status")?.textContent === "Saved");
    expect(await weekdayFee(id)).toBe(1250);

    const again = await openLot(page, id);
    await again.fill("9.5");
    await page.click("#lot-form button[type=submit]");
    await page.waitForFunction(() => document.querySelector("#lot-status")?.textContent === "Saved");
    expect(await weekdayFee(id)).toBe(950);

    const bad = await openLot(page, id);
    for (const text of ["12,505", "1 250", "12 kr", "-3"]) {
      await bad.fill(text);
      expect(await bad.evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);
      await page.click("#lot-form button[type=submit]");
      expect(await weekdayFee(id)).toBe(950);
    }
    expect(await bad.evaluate((el: HTMLInputElement) => el.validationMessage)).toContain("12,50");
  });

  test("a fee 10 times what it replaces, a tenth of it, or 100 times the lot's others asks first (en, sv); declined, nothing is saved", async () => {
    for (const [locale, raised, lowered, others] of [
      ["en-GB", "replaces SEK 12.50: 100 times as much", "1/104 as much", "at least 100 times"],
      ["sv-SE", "ersätter 12,50 kr: 100 gånger så mycket", "1/104 så mycket", "minst 100 gånger"],
    ] as const) {
      // The guard's own example: every fee 12,50 kr, and "1250" typed in one.
      const made = await api("POST", "/api/v1/parkings", {
        name: `Quay ${locale}`,
        zone_number: 7,
        parking_lot_fee: [fee(1, 1250), fee(2, 1250), fee(3, 1250)],
      });
      const id = ((await made.json()) as { data: { id: number } }).data.id;
      const page = await signedIn(`outlier-${locale}`, locale);
      const answers: string[] = [];
      let accept = false;
      page.on("dialog", (d) => {
        answers.push(d.message().replaceAll("\u00a0", " "));
        void (accept ? d.accept() : d.dismiss());
      });
      const cost = await openLot(page, id);
      await cost.fill("1250");
      await page.click("#lot-form button[type=submit]");
      await Bun.sleep(300);
      expect(answers).toHaveLength(1);
      expect(answers[0]).toContain(raised);
      expect(await weekdayFee(id)).toBe(1250);
      // A decimal mark the other way: 0,12 for 12,50.
      await cost.fill(locale === "en-GB" ? "0.12" : "0,12");
      await page.click("#lot-form button[type=submit]");
      await Bun.sleep(300);
      expect(answers).toHaveLength(2);
      expect(answers[1]).toContain(lowered);
      expect(await weekdayFee(id)).toBe(1250);
      // A new row: nothing it replaces, so measured against the lot's others.
      await cost.fill("12,50");
      await page.locator("#fees tbody tr:first-child input[name=end_time]").fill("12:00:00");
      await page.click("#fees button.add");
      const added = page.locator("#fees tbody tr:nth-child(4)");
      await added.locator('select[name="type_of_day"]').selectOption("1");
      await added.locator('input[name="start_time"]').fill("12:00:00");
      await added.locator('input[name="end_time"]').fill("24:00:00");
      await added.locator('input[name="cost_per_unit"]').fill("1250");
      await page.click("#lot-form button[type=submit]");
      await Bun.sleep(300);
      expect(answers).toHaveLength(3);
      expect(answers[2]).toContain(others);
      await page.screenshot({ path: screenshotPath(`desktop-fee-guard-${locale}`), fullPage: true });
      accept = true;
      await page.click("#lot-form button[type=submit]");
      await page.waitForFunction(() =>
        /^(Saved|Sparat)$/.test(document.querySelector("#lot-status")?.textContent ?? ""),
      );
      const stored = (
        (await (await api("GET", `/api/v1/parkings/${id}`)).json()) as {
          data: { parking_lot_fee: { cost_per_unit: number }[] };
        }
      ).data.parking_lot_fee.map((f) => f.cost_per_unit);
      expect(stored.sort((a, b) => a - b)).toEqual([1250, 1250, 1250, 125_000]);
      // Saved as it stands, the same fee is not asked about again.
      const asked = answers.length;
      await openLot(page, id);
      await page.click("#lot-form button[type=submit]");
      await page.waitForFunction(() =>
        /^(Saved|Sparat)$/.test(document.querySelector("#lot-status")?.textContent ?? ""),
      );
      expect(answers).toHaveLength(asked);
    }
  });

  test("the lot list shows each lot's fees; the Swedish page writes 12,50", async () => {
    const id = await newLot("Pier");
    const page = await signedIn("swedish", "sv-SE");
    const cost = await openLot(page, id);
    expect(await cost.inputValue()).toBe("20,00");
    const row = page.locator(`#lots-table tr:has([data-lot="${id}"])`);
    expect(await row.textContent()).toContain("20,00");
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("desktop-lot-list-fees"), fullPage: true });
  });

  test("ticket states are read from time and events; a ticket has its own address with its amounts and lot", async () => {
    const lotId = await newLot("Dock");
    const now = Date.now();
    const send = async (body: Record<string, unknown>) => {
      const r = await fetch(`${server.url}/api/v1/actions/tickets`, {
        method: "POST",
        headers: { authorization: `Bearer ${terminal}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(r.status).toBe(200);
    };
    const created = (ticketId: string, from: number, to: number) => ({
      eventType: "TicketCreated",
      ticketId,
      zoneCode: "7",
      parkingLotId: lotId,
      startDate: new Date(from).toISOString(),
      endDate: new Date(to).toISOString(),
      licenseNumber: `ST ${ticketId}`,
      ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
    });
    const H = 3_600_000;
    await send(created("S-ACTIVE", now - H, now + H));
    await send(created("S-ENDED", now - 5 * H, now - 3 * H));
    await send(created("S-LATER", now + H, now + 2 * H));
    await send(created("S-CANCELED", now - H, now + H));
    await send({ eventType: "TicketCanceled", ticketId: "S-CANCELED" });
    const page = await signedIn("tickets");
    await page.goto(`${server.url}/#/tickets`);
    await page.waitForSelector('#tickets-table a[href="#/tickets/S-ENDED"]');
    const stateOf = (id: string) =>
      page
        .locator(`#tickets-table tr:has(a[href="#/tickets/${id}"]) [data-state]`)
        .getAttribute("data-state");
    expect(await stateOf("S-ACTIVE")).toBe("active");
    expect(await stateOf("S-ENDED")).toBe("ended");
    expect(await stateOf("S-LATER")).toBe("not_started");
    expect(await stateOf("S-CANCELED")).toBe("canceled");

    await page.click('#tickets-table a[href="#/tickets/S-ENDED"]');
    await page.waitForSelector("#ticket-facts");
    expect(page.url()).toEndWith("#/tickets/S-ENDED");
    // The address opens the ticket by itself: bookmarked, or sent to a colleague.
    const other = await signedIn("bookmark");
    await other.goto(`${server.url}/#/tickets/S-ENDED`);
    await other.waitForSelector("#ticket-facts");
    const facts = (await other.locator("#ticket-facts").textContent()) ?? "";
    expect(facts).toContain("Ended");
    expect(facts).toContain("40.00");
    expect(facts).toContain("25 %");
    expect(facts).toContain(`${lotId} · Dock`);
    expect(facts).toContain("7");
    expect(await axeViolations(other)).toEqual([]);
    await other.screenshot({ path: screenshotPath("desktop-ticket-view"), fullPage: true });

    await other.goto(`${server.url}/#/lots/${lotId}`);
    await other.waitForSelector("#lot-form");
    expect(await other.locator('#lot-form input[name="name"]').inputValue()).toBe("Dock");

    // A terminal may send an id a URL path cannot carry ("."): the ticket opens all the same.
    await send({ ...created(".", now - H, now + H), licenseNumber: "ST DOT" });
    await other.goto(`${server.url}/#/tickets/.`);
    await other.waitForSelector("#ticket-facts");
    expect((await other.locator("#ticket-facts").textContent()) ?? "").toContain("Active");
  });

  test("ticket search: one vocabulary of states, filters in the address, a count, lot and amount, CSV (en desk, sv phone)", async () => {
    const lotId = await newLot("Kajen");
    const now = Date.now();
    const H = 3_600_000;
    const send = async (ticketId: string, from: number, to: number, plate: string) => {
      const r = await fetch(`${server.url}/api/v1/actions/tickets`, {
        method: "POST",
        headers: { authorization: `Bearer ${terminal}`, "content-type": "application/json" },
        body: JSON.stringify({
          eventType: "TicketCreated",
          ticketId,
          zoneCode: "9",
          parkingLotId: lotId,
          startDate: new Date(from).toISOString(),
          endDate: new Date(to).toISOString(),
          licenseNumber: plate,
          ticketCost: { amountInclVat: 4250, vatRate: 25, currencyCode: "SEK" },
        }),
      });
      expect(r.status).toBe(200);
    };
    // Both "running" as the terminal left them; one has ended by the clock.
    await send("Q-NOW", now - H, now + H, "QQ 100");
    await send("Q-PAST", now - 5 * H, now - 3 * H, "QQ 200");
    for (const [locale, viewport, ended, found, amount] of [
      ["en-GB", { width: 1440, height: 900 }, "Ended", "1 ticket found", "SEK 42.50"],
      ["sv-SE", { width: 390, height: 844 }, "Avslutad", "1 biljett hittad", "42,50 kr"],
    ] as const) {
      const page = await signedIn(`ticket-search-${locale}`, locale, viewport);
      await page.goto(`${server.url}/#/tickets`);
      await page.waitForSelector("#tickets-table tbody tr");
      // The filter offers the column's states, in the page's language.
      const offered = await page.locator('#ticket-search select[name="state"] option').allTextContents();
      expect(offered.slice(1)).toEqual(
        locale === "en-GB"
          ? ["Active", "Not started", "Ended", "Canceled"]
          : ["Aktiv", "Ej påbörjad", "Avslutad", "Makulerad"],
      );
      await page.fill('#ticket-search input[name="zone"]', "9");
      await page.selectOption('#ticket-search select[name="state"]', "ended");
      await page.click("#ticket-search button[type=submit]");
      await page.waitForFunction(
        () =>
          document.querySelector("#tickets-total")?.textContent !== "" &&
          document.querySelectorAll("#tickets-table tbody tr").length === 1,
      );
      expect(page.url()).toContain("#/tickets?zone=9&state=ended");
      expect(await page.textContent("#tickets-total")).toBe(found);
      const row = page.locator("#tickets-table tbody tr").first();
      expect(await row.locator("[data-state]").textContent()).toBe(ended);
      expect((await row.textContent()) ?? "").toContain("Kajen");
      expect(((await row.locator("td.amount").textContent()) ?? "").replaceAll("\u00a0", " ")).toBe(amount);
      // The CSV is the search as it stands.
      const csv = await page.evaluate(async () => {
        const a = document.querySelector<HTMLAnchorElement>("#tickets-csv")!;
        return (await fetch(a.href)).text();
      });
      expect(csv).toContain("Q-PAST");
      expect(csv).not.toContain("Q-NOW");
      expect(csv).toContain(locale === "en-GB" ? ",ended," : ";Avslutad;");
      // Dates keep to one line.
      const lines = await row
        .locator("td.when")
        .first()
        .evaluate((td) => {
          const r = document.createRange();
          r.selectNodeContents(td);
          return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
        });
      expect(lines).toBe(1);
      // Nothing wider than the screen but the table, which scrolls on its own on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      if (locale === "en-GB") {
        const width = await page.locator("#tickets-table").evaluate((t) => t.getBoundingClientRect().width);
        expect(width).toBeGreaterThan(1200);
      }
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath(`ticket-search-${locale}`), fullPage: true });
      // A ticket opened, then Back: the search comes back as it was.
      await row.locator("a").click();
      await page.waitForSelector("#ticket-facts");
      await page.goBack();
      await page.waitForFunction(
        () =>
          document.querySelector<HTMLSelectElement>('#ticket-search select[name="state"]')?.value === "ended",
      );
      await page.waitForFunction(() => document.querySelectorAll("#tickets-table tbody tr").length === 1);
      expect(await page.inputValue('#ticket-search input[name="zone"]')).toBe("9");
      await page.close();
    }
    // A link shared with a colleague opens the same search.
    const other = await signedIn("ticket-search-link");
    await other.goto(`${server.url}/#/tickets?zone=9&state=active`);
    await other.waitForFunction(() => document.querySelectorAll("#tickets-table tbody tr").length === 1);
    expect(await other.locator("#tickets-table tbody").textContent()).toContain("Q-NOW");
    expect(await other.inputValue('#ticket-search select[name="state"]')).toBe("active");
  });

  test("tickets and permits sort by a column heading, either way, said to screen readers", async () => {
    const page = await signedIn("sorting");
    await page.goto(`${server.url}/#/tickets`);
    await page.waitForSelector('#tickets-table a[href="#/tickets/S-ENDED"]');
    const ids = () => page.locator("#tickets-table tbody tr td:first-child").allTextContents();
    const heading = (name: string) => page.locator(`#tickets-table th:has(button[data-sort="${name}"])`);
    expect(await heading("start_at").getAttribute("aria-sort")).toBe("descending");
    // From the keyboard: the heading is drawn again, and its button keeps the focus.
    await heading("ticket_id").locator("button").focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      document.querySelector('#tickets-table th[aria-sort="ascending"] button[data-sort="ticket_id"]'),
    );
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-sort"))).toBe("ticket_id");
    await page.waitForFunction(() => document.querySelectorAll("#tickets-table tbody tr").length > 0);
    const up = await ids();
    expect(up).toEqual([...up].sort());
    expect(await heading("start_at").getAttribute("aria-sort")).toBe("none");
    await heading("ticket_id").locator("button").click();
    await page.waitForFunction(() =>
      document.querySelector('#tickets-table th[aria-sort="descending"] button[data-sort="ticket_id"]'),
    );
    // The rows are cleared at the click and drawn when the answer comes: wait for all of them.
    await page.waitForFunction(
      (count) => document.querySelectorAll("#tickets-table tbody tr").length === count,
      up.length,
    );
    expect(await ids()).toEqual([...up].sort().reverse());
    // A slow answer to an earlier sort never lands in the list drawn for a later one.
    await page.route("**/api/v1/tickets?*sort=ticket_id*", async (route) => {
      await Bun.sleep(800);
      await route.continue();
    });
    await heading("ticket_id").locator("button").click();
    await heading("ticket_id").locator("button").click();
    await page.waitForFunction(
      (count) => document.querySelectorAll("#tickets-table tbody tr").length === count,
      up.length,
    );
    await Bun.sleep(1_200);
    expect(await ids()).toEqual([...up].sort().reverse());
    await page.unroute("**/api/v1/tickets?*sort=ticket_id*");
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("desktop-tickets-sorted"), fullPage: true });

    for (const [plate, end] of [
      ["SORT 1", "2030-01-01T00:00:00Z"],
      ["SORT 2", null],
      ["SORT 3", "2029-01-01T00:00:00Z"],
    ] as const)
      await api("POST", "/api/v1/permits", {
        registration_number: plate,
        zone: 77,
        start_at: "2026-01-01T00:00:00Z",
        end_at: end,
      });
    await page.goto(`${server.url}/#/permits`);
    await page.fill('#permit-filter input[name="zone"]', "77");
    await page.click('#permit-filter button[type="submit"]');
    const plates = () => page.locator("#permits-list tbody tr td:first-child").allTextContents();
    await page.waitForFunction(() => document.querySelectorAll("#permits-list tbody tr").length === 3);
    await page.click('#permits-list button[data-sort="end_at"]');
    // Newest end first; the open-ended one has none, so it comes last.
    await page.waitForSelector('#permits-list th[aria-sort="descending"] button[data-sort="end_at"]');
    expect(await plates()).toEqual(["SORT 1", "SORT 3", "SORT 2"]);
    await page.click('#permits-list button[data-sort="end_at"]');
    await page.waitForSelector('#permits-list th[aria-sort="ascending"] button[data-sort="end_at"]');
    expect(await plates()).toEqual(["SORT 2", "SORT 3", "SORT 1"]);
    await page.close();
  });

  test("an import file is shown before anything is written, and applied all or nothing", async () => {
    const id = await newLot("Import me");
    const stored = (
      (await (await api("GET", `/api/v1/parkings/${id}`)).json()) as { data: Record<string, unknown> }
    ).data;
    const page = await signedIn("import");
    await page.goto(`${server.url}/#/lots`);
    await page.waitForSelector("#lots-table");
    const choose = (data: unknown[]) =>
      page.setInputFiles("#lots-import", {
        name: "lots.json",
        mimeType: "application/json",
        buffer: Buffer.from(JSON.stringify({ data })),
      });
    const renamed = { ...stored, name: "Imported name" };
    const fresh = { ...stored, id: undefined, name: "Brand new" };
    const broken = { ...stored, id: undefined, name: "Broken", zone_number: -1 };
    await choose([renamed, fresh, broken]);
    await page.waitForSelector("#import-preview");
    const outcomes = await page
      .locator("#import-lots [data-outcome]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-outcome")));
    expect(outcomes).toEqual(["changed", "created", "refused"]);
    expect(await page.locator("#import-blocked").isVisible()).toBe(true);
    expect(await page.locator("#import-apply").count()).toBe(0);
    expect(await page.locator("#import-lots").textContent()).toContain("/zone_number");
    const names = async () =>
      ((await (await api("GET", "/api/v1/parkings")).json()) as { data: { name: string }[] }).data.map(
        (l) => l.name,
      );
    expect(await names()).not.toContain("Imported name");
    expect(await names()).not.toContain("Brand new");
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("desktop-import-refused"), fullPage: true });

    await choose([renamed, fresh]);
    await page.waitForSelector("#import-apply");
    await page.click("#import-apply");
    await page.waitForFunction(() =>
      document.querySelector("#import-status")?.textContent?.includes("Imported"),
    );
    expect(await page.locator("#import-status").textContent()).toContain("1 created, 1 changed");
    expect(await names()).toContain("Imported name");
    expect(await names()).toContain("Brand new");
    await page.waitForSelector(`#lots-table a:text("Brand new")`);
  });

  test("a lot changed by someone else meanwhile: nothing is overwritten unasked, the edits stay, the operator chooses", async () => {
    const id = await newLot("Shared");
    const page = await signedIn("conflict");
    await page.goto(`${server.url}/#/lots`);
    const versionRead = page.waitForResponse(
      (r) => r.url().endsWith(`/api/v1/parkings/${id}`) && r.request().method() === "GET",
    );
    await page.click(`[data-lot="${id}"]`);
    await page.waitForSelector("#lot-form");
    await versionRead;
    // Another tab (here, the API) renames it.
    const renamed = await api("PATCH", `/api/v1/parkings/${id}`, { name: "Renamed elsewhere" });
    expect(renamed.status).toBe(200);
    await page.fill('#lot-form input[name="number_of_spaces"]', "77");
    await page.click("#lot-form button[type=submit]");
    await page.waitForSelector("#conflict");
    // Theirs and mine, each said apart, by the form's words.
    expect(await page.locator("#conflict-theirs-fields").textContent()).toBe("Changed meanwhile: Name.");
    expect(await page.locator("#conflict-mine-fields").textContent()).toBe("Changed by you: Spaces.");
    expect(await page.locator("#conflict-both-fields").count()).toBe(0);
    expect((await page.locator("#conflict").textContent()) ?? "").not.toContain("parking_lot_fee");
    expect(await page.locator('#lot-form input[name="number_of_spaces"]').inputValue()).toBe("77");
    expect(await page.locator("#lot-status").textContent()).not.toContain("Saved");
    const stored = async () =>
      (
        (await (await api("GET", `/api/v1/parkings/${id}`)).json()) as {
          data: { name: string; number_of_spaces: number; max_fee: number };
        }
      ).data;
    expect(await stored()).toMatchObject({ name: "Renamed elsewhere", number_of_spaces: 40 });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("desktop-lot-conflict"), fullPage: true });
    // Saving mine writes my field only: their rename stays.
    await page.click("#conflict-mine");
    await page.waitForFunction(() => document.querySelector("#lot-status")?.textContent === "Saved");
    expect(await stored()).toMatchObject({ name: "Renamed elsewhere", number_of_spaces: 77 });
    expect(await page.locator('#lot-form input[name="name"]').inputValue()).toBe("Renamed elsewhere");

    // Both change the same field: that one is the real conflict, named as such.
    expect((await api("PATCH", `/api/v1/parkings/${id}`, { name: "Theirs", max_fee: 9900 })).status).toBe(
      200,
    );
    await page.fill('#lot-form input[name="name"]', "Mine");
    await page.click("#lot-form button[type=submit]");
    await page.waitForSelector("#conflict");
    expect(await page.locator("#conflict-both-fields").textContent()).toContain("Name");
    expect(await page.locator("#conflict-theirs-fields").textContent()).toBe("Changed meanwhile: Max fee.");
    await page.click("#conflict-theirs");
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('#lot-form input[name="name"]')?.value === "Theirs",
    );
    // Then a change of theirs: saved over the version just read, with no conflict.
    await page.fill('#lot-form input[name="number_of_spaces"]', "78");
    await page.click("#lot-form button[type=submit]");
    await page.waitForFunction(() => document.querySelector("#lot-status")?.textContent === "Saved");
    expect(await stored()).toMatchObject({ name: "Theirs", number_of_spaces: 78, max_fee: 9900 });
  });

  test("a lot can be deleted, with what happens to its tickets said first", async () => {
    const id = await newLot("Going away");
    const sent = await fetch(`${server.url}/api/v1/actions/tickets`, {
      method: "POST",
      headers: { authorization: `Bearer ${terminal}`, "content-type": "application/json" },
      body: JSON.stringify({
        eventType: "TicketCreated",
        ticketId: "GONE-1",
        zoneCode: "7",
        parkingLotId: id,
        startDate: new Date(Date.now() - 3_600_000).toISOString(),
        endDate: new Date(Date.now() + 3_600_000).toISOString(),
        licenseNumber: "GONE 1",
        ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
      }),
    });
    expect(sent.status).toBe(200);
    const page = await signedIn("delete");
    const asked: string[] = [];
    page.on("dialog", (d) => {
      asked.push(d.message());
      void d.accept();
    });
    await page.goto(`${server.url}/#/lots/${id}`);
    await page.waitForSelector("#lot-delete");
    await page.click("#lot-delete");
    await page.waitForSelector("#lot-deleted");
    expect(asked[0]).toContain("Its tickets stay");
    expect((await api("GET", `/api/v1/parkings/${id}`)).status).toBe(404);
    expect(await page.locator(`[data-lot="${id}"]`).count()).toBe(0);
    expect((await api("GET", "/api/v1/tickets/GONE-1")).status).toBe(200);
  });

  test("a permit saved with its times untouched keeps them to the second; a time typed is the site's", async () => {
    const made = await api("POST", "/api/v1/permits", {
      registration_number: "SEC 1",
      zone: 7,
      start_at: "2026-06-01T10:00:45Z",
      end_at: "2027-06-01T10:00:45Z",
      note: "",
    });
    expect(made.status).toBe(201);
    const id = ((await made.json()) as { data: { id: number } }).data.id;
    const page = await signedIn("permit-seconds");
    await page.goto(`${server.url}/#/permits/${id}`);
    await page.waitForSelector("#permit-form");
    await page.fill('#permit-form input[name="note"]', "only the note");
    const saved = page.waitForResponse(
      (r) => r.url().endsWith(`/api/v1/permits/${id}`) && r.request().method() === "PUT",
    );
    await page.click("#permit-form button[type=submit]");
    expect((await saved).status()).toBe(200);
    const stored = async () =>
      (
        (await (await api("GET", `/api/v1/permits/${id}`)).json()) as {
          data: { start_at: string; end_at: string };
        }
      ).data;
    expect(await stored()).toMatchObject({
      start_at: "2026-06-01T10:00:45.000000Z",
      end_at: "2027-06-01T10:00:45.000000Z",
    });
    // A time changed is the wall time typed, at the site (this box runs in UTC).
    await page.waitForSelector("#permit-form");
    await page.fill('#permit-form input[name="end_at"]', "2027-06-01T12:30");
    const again = page.waitForResponse(
      (r) => r.url().endsWith(`/api/v1/permits/${id}`) && r.request().method() === "PUT",
    );
    await page.click("#permit-form button[type=submit]");
    expect((await again).status()).toBe(200);
    expect(await stored()).toMatchObject({
      start_at: "2026-06-01T10:00:45.000000Z",
      end_at: "2027-06-01T12:30:00.000000Z",
    });
  });

  test("a permit has its own address, and a permit changed meanwhile is merged by field (Swedish, phone)", async () => {
    const made = await api("POST", "/api/v1/permits", {
      registration_number: "RES 1",
      zone: 7,
      start_at: "2026-06-01",
      end_at: null,
      note: "resident",
      days: [
        { weekday: 3, start_time: "07:00:00", end_time: "18:00:00" },
        { weekday: 1, start_time: "07:00:00", end_time: "18:00:00" },
        { weekday: 2, start_time: "09:00:00", end_time: "10:00:00" },
      ],
    });
    expect(made.status).toBe(201);
    const id = ((await made.json()) as { data: { id: number } }).data.id;
    const page = await signedIn("permit-conflict", "sv-SE", { width: 390, height: 844 });
    const versionRead = page.waitForResponse(
      (r) => r.url().endsWith(`/api/v1/permits/${id}`) && r.request().method() === "GET",
    );
    await page.goto(`${server.url}/#/permits/${id}`);
    await page.waitForSelector("#permit-form");
    await versionRead;
    expect((await api("PATCH", `/api/v1/permits/${id}`, { note: "changed at the desk" })).status).toBe(200);
    await page.fill('#permit-form input[name="zone"]', "8");
    await page.click("#permit-form button[type=submit]");
    await page.waitForSelector("#conflict");
    expect(await page.locator("#conflict-theirs-fields").textContent()).toBe(
      "Ändrat under tiden: Anteckning.",
    );
    expect(await page.locator("#conflict-mine-fields").textContent()).toBe("Ändrat av dig: Zon.");
    const stored = async () =>
      ((await (await api("GET", `/api/v1/permits/${id}`)).json()) as { data: { zone: number; note: string } })
        .data;
    expect(await stored()).toMatchObject({ zone: 7, note: "changed at the desk" });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("phone-permit-conflict-sv"), fullPage: true });
    await page.click("#conflict-mine");
    await page.waitForFunction(async () => !document.querySelector("#conflict"));
    await Bun.sleep(300);
    expect(await stored()).toMatchObject({ zone: 8, note: "changed at the desk" });
  });

  test("a refused save marks the field the box names, says it once in words, and never says Saved", async () => {
    const id = await newLot("Overlap");
    const page = await signedIn("field-errors");
    await page.goto(`${server.url}/#/lots/${id}`);
    await page.waitForSelector("#lot-form");
    // A second weekday fee over the same hours as the first.
    await page.click("#fees button.add");
    const added = page.locator("#fees tbody tr:nth-child(4)");
    await added.locator('select[name="type_of_day"]').selectOption("1");
    await added.locator('input[name="start_time"]').fill("00:00:00");
    await added.locator('input[name="end_time"]').fill("24:00:00");
    await added.locator('input[name="cost_per_unit"]').fill("5");
    await page.click("#lot-form button[type=submit]");
    await page.waitForSelector(".field-error");
    expect(await page.locator('#fees tbody tr:nth-child(4) [aria-invalid="true"]').count()).toBe(1);
    const shown = await page.locator(".field-error").allTextContents();
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(/overlap/i);
    const status = (await page.locator("#lot-status").textContent()) ?? "";
    expect(status).toContain("Not saved: 1 marked field");
    expect(status).not.toContain("Saved");
    expect(status).not.toContain("/parking_lot_fee");
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("desktop-lot-field-error"), fullPage: true });
    await added.locator("button.remove").click();
    await page.click("#lot-form button[type=submit]");
    await page.waitForFunction(() => document.querySelector("#lot-status")?.textContent === "Saved");
    expect(await page.locator(".field-error").count()).toBe(0);
  });

  test("a lot opened from a list shown earlier is read afresh: a save never reverts a change made meanwhile", async () => {
    const id = await newLot("Listed");
    const page = await signedIn("fresh-open");
    await page.goto(`${server.url}/#/lots`);
    await page.waitForSelector(`[data-lot="${id}"]`);
    expect((await api("PATCH", `/api/v1/parkings/${id}`, { number_of_spaces: 4242 })).status).toBe(200);
    await page.click(`[data-lot="${id}"]`);
    await page.waitForSelector("#lot-form");
    expect(await page.locator('#lot-form input[name="number_of_spaces"]').inputValue()).toBe("4242");
    await page.fill('#lot-form input[name="name"]', "Listed, renamed");
    await page.click("#lot-form button[type=submit]");
    await page.waitForFunction(() => document.querySelector("#lot-status")?.textContent === "Saved");
    const lot = (
      (await (await api("GET", `/api/v1/parkings/${id}`)).json()) as {
        data: { name: string; number_of_spaces: number };
      }
    ).data;
    expect(lot).toMatchObject({ name: "Listed, renamed", number_of_spaces: 4242 });
  });

  test("an import applied with a double click is written once; a malformed address still draws its page", async () => {
    const page = await signedIn("double-apply");
    await page.goto(`${server.url}/#/lots`);
    await page.waitForSelector("#lots-table");
    const before = ((await (await api("GET", "/api/v1/parkings")).json()) as { data: unknown[] }).data.length;
    const { id: _, ...lot } = {
      ...(await (await api("GET", "/api/v1/parkings")).json()).data[0],
      name: "Once only",
    };
    await page.setInputFiles("#lots-import", {
      name: "one.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify({ data: [lot] })),
    });
    await page.waitForSelector("#import-apply");
    await page.dblclick("#import-apply");
    await page.waitForFunction(() =>
      document.querySelector("#import-status")?.textContent?.includes("1 created"),
    );
    await Bun.sleep(300);
    const after = ((await (await api("GET", "/api/v1/parkings")).json()) as { data: { name: string }[] })
      .data;
    expect(after.length).toBe(before + 1);
    expect(after.filter((l) => l.name === "Once only")).toHaveLength(1);

    await page.goto(`${server.url}/#/tickets/100%`);
    await page.waitForSelector("#tickets-table");
    expect(await page.locator("#signin-error").count()).toBe(0);
  });

  test("weekly hours take a set of days in one row: Mon-Fri 07-18 is one row, saved as five windows", async () => {
    const page = await signedIn("weekly");
    await page.goto(`${server.url}/#/permits`);
    await page.click("#new-permit");
    await page.fill('#permit-form input[name="registration_number"]', "WEEK 1");
    await page.fill('#permit-form input[name="zone"]', "7");
    await page.click("#permit-windows button.add");
    const row = page.locator("#permit-windows tbody tr").first();
    expect(
      await row
        .locator('input[name="weekdays"]')
        .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).checked)),
    ).toEqual([true, true, true, true, true, false, false]);
    await page.click("#permit-form button[type=submit]");
    await page.waitForFunction(() => document.querySelector("#permit-form h2")?.textContent?.includes("#"));
    const list = (
      (await (await api("GET", "/api/v1/permits?registration_number=WEEK1")).json()) as {
        data: { id: number; days: { weekday: number; start_time: string; end_time: string }[] }[];
      }
    ).data;
    expect(list[0]!.days.map((d) => d.weekday)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(list[0]!.days.map((d) => `${d.start_time}-${d.end_time}`))).toEqual(
      new Set(["07:00:00-18:00:00"]),
    );
    // Opened again, the five windows are one row again.
    await page.goto(`${server.url}/#/permits/${list[0]!.id}`);
    await page.waitForSelector("#permit-windows tbody tr");
    expect(await page.locator("#permit-windows tbody tr").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("desktop-permit-weekly"), fullPage: true });
  });

  test("who changed what and when: under each lot and permit, and as one list that can be filtered", async () => {
    const id = await newLot("Before");
    const page = await signedIn("history");
    await page.goto(`${server.url}/#/lots/${id}`);
    await page.waitForSelector("#lot-form");
    await page.fill('#lot-form input[name="name"]', "After");
    await page.click("#lot-form button[type=submit]");
    await page.waitForFunction(() => document.querySelector("#lot-status")?.textContent === "Saved");
    await page.waitForSelector("#lot-editor .history table.changes");
    const own = (await page.locator("#lot-editor .history").textContent()) ?? "";
    expect(own).toContain("Name: Before → After");
    expect(own).toContain("token:console (console)");
    expect(own).toContain("Created");

    await page.goto(`${server.url}/#/changes`);
    await page.waitForSelector("#changes-list table.changes");
    expect(await page.locator(`#changes-list a[href="#/lots/${id}"]`).count()).toBeGreaterThan(0);
    await page.selectOption('#changes-filter select[name="subject"]', "permit");
    await page.click("#changes-filter button[type=submit]");
    await page.waitForFunction(() => !document.querySelector('#changes-list a[href^="#/lots/"]'));
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("desktop-changes"), fullPage: true });
  });

  test("the history shows a fee change as one, in kronor beside the old one, and long values on demand (en desk, sv phone)", async () => {
    const id = await newLot("Fee history");
    const note = `${"Resident of block A, parks by the east gate. ".repeat(4)}— the end of the note`;
    const made = await api("POST", "/api/v1/permits", {
      registration_number: "LONG 1",
      zone: 7,
      start_at: "2026-06-01T00:00:00Z",
      end_at: null,
      note: "short",
    });
    const permitId = ((await made.json()) as { data: { id: number } }).data.id;
    expect((await api("PATCH", `/api/v1/permits/${permitId}`, { note })).status).toBe(200);
    for (const [locale, viewport, fees, before, after] of [
      [
        "en-GB",
        DESKTOP,
        "Fees",
        "SEK 20.00/hour Weekdays 00:00–24:00",
        "SEK 12.50/hour Weekdays 00:00–24:00",
      ],
      [
        "sv-SE",
        { width: 390, height: 844 },
        "Avgifter",
        "20,00 kr/timme Vardagar 00:00–24:00",
        "12,50 kr/timme Vardagar 00:00–24:00",
      ],
    ] as const) {
      const page = await signedIn(`fee-history-${locale}`, locale, viewport);
      if (locale === "en-GB") {
        const cost = await openLot(page, id);
        await cost.fill("12.50");
        await page.click("#lot-form button[type=submit]");
        await page.waitForFunction(() => document.querySelector("#lot-status")?.textContent === "Saved");
      }
      await page.goto(`${server.url}/#/lots/${id}`);
      await page.waitForSelector('#lot-editor .history [data-field="parking_lot_fee"] table.rows-diff');
      const item = page.locator('#lot-editor .history [data-field="parking_lot_fee"]').first();
      expect(await item.locator(".field-name").textContent()).toBe(fees);
      const changed = item.locator("tr.changed");
      expect(await changed.count()).toBe(1);
      const cells = (await changed.locator("td").allTextContents()).map((c) => c.replaceAll("\u00a0", " "));
      expect(cells).toEqual([before, after]);
      // The other two fees stand beside themselves, unchanged.
      expect(await item.locator("tr.same").count()).toBe(2);
      expect((await page.locator("#lot-editor .history").textContent()) ?? "").not.toContain("cost_per_unit");
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath(`history-fee-${locale}`), fullPage: true });

      // A long note: cut to a line, the whole of it on demand.
      await page.goto(`${server.url}/#/changes`);
      await page.waitForSelector('#changes-list [data-field="note"] details.full-value');
      const long = page.locator('#changes-list [data-field="note"] details.full-value').first();
      expect(await long.locator("summary").textContent()).toEndWith("…");
      await long.locator("summary").click();
      expect(await long.textContent()).toContain("the end of the note");
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath(`history-list-${locale}`), fullPage: true });
      await page.close();
    }
  });

  test("smaller things: a skip link, a permit's state in words, long permits in days, notes and coordinates kept whole", async () => {
    // Any weekday but today's: the resident's permit is outside its hours now.
    const other = ((new Date().getUTCDay() + 6) % 7) + 1 === 1 ? 3 : 1;
    const made = await api("POST", "/api/v1/permits", {
      registration_number: "RES 9",
      zone: 1010,
      start_at: new Date(Date.now() - 86_400_000).toISOString(),
      end_at: null,
      note: "Resident of Storgatan 4, parking by the east gate, key card 1234, call the office before towing",
      days: [{ weekday: other, start_time: "07:00:00", end_time: "08:00:00" }],
    });
    expect(made.status).toBe(201);
    expect(
      (
        await api("POST", "/api/v1/permits", {
          registration_number: "LONG 34",
          zone: 1011,
          start_at: new Date(Date.now() - 86_400_000).toISOString(),
          end_at: new Date(Date.now() + 34 * 86_400_000 + 9.5 * 3_600_000).toISOString(),
        })
      ).status,
    ).toBe(201);
    const lotId = await newLot("Coordinates");
    expect(
      (
        await api("PATCH", `/api/v1/parkings/${lotId}`, {
          parking_lot_location: [{ latitude: 59.329323, longitude: 18.068581 }],
        })
      ).status,
    ).toBe(200);
    for (const [locale, outside, days] of [
      ["en-GB", "Outside its hours", /^34 days 9 h left/],
      ["sv-SE", "Utanför sina tider", /^34 dagar 9 h/],
    ] as const) {
      const page = await signedIn(`smaller-${locale}`, locale, { width: 1440, height: 900 });
      await page.goto(`${server.url}/#/permits`);
      // Opened afresh (a bookmark): the keyboard starts at the top of the page.
      await page.reload();
      await page.waitForSelector("#permits-list tbody tr");
      // The first Tab reaches the skip link; Enter puts the focus on the page, the address stays.
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.className)).toBe("skip-link");
      await page.keyboard.press("Enter");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("page-title");
      expect(page.url()).toEndWith("#/permits");
      await page.fill('#permit-filter input[name="zone"]', "1010");
      await page.click('#permit-filter button[type="submit"]');
      await page.waitForFunction(() => document.querySelectorAll("#permits-list tbody tr").length === 1);
      expect(await page.textContent("#permits-list [data-permit-state]")).toBe(outside);
      // The note keeps to its column: the list scrolls within it, never runs under the editor.
      await page.click("#permits-list a[data-permit]");
      await page.waitForSelector("#permit-form");
      const [listRight, editorLeft, overflow] = await page.evaluate(() => {
        const list = document.querySelector("#permits-list")!;
        return [
          list.getBoundingClientRect().right,
          document.querySelector("#permit-editor")!.getBoundingClientRect().left,
          getComputedStyle(list).overflowX,
        ] as const;
      });
      expect(listRight).toBeLessThanOrEqual(editorLeft);
      expect(overflow).toBe("auto");
      // Cut to a line of its column's width (14rem), whole in its title.
      const [noteWidth, rem, title] = await page
        .locator("#permits-list .note-text")
        .evaluate((el) => [
          el.getBoundingClientRect().width,
          Number.parseFloat(getComputedStyle(document.documentElement).fontSize),
          el.getAttribute("title"),
        ]);
      expect(noteWidth).toBeLessThanOrEqual(14 * (rem as number) + 1);
      expect(title).toContain("call the office before towing");
      await page.screenshot({ path: screenshotPath(`permits-state-${locale}`), fullPage: true });
      // Coordinates are shown whole.
      await page.goto(`${server.url}/#/lots/${lotId}`);
      await page.waitForSelector("#locations tbody tr");
      for (const name of ["latitude", "longitude"]) {
        const whole = await page
          .locator(`#locations input[name="${name}"]`)
          .evaluate((el: HTMLInputElement) => el.scrollWidth <= el.clientWidth);
        expect(whole).toBe(true);
      }
      // A long permit's time left is in days.
      await page.goto(`${server.url}/#/check`);
      await page.fill("#zone", "1011");
      await page.fill("#plate", "LONG 34");
      await page.click("#check-button");
      await page.waitForSelector("#verdict-line");
      expect((await page.textContent("#verdict-line")) ?? "").toMatch(days);
      await page.close();
    }
  });

  test("every console page and form, at desk and phone size, in English and Swedish: axe-core finds nothing moderate or worse", async () => {
    const lotId = await newLot("Axe");
    const permit = await api("POST", "/api/v1/permits", {
      registration_number: "AXE 1",
      zone: 7,
      start_at: "2026-01-01T00:00:00Z",
      end_at: null,
      note: "A resident",
      days: [{ weekday: 1, start_time: "07:00:00", end_time: "18:00:00" }],
    });
    const permitId = ((await permit.json()) as { data: { id: number } }).data.id;
    const found: string[] = [];
    for (const [size, viewport, locale] of [
      ["desk", { width: 1440, height: 900 }, "en-GB"],
      ["phone", { width: 390, height: 844 }, "en-GB"],
      ["desk-sv", { width: 1440, height: 900 }, "sv-SE"],
      ["phone-sv", { width: 390, height: 844 }, "sv-SE"],
    ] as const) {
      const page = await signedIn(`a11y-${size}`, locale, viewport);
      for (const route of [
        "check",
        "today",
        "lots",
        `lots/${lotId}`,
        "permits",
        `permits/${permitId}`,
        "tickets",
        "tickets/S-ENDED",
        "credentials",
        "audit",
        "status",
        "changes",
        "setup",
      ]) {
        await page.goto(`${server.url}/#/${route}`);
        await page.waitForLoadState("networkidle");
        await Bun.sleep(200);
        for (const v of await axeViolations(page, { bestPractice: true, targetSize: true }))
          found.push(`${size} #/${route}: ${v}`);
        await page.screenshot({
          path: screenshotPath(`${size}-console-${route.replaceAll("/", "-")}`),
          fullPage: true,
        });
        expect(await page.title()).toContain("parkd");
      }
    }
    expect(found).toEqual([]);
    // Thirteen pages in four browsers on a shared machine: more than one test's minute.
  }, 300_000);

  test("New sign-in code: a token's QR code, made again, signs a fresh browser in as that token", async () => {
    const made = await api("POST", "/api/v1/tokens", { name: "handheld-again", scopes: ["permits:read"] });
    const { token } = ((await made.json()) as { data: { token: string } }).data;
    const user = await api("POST", "/api/v1/users", {
      name: "attendant-again",
      scopes: ["permits:read"],
      password: "correct horse battery",
    });
    expect(user.status).toBe(201);
    const page = await signedIn("sign-in-code");
    await page.goto(`${server.url}/#/credentials`);
    await page.waitForSelector('[data-sign-in-code="handheld-again"]');
    // Only a credential with pages gets one: the terminal's token has none to open.
    expect(await page.locator('[data-sign-in-code="terminal-1"]').count()).toBe(0);
    expect(await page.locator('[data-sign-in-code="attendant-again"]').count()).toBe(1);
    await page.screenshot({ path: screenshotPath("desktop-credentials-sign-in-code"), fullPage: true });

    const issued = page.waitForResponse(
      (r) => r.url().endsWith("/api/v1/session/codes") && r.request().method() === "POST",
    );
    await page.click('[data-sign-in-code="handheld-again"]');
    const { sign_in_url } = ((await (await issued).json()) as { data: { sign_in_url: string } }).data;
    await page.waitForSelector("#sign-in-code[open] svg.qr");
    expect(sign_in_url).not.toContain(token);
    // The dialog's QR code holds that very address, and names whom it signs in.
    expect(await page.getAttribute("#sign-in-code svg.qr path", "d")).toBe(qrModules(sign_in_url));
    expect(await page.textContent("#sign-in-code-title")).toBe("Sign-in code for handheld-again");
    expect(await page.textContent("#sign-in-code")).toContain("sign in as handheld-again");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Close");
    expect(await axeViolations(page, { bestPractice: true, targetSize: true })).toEqual([]);
    await page.screenshot({ path: screenshotPath("desktop-credentials-sign-in-code-dialog") });
    await page.keyboard.press("Escape");
    await page.waitForSelector("#sign-in-code", { state: "detached" });

    // A handheld that never saw the token scans it: signed in as that token, the code used up.
    const ctx = await openBrowser(join(box.dir, "profile-scanned"), { width: 390, height: 844 });
    contexts.push(ctx);
    const handheld = ctx.pages()[0] ?? (await ctx.newPage());
    await handheld.goto(sign_in_url);
    await handheld.waitForSelector("#plate");
    expect(await handheld.textContent(".who")).toBe("handheld-again");
    const session = await handheld.evaluate(() => fetch("/api/v1/session").then((r) => r.json()));
    expect((session as { data: { kind: string; name: string } }).data).toMatchObject({
      kind: "token",
      name: "handheld-again",
    });
    const again = await fetch(`${server.url}/api/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: new URL(sign_in_url).hash.replace("#code=", "") }),
    });
    expect(again.status).toBe(401);

    // A user's row makes a code that signs in as the user.
    const forUser = page.waitForResponse(
      (r) => r.url().endsWith("/api/v1/session/codes") && r.request().method() === "POST",
    );
    await page.click('[data-sign-in-code="attendant-again"]');
    const userUrl = ((await (await forUser).json()) as { data: { sign_in_url: string } }).data.sign_in_url;
    await page.waitForSelector("#sign-in-code[open] svg.qr");
    expect(await page.getAttribute("#sign-in-code svg.qr path", "d")).toBe(qrModules(userUrl));
    const asUser = await fetch(`${server.url}/api/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: new URL(userUrl).hash.replace("#code=", "") }),
    });
    expect(((await asUser.json()) as { data: { kind: string; name: string } }).data).toMatchObject({
      kind: "user",
      name: "attendant-again",
    });
  });

  test("the audit opens on plate checks; zone lists and everything are a choice away", async () => {
    const reader = await box.token("handheld-kinds", "permits:read");
    const ask = (q: string) =>
      fetch(`${server.url}/api/v1/attendants/check-tickets?${q}`, {
        headers: { authorization: `Bearer ${reader}` },
      });
    await ask("registration_number=KND123");
    await ask("zone=4242");
    const page = await signedIn("audit-kinds");
    await page.goto(`${server.url}/#/audit`);
    await page.waitForSelector("#audit-filter");
    // Records are written about once a second.
    await Bun.sleep(1500);
    await page.fill('#audit-filter input[name="credential"]', "token:handheld-kinds");
    await page.click("#audit-filter button[type=submit]");
    // The list shown before a choice stays until the chosen one replaces it: wait for what is
    // expected, then read what is there (a timeout names the rows seen instead).
    const shows = async (expected: string[]) => {
      const seen = () => page.locator("#audit-table tbody tr td:nth-child(4)").allTextContents();
      await page
        .waitForFunction(
          (expected) =>
            [...document.querySelectorAll("#audit-table tbody tr td:nth-child(4)")]
              .map((td) => td.textContent)
              .join("|") === expected.join("|"),
          expected,
          { timeout: 10_000 },
        )
        .catch(() => undefined);
      expect(await seen()).toEqual(expected);
    };
    await shows(["KND123"]);
    await page.selectOption("#audit-kind", "zone,zone_list");
    await shows(["4242"]);
    await page.selectOption("#audit-kind", "");
    await shows(["4242", "KND123"]);
    expect(await page.locator("#audit-kind option").allTextContents()).toEqual([
      "Plate checks",
      "Zone lists",
      "Earlier checks read",
      "Marks",
      "Notices issued",
      "Everything",
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("audit-kinds"), fullPage: true });
  });

  test("the audit answers who looked up a plate, in any spelling, and when", async () => {
    const reader = await box.token("handheld-audit", "permits:read");
    for (const plate of ["ABC 123", "XYZ 9", "abc-123"])
      await fetch(
        `${server.url}/api/v1/attendants/check-tickets?registration_number=${encodeURIComponent(plate)}`,
        {
          headers: { authorization: `Bearer ${reader}` },
        },
      );
    const page = await signedIn("audit");
    await page.goto(`${server.url}/#/audit`);
    await page.waitForSelector("#audit-filter");
    // Records are written about once a second.
    await Bun.sleep(1500);
    await page.fill('#audit-filter input[name="registration_number"]', "Abc123");
    await page.click("#audit-filter button[type=submit]");
    // The unfiltered list is on the page until the filtered one replaces it: wait for the latter.
    await page.waitForFunction(() => {
      const asked = [...document.querySelectorAll("#audit-table tbody tr td:nth-child(4)")];
      return asked.length >= 2 && asked.every((td) => td.textContent === "ABC123");
    });
    const asked = await page.locator("#audit-table tbody tr td:nth-child(4)").allTextContents();
    expect(asked).toEqual(["ABC123", "ABC123"]);
    expect(await page.locator("#audit-table tbody").textContent()).toContain("token:handheld-audit");
  });

  test("the audit shows who read a car's earlier checks, and when", async () => {
    const reader = await box.token("handheld-history", "permits:read");
    const read = await fetch(`${server.url}/api/v1/attendants/checks?registration_number=his-123`, {
      headers: { authorization: `Bearer ${reader}` },
    });
    expect(read.status).toBe(200);
    const page = await signedIn("audit-history");
    await page.goto(`${server.url}/#/audit`);
    await page.waitForSelector("#audit-filter");
    // Records are written about once a second.
    await Bun.sleep(1500);
    await page.fill('#audit-filter input[name="credential"]', "token:handheld-history");
    // The audit opens on plate checks: a read of a car's checks is a kind of its own.
    expect(await page.inputValue("#audit-kind")).toBe("registration_number,verdict,offline_verdict");
    await page.click("#audit-filter button[type=submit]");
    await page.waitForFunction(() => document.querySelector("#audit-table tbody")?.children.length === 0);
    await page.selectOption("#audit-kind", "checks");
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll("#audit-table tbody tr")];
      return rows.length === 1 && rows[0]!.textContent!.includes("HIS123");
    });
    const cells = await page.locator("#audit-table tbody tr td").allTextContents();
    expect(cells.slice(1, 4)).toEqual(["token:handheld-history", "earlier checks read", "HIS123"]);
    await page.screenshot({ path: screenshotPath("audit-checks-read"), fullPage: true });
  });

  test("the audit tells typed plates from camera reads, and counts the reads corrected", async () => {
    const reader = await box.token("handheld-camera", "permits:read");
    for (const q of [
      "registration_number=CAM1&zone=1001",
      "registration_number=CAM2&zone=1001&camera_read=CAM2",
      "registration_number=CAM3&zone=1001&camera_read=CAM8",
    ])
      await fetch(`${server.url}/api/v1/attendants/verdict?${q}`, {
        headers: { authorization: `Bearer ${reader}` },
      });
    await Bun.sleep(1500);
    const page = await signedIn("audit-camera", "en-GB", DESKTOP);
    await page.goto(`${server.url}/#/audit`);
    await page.fill('#audit-filter input[name="credential"]', "token:handheld-camera");
    await page.click("#audit-filter button[type=submit]");
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll("#audit-table tbody tr")];
      return rows.length === 3 && rows.every((row) => row.textContent!.includes("token:handheld-camera"));
    });
    expect(await page.locator("#audit-table tbody tr td:nth-child(6)").allTextContents()).toEqual([
      "camera read CAM8, corrected",
      "camera",
      "typed",
    ]);
    expect(await page.textContent("#audit-camera-reads")).toBe(
      "Of the checks listed, 2 plates were read by the camera; 1 of them were corrected before the check.",
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("audit-camera-reads"), fullPage: true });
  });

  test("the audit says what each verdict told the attendant (en desk, sv phone)", async () => {
    const reader = await box.token("handheld-verdicts", "permits:read");
    expect(
      (
        await api("POST", "/api/v1/permits", {
          registration_number: "VRD 1",
          zone: 1001,
          start_at: "2026-01-01T00:00:00Z",
          end_at: null,
        })
      ).status,
    ).toBe(201);
    for (const zone of ["1001", "1002"])
      await fetch(`${server.url}/api/v1/attendants/verdict?registration_number=VRD1&zone=${zone}`, {
        headers: { authorization: `Bearer ${reader}` },
      });
    await fetch(`${server.url}/api/v1/attendants/verdict?registration_number=NOPE1&zone=1001`, {
      headers: { authorization: `Bearer ${reader}` },
    });
    await Bun.sleep(1500);
    for (const [locale, viewport, valid, elsewhere, none] of [
      ["en-GB", DESKTOP, "valid here", "valid elsewhere", "no valid permit"],
      ["sv-SE", { width: 390, height: 844 }, "giltigt här", "giltigt i annan zon", "inget giltigt tillstånd"],
    ] as const) {
      const page = await signedIn(`audit-verdicts-${locale}`, locale, viewport);
      await page.goto(`${server.url}/#/audit`);
      await page.fill('#audit-filter input[name="credential"]', "token:handheld-verdicts");
      await page.click("#audit-filter button[type=submit]");
      // Wait for the filtered list itself, not any list of three.
      await page.waitForFunction(() => {
        const rows = [...document.querySelectorAll("#audit-table tbody tr")];
        return rows.length === 3 && rows.every((row) => row.textContent!.includes("token:handheld-verdicts"));
      });
      const told = await page.locator("#audit-table tbody [data-verdict]").allTextContents();
      expect(told).toEqual([none, elsewhere, valid]);
      expect(await page.locator("#audit-table tbody tr:first-child td:nth-child(4)").textContent()).toBe(
        "NOPE1@1001",
      );
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath(`audit-verdicts-${locale}`), fullPage: true });
    }
  });

  test("More on the audit and the change list goes on with the filter as searched, once per click", async () => {
    const page = await signedIn("more-as-searched");
    // Every page the box answers (slowly) says more follows, so More is always there to click.
    const asked: string[] = [];
    const rows = {
      lookups: {
        at: "2026-06-15T08:00:00.000000Z",
        credential: "token:h",
        by: "registration_number",
        query: "AAA111",
        results: 0,
        verdict: null,
      },
      changes: {
        id: 9,
        at: "2026-06-15T08:00:00.000000Z",
        actor: "token:console",
        via: "console",
        subject: "permit",
        subject_id: "1",
        action: "update",
        before: { note: "a" },
        after: { note: "b" },
      },
    };
    for (const path of ["lookups", "changes"] as const)
      await page.route(new RegExp(`/api/v1/${path}(\\?|$)`), async (route) => {
        asked.push(route.request().url());
        await Bun.sleep(300);
        await route.fulfill({ json: { data: [rows[path]], next_cursor: "WyJsb29rdXBzIiw5XQ" } });
      });
    await page.goto(`${server.url}/#/audit`);
    await page.fill('#audit-filter input[name="registration_number"]', "AAA111");
    await page.click("#audit-filter button[type=submit]");
    await page.waitForSelector("#audit-more:not([hidden]):not([disabled])");
    // Typed but not searched: More still goes on with AAA111, and a second click waits for the first.
    await page.fill('#audit-filter input[name="registration_number"]', "BBB222");
    asked.length = 0;
    await page.click("#audit-more");
    await page.click("#audit-more", { force: true, timeout: 500 }).catch(() => {});
    await Bun.sleep(800);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("registration_number=AAA111");
    expect(asked[0]).toContain("cursor=");
    expect(await page.locator("#audit-table tbody tr").count()).toBe(2);

    await page.goto(`${server.url}/#/changes`);
    await page.waitForSelector("#changes-more:not([hidden]):not([disabled])");
    await page.fill('#changes-filter input[name="actor"]', "token:console");
    await page.click("#changes-filter button[type=submit]");
    await Bun.sleep(500);
    await page.waitForSelector("#changes-more:not([hidden]):not([disabled])");
    await page.fill('#changes-filter input[name="actor"]', "token:other");
    asked.length = 0;
    await page.click("#changes-more");
    await page.click("#changes-more", { force: true, timeout: 500 }).catch(() => {});
    await Bun.sleep(800);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("actor=token%3Aconsole");
  });
});
