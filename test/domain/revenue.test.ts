import { describe, expect, test } from "bun:test";
import {
  groupRevenue,
  type RevenueEntry,
  type RevenueTicket,
  revenueChange,
  siteDay,
  ticketRevenue,
  vatPart,
} from "../../src/domain/reports/revenue.ts";
import {
  decide,
  type TicketEvent,
  type TicketFacts,
  type TicketState,
} from "../../src/domain/tickets/rules.ts";

const TZ = "Europe/Stockholm";

describe("vatPart: the VAT inside an amount incl. VAT, per ticket, half away from zero", () => {
  test.each([
    // gross, rate, VAT worked by hand
    [10_000, 25, 2_000], // 10000 × 25/125 = 2000 exactly
    [999, 25, 200], // 199.8
    [3, 25, 1], // 0.6
    [2, 25, 0], // 0.4
    [1_120, 12, 120], // 120 exactly
    [1_000, 12, 107], // 107.14
    [1_000, 6, 57], // 56.60
    [500, 0, 0],
    [5, 100, 3], // 2.5: half away from zero
    [-5, 100, -3], // a refund rounds the same way, mirrored
    [-999, 25, -200],
    [0, 25, 0],
  ])("%d öre at %d%% holds %d öre VAT", (gross, rate, vat) => {
    expect(vatPart(gross, rate)).toBe(vat);
  });
});

describe("siteDay: the ticket's start in the site's time zone", () => {
  test.each([
    ["2026-06-14T22:30:00Z", "2026-06-15"], // 00:30 summer time
    ["2026-03-28T23:30:00Z", "2026-03-29"], // 00:30 CET on the spring-forward day
    ["2026-03-29T21:59:59Z", "2026-03-29"], // 23:59:59 CEST: the 23-hour day's last second
    ["2026-03-29T22:00:00Z", "2026-03-30"],
    ["2026-10-24T22:30:00Z", "2026-10-25"], // 00:30 CEST on the fall-back day
    ["2026-10-25T22:30:00Z", "2026-10-25"], // 23:30 CET: the 25-hour day's last hour
    ["2026-10-25T23:00:00Z", "2026-10-26"],
  ])("%s is on %s", (instant, day) => {
    expect(siteDay(Date.parse(instant), TZ)).toBe(day);
  });
});

/** Runs events through the ticket rules, booking each write's revenue change (as the intake does). */
function replay(events: TicketEvent[]): RevenueEntry[] {
  const tickets = new Map<string, TicketState>();
  const booked: RevenueEntry[] = [];
  for (const e of events) {
    const before = tickets.get(e.ticketId) ?? null;
    const d = decide(before, e);
    let after: TicketState | null = before;
    if (d.kind === "reject") throw d.error;
    if (d.kind === "create") after = { ticketId: e.ticketId, status: "running", ...d.facts };
    if (d.kind === "replace") after = { ...before!, ...d.facts, status: d.status };
    if (d.kind === "move") after = { ...before!, plate: d.plate, plateNorm: d.plateNorm };
    if (d.kind === "cancel") after = { ...before!, status: "canceled" };
    if (after) tickets.set(e.ticketId, after);
    booked.push(...revenueChange(before, after, TZ, "SEK"));
  }
  // The same figures as the tickets' final states booked afresh: counted once, whatever the history.
  const fresh = [...tickets.values()].flatMap((t) => ticketRevenue(t, TZ, "SEK") ?? []);
  expect(groupRevenue(booked, ["day", "lot", "zone", "vat"])).toEqual(
    groupRevenue(fresh, ["day", "lot", "zone", "vat"]),
  );
  return booked;
}

const facts = (over: Partial<TicketFacts> = {}): TicketFacts => ({
  zone: 10,
  parkingLotId: 1,
  startAt: Date.parse("2026-06-15T08:00:00Z"),
  endAt: null,
  plate: "ABC123",
  plateNorm: "ABC123",
  amountInclVat: 4_000,
  vatRate: 25,
  currencyCode: "SEK",
  ...over,
});
const withFacts = (
  type: "TicketCreated" | "TicketUpdated" | "TicketStopped" | "CreateOrUpdate",
  id: string,
  f: TicketFacts,
) => ({ type, ticketId: id, facts: f }) as TicketEvent;

describe("revenue of a ticket's history: its final cost, counted once", () => {
  test("a ticket updated three times counts its last cost, in its last lot", () => {
    const booked = replay([
      withFacts("TicketCreated", "T1", facts()),
      withFacts("TicketUpdated", "T1", facts({ amountInclVat: 6_000 })),
      withFacts("TicketUpdated", "T1", facts({ amountInclVat: 8_000, parkingLotId: 2 })),
      withFacts("TicketStopped", "T1", facts({ amountInclVat: 9_000, parkingLotId: 2 })),
    ]);
    expect(groupRevenue(booked, ["day", "lot"])).toEqual([
      { day: "2026-06-15", lotId: 2, currency: "SEK", tickets: 1, net: 7_200, vat: 1_800, gross: 9_000 },
    ]);
  });

  test("create-or-update replaces the cost the same way", () => {
    const booked = replay([
      withFacts("CreateOrUpdate", "T2", facts({ amountInclVat: 1_250 })),
      withFacts("CreateOrUpdate", "T2", facts({ amountInclVat: 2_500 })),
    ]);
    expect(groupRevenue(booked, ["day"])).toEqual([
      { day: "2026-06-15", currency: "SEK", tickets: 1, net: 2_000, vat: 500, gross: 2_500 },
    ]);
  });

  test("a moved ticket (plate changed twice) still counts once", () => {
    const booked = replay([
      withFacts("TicketCreated", "T3", facts({ amountInclVat: 3_000 })),
      {
        type: "TicketMoved",
        ticketId: "T3",
        from: "ABC123",
        fromNorm: "ABC123",
        to: "XYZ789",
        toNorm: "XYZ789",
      },
      {
        type: "TicketMoved",
        ticketId: "T3",
        from: "XYZ789",
        fromNorm: "XYZ789",
        to: "DEF456",
        toNorm: "DEF456",
      },
    ]);
    expect(groupRevenue(booked, ["lot"])).toEqual([
      { lotId: 1, currency: "SEK", tickets: 1, net: 2_400, vat: 600, gross: 3_000 },
    ]);
  });

  test("a canceled ticket counts zero, beside one that stays", () => {
    const booked = replay([
      withFacts("TicketCreated", "T4", facts({ amountInclVat: 5_000 })),
      withFacts("TicketUpdated", "T4", facts({ amountInclVat: 7_000 })),
      { type: "TicketCanceled", ticketId: "T4" },
      withFacts("TicketCreated", "T5", facts({ amountInclVat: 1_000 })),
    ]);
    expect(groupRevenue(booked, ["day"])).toEqual([
      { day: "2026-06-15", currency: "SEK", tickets: 1, net: 800, vat: 200, gross: 1_000 },
    ]);
  });

  test("the fall-back day has 25 hours of starts; a fixed +02:00 would put the last on the next day", () => {
    const at = (iso: string, id: string, gross: number) =>
      withFacts("TicketCreated", id, facts({ startAt: Date.parse(iso), amountInclVat: gross }));
    const booked = replay([
      at("2026-10-24T21:59:00Z", "D0", 100), // 23:59 CEST on the 24th
      at("2026-10-24T22:30:00Z", "D1", 1_000), // 00:30 CEST on the 25th
      at("2026-10-25T00:30:00Z", "D2", 2_000), // 02:30 CEST, before the clocks go back
      at("2026-10-25T01:30:00Z", "D3", 3_000), // 02:30 CET, the hour again
      at("2026-10-25T22:59:00Z", "D4", 4_000), // 23:59 CET on the 25th
      at("2026-10-25T23:00:00Z", "D5", 500), // 00:00 on the 26th
    ]);
    expect(groupRevenue(booked, ["day"])).toEqual([
      { day: "2026-10-24", currency: "SEK", tickets: 1, net: 80, vat: 20, gross: 100 },
      { day: "2026-10-25", currency: "SEK", tickets: 4, net: 8_000, vat: 2_000, gross: 10_000 },
      { day: "2026-10-26", currency: "SEK", tickets: 1, net: 400, vat: 100, gross: 500 },
    ]);
  });

  test("mixed VAT rates and currencies stay apart; VAT is summed per ticket", () => {
    const booked = replay([
      withFacts("TicketCreated", "V1", facts({ amountInclVat: 999, vatRate: 25 })), // VAT 200
      withFacts("TicketCreated", "V2", facts({ amountInclVat: 999, vatRate: 25 })), // VAT 200, not 399.6 → 400 rounded once
      withFacts("TicketCreated", "V3", facts({ amountInclVat: 1_000, vatRate: 12 })), // 107
      withFacts("TicketCreated", "V4", facts({ amountInclVat: 1_000, vatRate: 6 })), // 57
      withFacts("TicketCreated", "V5", facts({ amountInclVat: 500, vatRate: 0 })),
      withFacts("TicketCreated", "V6", facts({ amountInclVat: 800, vatRate: 25, currencyCode: "EUR" })), // 160
      withFacts("TicketCreated", "V7", facts({ amountInclVat: 700, vatRate: null })), // no rate: VAT 0
      withFacts("TicketCreated", "V8", facts({ amountInclVat: null, vatRate: null, currencyCode: null })), // no cost
    ]);
    expect(groupRevenue(booked, ["vat"])).toEqual([
      { vatRate: null, currency: "SEK", tickets: 1, net: 700, vat: 0, gross: 700 },
      { vatRate: 0, currency: "SEK", tickets: 1, net: 500, vat: 0, gross: 500 },
      { vatRate: 6, currency: "SEK", tickets: 1, net: 943, vat: 57, gross: 1_000 },
      { vatRate: 12, currency: "SEK", tickets: 1, net: 893, vat: 107, gross: 1_000 },
      { vatRate: 25, currency: "EUR", tickets: 1, net: 640, vat: 160, gross: 800 },
      { vatRate: 25, currency: "SEK", tickets: 2, net: 1_598, vat: 400, gross: 1_998 },
    ]);
    // Grouped by day the same tickets add up to the sum of the rows above.
    expect(groupRevenue(booked, ["day"])).toEqual([
      { day: "2026-06-15", currency: "EUR", tickets: 1, net: 640, vat: 160, gross: 800 },
      { day: "2026-06-15", currency: "SEK", tickets: 6, net: 4_634, vat: 564, gross: 5_198 },
    ]);
  });

  test("a ticket without a currency is in the site's currency; a change of day moves its money", () => {
    const t: RevenueTicket = { ...facts({ currencyCode: null }), status: "running" };
    expect(ticketRevenue(t, TZ, "NOK")?.currency).toBe("NOK");
    const later = { ...t, startAt: t.startAt + 86_400_000 };
    expect(revenueChange(t, later, TZ, "SEK").map((e) => [e.day, e.tickets, e.gross])).toEqual([
      ["2026-06-15", -1, -4_000],
      ["2026-06-16", 1, 4_000],
    ]);
    expect(revenueChange(t, { ...t, plate: "X" } as RevenueTicket, TZ, "SEK")).toEqual([]);
  });
});
