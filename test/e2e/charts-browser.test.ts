import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { boxesForFile, type Server } from "../support/binary.ts";
import { axeViolations, openBrowser, screenshotPath, skipWithoutChromium } from "../support/browser.ts";
import { cityLot } from "../support/lots.ts";

const newBox = boxesForFile();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const WIDE = { width: 1920, height: 1080 };

let server: Server;
let dir: string;
const tokens: Record<string, string> = {};
const contexts: BrowserContext[] = [];
const refused: string[] = [];

async function api(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function browser(
  name: string,
  viewport: { width: number; height: number },
  locale = "en-GB",
): Promise<Page> {
  const ctx = await openBrowser(join(dir, `profile-${name}`), viewport, locale);
  contexts.push(ctx);
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  page.on("pageerror", (e) => refused.push(`page error (${name}): ${e.message}`));
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
 * The console's Today page in headless Chromium against the built binary: occupancy bars against
 * spaces, today's arrivals, 30 days of revenue and one lot's day, drawn as SVG by the page under
 * the strict CSP, on a desktop and a phone, axe-core clean. Never skipped with CI=true.
 */
describe.skipIf(skipWithoutChromium)("the Today page in a browser", () => {
  beforeAll(async () => {
    const box = newBox();
    dir = box.dir;
    tokens.admin = await box.token("console", "admin");
    tokens.terminal = await box.token("terminal-1", "tickets:write");
    server = await box.serve(["--http", "--timezone", "UTC"]);
    const lots = [
      { ...cityLot(), id: 1, name: "Storgatan", number_of_spaces: 4 },
      { ...cityLot(), id: 2, name: "Hamnen P-hus", number_of_spaces: 2 },
    ];
    for (const lot of lots)
      expect((await api(tokens.admin!, "POST", "/api/v1/parkings", lot)).status).toBe(201);
    const now = Date.now();
    const stays: [number, number, number, number][] = [
      // lot, started hours ago, hours long, cost in öre
      [1, 3, 4, 6000],
      [1, 2, 3, 4000],
      [1, 1, 2, 2000],
      [2, 2, 5, 8000],
      [2, 1, 3, 3000],
      [2, 0.5, 2, 2000], // three in two spaces: over
      [1, 24 * 5, 2, 5000], // five days ago: revenue only
      [2, 24 * 4, 2, 50_000_000], // four days ago, 500,000 kr: figures and axes of six digits
    ];
    let n = 0;
    for (const [lot, ago, hours, cost] of stays) {
      const start = now - ago * 3_600_000;
      const r = await api(tokens.terminal!, "POST", "/api/v1/actions/tickets", {
        eventType: "TicketCreated",
        ticketId: `C-${++n}`,
        zoneCode: "1234",
        parkingLotId: String(lot),
        startDate: new Date(start).toISOString(),
        endDate: new Date(start + hours * 3_600_000).toISOString(),
        licenseNumber: `ABC${100 + n}`,
        ticketCost: { amountInclVat: cost, vatRate: 25, currencyCode: "SEK" },
      });
      expect(r.status).toBe(200);
    }
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  for (const [name, viewport, locale, words] of [
    [
      "desktop",
      DESKTOP,
      "en-GB",
      { total: "Total SEK 500,300.00 · 8 tickets", lots: ["SEK 500,130", "SEK 170"], csv: "lot_name" },
    ],
    [
      "wide",
      WIDE,
      "sv-SE",
      {
        total: "Summa 500 300,00 kr · 8 biljetter",
        lots: ["500 130 kr", "170 kr"],
        csv: "Parkeringens namn",
      },
    ],
    [
      "phone",
      PHONE,
      "sv-SE",
      {
        total: "Summa 500 300,00 kr · 8 biljetter",
        lots: ["500 130 kr", "170 kr"],
        csv: "Parkeringens namn",
      },
    ],
  ] as const)
    test(`charts on the ${name} (${locale}): figures on the revenue, its CSV, the lot's day up to now`, async () => {
      const page = await browser(name, viewport, locale);
      await page.goto(`${server.url}/`);
      await page.fill("#token", tokens.admin!);
      await page.click("#token-form button[type=submit]");
      await page.waitForSelector("nav.console-nav");
      await page.goto(`${server.url}/#/today`);
      await page.waitForSelector("#today-occupancy svg.chart");
      await page.waitForSelector("#lot-curve svg.chart");
      await page.waitForSelector("#revenue-charts svg.chart");
      expect(await page.locator("svg.chart").count()).toBe(5);
      // Storgatan 3 of 4, Hamnen 3 of 2 (over its spaces, drawn red), fullest first.
      expect(await page.locator("#today-occupancy .chart-value").allTextContents()).toEqual(["3/2", "3/4"]);
      expect(await page.locator("#today-occupancy .chart-bar.over").count()).toBe(1);
      const arrivals = await page.locator("#today-arrivals .chart-bar").count();
      expect(arrivals).toBeGreaterThanOrEqual(23);
      // Revenue: 30 days, each day with money carrying its figure; per lot by name with figures.
      const perDay = page.locator("#revenue-charts svg.chart").first();
      expect(await perDay.locator(".chart-bar").count()).toBe(30);
      expect(await perDay.locator(".chart-value-up, .chart-figure").count()).toBeGreaterThanOrEqual(2);
      const nbsp = (xs: string[]) => xs.map((x) => x.replaceAll("\u00a0", " "));
      expect(nbsp([(await page.textContent("#revenue-total")) ?? ""])).toEqual([words.total]);
      const perLot = page.locator("#revenue-charts svg.chart").nth(1);
      expect(await perLot.locator(".chart-label").allTextContents()).toEqual(["Hamnen P-hus", "Storgatan"]);
      expect(nbsp(await perLot.locator(".chart-value").allTextContents())).toEqual([...words.lots]);
      // The CSV button downloads the chosen days' report, lots by name, with its totals row.
      await page.selectOption("#revenue-group", "lot");
      await page.waitForFunction(() =>
        document.querySelector<HTMLAnchorElement>("#revenue-csv")?.href.includes("group=lot"),
      );
      const csv = await page.evaluate(async () => {
        const a = document.querySelector<HTMLAnchorElement>("#revenue-csv")!;
        return (await fetch(a.href)).text();
      });
      expect(csv).toContain(words.csv);
      expect(csv).toContain("Storgatan");
      expect(csv).toMatch(locale === "en-GB" ? /\r\ntotal,,SEK,8,/ : /\r\nSumma;;SEK;8;/);
      // No chart cuts a figure or a label: every text lies inside its chart (six-digit figures,
      // the axis's top included), and at a desk the charts take the page's width.
      const cut = await page.evaluate(() => {
        const out: string[] = [];
        for (const chart of document.querySelectorAll("svg.chart")) {
          const box = chart.getBoundingClientRect();
          for (const text of chart.querySelectorAll("text")) {
            const r = text.getBoundingClientRect();
            if (r.width === 0) continue;
            if (
              r.left < box.left - 1 ||
              r.right > box.right + 1 ||
              r.top < box.top - 1 ||
              r.bottom > box.bottom + 1
            )
              out.push(text.textContent ?? "");
          }
        }
        return out;
      });
      expect(cut).toEqual([]);
      const share = await page.evaluate(
        () =>
          document.querySelector("#revenue-charts svg.chart")!.getBoundingClientRect().width /
          document.querySelector("#today")!.getBoundingClientRect().width,
      );
      expect(share).toBeGreaterThan(0.9);
      // The lot's day stops at now, and says so.
      expect(await page.locator("#lot-curve .chart-now").count()).toBe(1);
      // Each label of the lot form stands apart from the field before it.
      const gap = await page.evaluate(() => {
        const select = document.querySelector("#curve-lot")!.getBoundingClientRect();
        const label = document.querySelector('label[for="curve-day"]')!.getBoundingClientRect();
        return label.top > select.bottom - 2 ? 100 : label.left - select.right;
      });
      expect(gap).toBeGreaterThanOrEqual(8);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath(`today-${name}`), fullPage: true });
      expect(refused).toEqual([]);
    }, 60_000);

  test("late in the day the lot's day marks now with its word inside the chart", async () => {
    const page = await browser("late", DESKTOP);
    // The page's clock at 23:50 of the box's day (UTC): the marker near the chart's right edge.
    const late = new Date();
    late.setUTCHours(23, 50, 0, 0);
    await page.clock.setFixedTime(late);
    await page.goto(`${server.url}/`);
    await page.fill("#token", tokens.admin!);
    await page.click("#token-form button[type=submit]");
    await page.waitForSelector("nav.console-nav");
    await page.goto(`${server.url}/#/today`);
    await page.waitForSelector("#lot-curve svg.chart .chart-now-label");
    const inside = await page.evaluate(() => {
      const chart = document.querySelector("#lot-curve svg.chart")!.getBoundingClientRect();
      const word = document.querySelector("#lot-curve .chart-now-label")!.getBoundingClientRect();
      return word.left >= chart.left - 1 && word.right <= chart.right + 1;
    });
    expect(inside).toBe(true);
  }, 60_000);
});
