import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { migrateCentral } from "../../../src/modules/sync/office/schema.ts";
import { call } from "../../support/app.ts";
import { type PgServer, postgresAvailable, startPostgres } from "../../support/postgres.ts";
import { enrolSite, officeSql, removeBox, type SiteBox, siteBox, siteTarget } from "../../support/sync.ts";

/**
 * The office's reports (db/central/0003_reports.sql) over what two boxes pushed, read as the
 * reporting role, which reads every site and writes nothing.
 */

const available = postgresAvailable();
let pg: PgServer;
let office: SQL;
let reporting: SQL;
const boxes: SiteBox[] = [];

const ticket = (
  id: string,
  start: string,
  end: string,
  amount: number,
  vat: number,
  lot: number | null = null,
) => ({
  eventType: "TicketCreated",
  ticketId: id,
  zoneCode: "1234",
  parkingLotId: lot,
  startDate: start,
  endDate: end,
  licenseNumber: `R${id}`,
  ticketCost: { amountInclVat: amount, vatRate: vat, currencyCode: "SEK" },
});

beforeAll(async () => {
  if (!available) return;
  pg = await startPostgres();
  office = officeSql(pg);
  await migrateCentral(office);
  for (const site of ["rep-a", "rep-b"]) await enrolSite(pg, site);
  const a = siteBox("rep-a");
  const b = siteBox("rep-b");
  boxes.push(a, b);
  await a.post(ticket("t1", "2026-06-15T10:00:00+02:00", "2026-06-15T12:00:00+02:00", 4000, 25));
  await a.post(ticket("t2", "2026-06-15T11:30:00+02:00", "2026-06-15T11:45:00+02:00", 1999, 25));
  // 00:30 in Stockholm is still the 15th in UTC: the site's day counts.
  await a.post(ticket("t3", "2026-06-16T00:30:00+02:00", "2026-06-16T01:30:00+02:00", 14, 12));
  await a.post(ticket("t4", "2026-06-15T10:00:00+02:00", "2026-06-15T12:00:00+02:00", 5000, 25));
  await a.post({ eventType: "TicketCanceled", ticketId: "t4" });
  // Updated twice: its final cost counts, once.
  await a.post(ticket("t5", "2026-06-15T09:00:00+02:00", "2026-06-15T11:00:00+02:00", 1000, 25));
  await a.post({
    ...ticket("t5", "2026-06-15T09:00:00+02:00", "2026-06-15T09:30:00+02:00", 3000, 25),
    eventType: "TicketStopped",
  });
  // A second terminal at site A, silent for two hours (its events moved back at the office below).
  const second = a.credentials.createToken({ name: "terminal-2", scopes: ["tickets:write"] }).token;
  const r = await call(a.app, "POST", "/api/v1/actions/tickets", {
    token: second,
    body: ticket("t6", "2026-06-15T08:00:00+02:00", "2026-06-15T08:10:00+02:00", 0, 25),
  });
  expect(r.status).toBe(200);
  await b.post(ticket("b1", "2026-06-15T10:00:00+02:00", "2026-06-15T12:00:00+02:00", 2500, 25));
  const sa = a.sync(pg);
  await sa.pushAll();
  await sa.pullOnce();
  await b.sync(pg).pushAll();
  await office`UPDATE parkd.events SET received_at = now() - interval '2 hours'
    WHERE site = 'rep-a' AND credential = 'token:terminal-2'`;
  await office.unsafe(`CREATE ROLE report_reader LOGIN PASSWORD 'report-secret' IN ROLE parkd_reporting`);
  reporting = new SQL(pg.url.replace("parkd_office@", "report_reader@"), {
    password: "report-secret",
    max: 1,
  });
}, 60_000);

afterAll(async () => {
  for (const b of boxes) removeBox(b);
  await reporting?.close({ timeout: 1 }).catch(() => {});
  await office?.close({ timeout: 1 }).catch(() => {});
  await pg?.destroy();
}, 30_000);

// `available` throws under CI=true when PostgreSQL is missing: only a laptop without it skips.
describe.skipIf(!available)("the office's reports", () => {
  test("revenue per site, lot, day and VAT rate: each ticket's final cost once, canceled ones zero, exact öre", async () => {
    const rows = await reporting`SELECT site, lot_id, to_char(day, 'YYYY-MM-DD') AS day, vat_rate,
      currency_code, tickets::int, canceled_tickets::int, gross::text, net::text, vat::text
      FROM parkd.report_revenue_daily ORDER BY site, day, vat_rate`;
    expect(rows).toEqual([
      // t1 4000 (VAT 800), t2 1999 (399.8: 400), t5 3000 (600), t6 0; t4 canceled.
      {
        site: "rep-a",
        lot_id: null,
        day: "2026-06-15",
        vat_rate: 25,
        currency_code: "SEK",
        tickets: 4,
        canceled_tickets: 1,
        gross: "8999",
        net: "7199",
        vat: "1800",
      },
      // 14 at 12 %: 1.5 öre of VAT rounds away from zero.
      {
        site: "rep-a",
        lot_id: null,
        day: "2026-06-16",
        vat_rate: 12,
        currency_code: "SEK",
        tickets: 1,
        canceled_tickets: 0,
        gross: "14",
        net: "12",
        vat: "2",
      },
      {
        site: "rep-b",
        lot_id: null,
        day: "2026-06-15",
        vat_rate: 25,
        currency_code: "SEK",
        tickets: 1,
        canceled_tickets: 0,
        gross: "2500",
        net: "2000",
        vat: "500",
      },
    ]);
    const [v] =
      await reporting`SELECT parkd.vat_of(-14, 12)::int AS neg, parkd.vat_of(1000, NULL)::int AS none`;
    expect(v).toEqual({ neg: -2, none: 0 });
  });

  test("a box and the office agree on revenue for the same tickets: one rule, computed on both sides", async () => {
    const a = boxes[0]!;
    const res = await call(
      a.app,
      "GET",
      "/api/v1/reports/revenue?from=2026-06-01&to=2026-06-30&group=day,lot,vat",
      {
        token: a.admin,
      },
    );
    expect(res.status).toBe(200);
    const onBox = (res.json.data as Record<string, unknown>[]).map((r) => ({
      day: r.day,
      lot: r.parking_lot_id,
      rate: r.vat_rate,
      currency: r.currency,
      tickets: r.tickets,
      gross: r.gross,
      net: r.net,
      vat: r.vat,
    }));
    const atOffice = (
      await reporting`SELECT to_char(day, 'YYYY-MM-DD') AS day, lot_id, vat_rate, currency_code,
        tickets::int, gross::int, net::int, vat::int
        FROM parkd.report_revenue_daily WHERE site = 'rep-a' AND tickets > 0 ORDER BY day, vat_rate`
    ).map((r: Record<string, unknown>) => ({
      day: r.day,
      lot: r.lot_id,
      rate: r.vat_rate,
      currency: r.currency_code,
      tickets: r.tickets,
      gross: r.gross,
      net: r.net,
      vat: r.vat,
    }));
    const order = (rows: { day: unknown; rate: unknown }[]) =>
      [...rows].sort((x, y) => `${x.day} ${x.rate}`.localeCompare(`${y.day} ${y.rate}`));
    expect(order(onBox)).toEqual(order(atOffice));
    expect(onBox.length).toBe(2);
  });

  test("tickets started and occupancy per site and hour, in the site's time", async () => {
    const rows = await reporting`SELECT to_char(local_hour, 'MM-DD HH24') AS h, started::int, occupied::int
      FROM parkd.report_hourly WHERE site = 'rep-a' ORDER BY hour`;
    expect(rows).toEqual([
      { h: "06-15 08", started: 1, occupied: 1 },
      { h: "06-15 09", started: 1, occupied: 1 },
      { h: "06-15 10", started: 1, occupied: 1 },
      { h: "06-15 11", started: 1, occupied: 2 },
      { h: "06-16 00", started: 1, occupied: 1 },
      { h: "06-16 01", started: 0, occupied: 1 },
    ]);
  });

  test("terminals that went silent: one while its site kept sending, and every one of a box not seen", async () => {
    const rows =
      await reporting`SELECT site, credential, silent FROM parkd.report_silent_terminals ORDER BY site, credential`;
    expect(
      rows.map((r: { site: string; credential: string; silent: string }) => [r.site, r.credential, r.silent]),
    ).toEqual([
      ["rep-a", "token:terminal-2", "terminal"],
      ["rep-b", expect.stringMatching(/^token:terminal-/), "box"],
    ]);
  });

  test("the reporting role reads every site and writes nothing; a site's role cannot read the reports", async () => {
    const sites = await reporting`SELECT DISTINCT site FROM parkd.tickets ORDER BY site`;
    expect(sites.map((r: { site: string }) => r.site)).toEqual(["rep-a", "rep-b"]);
    for (const write of [
      "INSERT INTO parkd.sites (site) VALUES ('mine')",
      "UPDATE parkd.tickets SET status = 'canceled'",
      "DELETE FROM parkd.events",
      "INSERT INTO parkd.permits (plate, zone, start_at) VALUES ('X', 1, now())",
      "TRUNCATE parkd.lookups",
    ])
      await expect(reporting.unsafe(write)).rejects.toThrow(/permission denied/);
    await expect(reporting`SELECT * FROM parkd.site_roles`).rejects.toThrow(/permission denied/);
    const target = siteTarget(pg, "rep-a");
    const box = new SQL(target.url, { password: target.password, max: 1 });
    try {
      for (const view of [
        "report_revenue_daily",
        "report_hourly",
        "report_terminals",
        "report_silent_terminals",
      ])
        await expect(box.unsafe(`SELECT * FROM parkd.${view}`)).rejects.toThrow(/permission denied/);
    } finally {
      await box.close();
    }
  });
});
