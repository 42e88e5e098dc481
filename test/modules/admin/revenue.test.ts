import { describe, expect, test } from "bun:test";
import { revenueCsv } from "../../../src/modules/admin/reports/csv.ts";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";
import { examples } from "../intake/examples.ts";

/** Issue 25: the revenue report, booked by the intake, as JSON and as CSV. */

function setup() {
  const clock = testClock("2026-06-15T08:05:00Z");
  const s = testApp({ timezone: "Europe/Stockholm" }, clock);
  const writer = s.token("tickets:write");
  const admin = s.token("admin");
  const post = async (body: unknown) => {
    const r = await call(s.app, "POST", "/api/v1/actions/tickets", { token: writer, body });
    expect(r.status).toBe(200);
  };
  const report = (query: string) => call(s.app, "GET", `/api/v1/reports/revenue?${query}`, { token: admin });
  return { ...s, clock, post, report, admin };
}

const ticket = (id: string, over: Record<string, unknown> = {}) => ({
  ...examples.TicketCreated,
  ticketId: id,
  ...over,
});
const cost = (amountInclVat: number, vatRate = 25, currencyCode = "SEK") => ({
  ticketCost: { amountInclVat, vatRate, currencyCode },
});

async function seed(s: ReturnType<typeof setup>) {
  // Updated three times: counts 9 000 once, in lot 13 where it ended up.
  await s.post(ticket("A"));
  await s.post({ ...examples.TicketUpdated, ticketId: "A", ...cost(6_000) });
  await s.post({ ...examples.TicketUpdated, ticketId: "A", parkingLotId: "13", ...cost(8_000) });
  await s.post({ ...examples.TicketStopped, ticketId: "A", parkingLotId: "13", ...cost(9_000) });
  // Moved: counts once, unchanged.
  await s.post(ticket("B", cost(1_000, 12)));
  await s.post({ ...examples.TicketMoved, ticketId: "B" });
  // Canceled: counts zero.
  await s.post(ticket("C", cost(5_000)));
  await s.post({ ...examples.TicketCanceled, ticketId: "C" });
  // 00:30 local on the 16th is the 16th, though it is the 15th in UTC.
  await s.post(
    ticket("D", { startDate: "2026-06-15T22:30:00Z", endDate: "2026-06-16T01:00:00Z", ...cost(999) }),
  );
}

describe("GET /api/v1/reports/revenue", () => {
  test("each ticket's final cost once, by its site-local start day; net + VAT = gross", async () => {
    const s = setup();
    await seed(s);
    const r = await s.report("from=2026-06-15&to=2026-06-16");
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      from: "2026-06-15",
      to: "2026-06-16",
      group: ["day"],
      timezone: "Europe/Stockholm",
      data: [
        // A 9 000 (VAT 1 800) + B 1 000 at 12 % (VAT 107)
        { day: "2026-06-15", currency: "SEK", tickets: 2, net: 8_093, vat: 1_907, gross: 10_000 },
        { day: "2026-06-16", currency: "SEK", tickets: 1, net: 799, vat: 200, gross: 999 },
      ],
    });
    const byLotAndRate = await s.report("from=2026-06-15&to=2026-06-16&group=vat,lot");
    expect(byLotAndRate.json.group).toEqual(["lot", "vat"]);
    expect(byLotAndRate.json.data).toEqual([
      { parking_lot_id: 12, vat_rate: 12, currency: "SEK", tickets: 1, net: 893, vat: 107, gross: 1_000 },
      { parking_lot_id: 12, vat_rate: 25, currency: "SEK", tickets: 1, net: 799, vat: 200, gross: 999 },
      { parking_lot_id: 13, vat_rate: 25, currency: "SEK", tickets: 1, net: 7_200, vat: 1_800, gross: 9_000 },
    ]);
    expect((await s.report("from=2026-06-16&to=2026-06-16&group=zone")).json.data).toEqual([
      { zone: 1234, currency: "SEK", tickets: 1, net: 799, vat: 200, gross: 999 },
    ]);
  });

  test("the book kept by the intake equals one built afresh from the tickets; a new time zone rebuilds it", async () => {
    const s = setup();
    await seed(s);
    const kept = (await s.report("from=2026-06-01&to=2026-06-30&group=day,lot,zone,vat")).json.data;
    // Built under another zone and back: the book is made afresh from the tickets.
    s.ctx.store.reports.revenue.ensureBasis("UTC", "SEK", 0);
    s.ctx.store.reports.revenue.ensureBasis("Europe/Stockholm", "SEK", 0);
    expect((await s.report("from=2026-06-01&to=2026-06-30&group=day,lot,zone,vat")).json.data).toEqual(kept);
    // Under UTC, D (22:30 UTC) falls on the 15th.
    s.ctx.store.reports.revenue.ensureBasis("UTC", "SEK", 0);
    const utc = s.ctx.store.reports.revenue.days("2026-06-15", "2026-06-16");
    expect(new Set(utc.map((e) => e.day))).toEqual(new Set(["2026-06-15"]));
  });

  test("bad ranges are a 400 naming the parameter, and the report needs admin", async () => {
    const s = setup();
    expectProblem(await s.report("from=2026-06-16&to=2026-06-15"), 400, "validation");
    expectProblem(await s.report("from=2026-02-30&to=2026-03-01"), 400, "validation");
    expectProblem(await s.report("from=2025-01-01&to=2026-06-15"), 400, "validation");
    expectProblem(await s.report("from=2026-06-15&to=2026-06-15&group=month"), 400, "validation");
    expectProblem(await s.report("from=15.6.2026&to=2026-06-15"), 400, "validation");
    const writer = s.token("tickets:write");
    const r = await call(s.app, "GET", "/api/v1/reports/revenue?from=2026-06-15&to=2026-06-15", {
      token: writer,
    });
    expectProblem(r, 403, "insufficient-scope");
    expectProblem(
      await call(s.app, "GET", "/api/v1/reports/revenue?from=2026-06-15&to=2026-06-15"),
      401,
      "unauthorized",
    );
  });
});

describe("GET /api/v1/reports/revenue.csv", () => {
  test("Swedish spreadsheet form: BOM, semicolons, decimal commas, CRLF", async () => {
    const s = setup();
    await seed(s);
    const r = await call(
      s.app,
      "GET",
      "/api/v1/reports/revenue.csv?from=2026-06-15&to=2026-06-16&group=day,vat",
      {
        token: s.admin,
      },
    );
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toStartWith("text/csv");
    expect(r.headers.get("content-disposition")).toBe(
      'attachment; filename="revenue-2026-06-15-2026-06-16.csv"',
    );
    expect(r.text).toBe(
      "\uFEFFDag (Europe/Stockholm);Momssats %;Valuta;Biljetter;Netto;Moms;Brutto\r\n" +
        "2026-06-15;12;SEK;1;8,93;1,07;10,00\r\n" +
        "2026-06-15;25;SEK;1;72,00;18,00;90,00\r\n" +
        "2026-06-16;25;SEK;1;7,99;2,00;9,99\r\n" +
        // The spreadsheet form ends with its sums, per currency.
        "Summa;;SEK;3;88,92;21,07;109,99\r\n",
    );
  });

  test("plain RFC 4180: commas and decimal points, no BOM", async () => {
    const s = setup();
    await seed(s);
    const r = await call(
      s.app,
      "GET",
      "/api/v1/reports/revenue.csv?from=2026-06-15&to=2026-06-15&group=lot&variant=rfc4180",
      {
        token: s.admin,
      },
    );
    // Lots by name beside their id (these ids name no lot); no totals row unless asked for.
    expect(r.text).toBe(
      "parking_lot_id,lot_name,currency,tickets,net,vat,gross\r\n12,,SEK,1,8.93,1.07,10.00\r\n13,,SEK,1,72.00,18.00,90.00\r\n",
    );
    for (const [id, name] of [
      [12, "Hamnen"],
      [13, "=Torget"],
    ] as const)
      expect(
        (
          await call(s.app, "POST", "/api/v1/parkings", {
            token: s.admin,
            body: { id, name, zone_number: 1, parking_lot_fee: [] },
          })
        ).status,
      ).toBe(201);
    const named = await call(
      s.app,
      "GET",
      "/api/v1/reports/revenue.csv?from=2026-06-15&to=2026-06-15&group=lot&variant=rfc4180&totals=true",
      { token: s.admin },
    );
    expect(named.text).toBe(
      "parking_lot_id,lot_name,currency,tickets,net,vat,gross\r\n" +
        "12,Hamnen,SEK,1,8.93,1.07,10.00\r\n" +
        "13,'=Torget,SEK,1,72.00,18.00,90.00\r\n" +
        "total,,SEK,2,80.93,19.07,100.00\r\n",
    );
    const se = await call(
      s.app,
      "GET",
      "/api/v1/reports/revenue.csv?from=2026-06-15&to=2026-06-15&group=lot",
      {
        token: s.admin,
      },
    );
    expect(se.text.split("\r\n")).toEqual([
      "\uFEFFParkering;Parkeringens namn;Valuta;Biljetter;Netto;Moms;Brutto",
      "12;Hamnen;SEK;1;8,93;1,07;10,00",
      "13;'=Torget;SEK;1;72,00;18,00;90,00",
      "Summa;;SEK;2;80,93;19,07;100,00",
      "",
    ]);
    expectProblem(
      await call(s.app, "GET", "/api/v1/reports/revenue.csv?from=2026-06-15&to=2026-06-15&variant=xlsx", {
        token: s.admin,
      }),
      400,
      "validation",
    );
  });
});

describe("the CSV cannot carry a spreadsheet formula", () => {
  test("the intake refuses a currency code that is not three capital letters, and stores nothing", async () => {
    const s = setup();
    const writer = s.token("tickets:write");
    for (const code of ["=1+2", "+SEK", "@SUM(A1)", "sek", "SEKK", "SE", "S K"]) {
      const r = await call(s.app, "POST", "/api/v1/actions/tickets", {
        token: writer,
        body: ticket(`F-${code}`, cost(1_000, 25, code)),
      });
      const p = expectProblem(r, 400, "validation");
      expect(p.errors!.map((e) => e.pointer)).toEqual(["/ticketCost/currencyCode"]);
    }
    expect((await s.report("from=2026-06-15&to=2026-06-15")).json.data).toEqual([]);
  });

  test("text cells that a spreadsheet reads as a formula get a leading quote; numbers never do", () => {
    // Stored by an earlier version, which took any text of up to 8 characters as a currency; the
    // amounts negative, as a refund's would be (the rule counts them; they must stay numbers).
    const row = (currency: string) => ({
      day: "2026-06-15",
      currency,
      tickets: 1,
      net: -800,
      vat: -200,
      gross: -1000,
    });
    const csv = revenueCsv(
      ["=1+2", "+1", "-1", "@SUM", "\t=1", "\r=1", "SEK", "a=b"].map(row),
      ["day"],
      "rfc4180",
    );
    expect(csv.split("\r\n").slice(1, -1)).toEqual([
      "2026-06-15,'=1+2,1,-8.00,-2.00,-10.00",
      "2026-06-15,'+1,1,-8.00,-2.00,-10.00",
      "2026-06-15,'-1,1,-8.00,-2.00,-10.00",
      "2026-06-15,'@SUM,1,-8.00,-2.00,-10.00",
      "2026-06-15,'\t=1,1,-8.00,-2.00,-10.00",
      '2026-06-15,"\'\r=1",1,-8.00,-2.00,-10.00',
      "2026-06-15,SEK,1,-8.00,-2.00,-10.00",
      "2026-06-15,a=b,1,-8.00,-2.00,-10.00",
    ]);
    // A quoted field is neutralised inside its quotes.
    expect(revenueCsv([row("=1;2")], [], "se")).toContain(`"'=1;2"`);
  });
});
