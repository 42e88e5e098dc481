import { describe, expect, test } from "bun:test";
import { priceStay, type StepFee, type Tariff, type WindowFee } from "../../src/domain/tariff/engine.ts";
import { holidayCalendar } from "../../src/domain/tariff/holidays.ts";
import { parseInstant } from "../../src/domain/time/zoned.ts";

const TZ = "Europe/Stockholm";
const site = { timezone: TZ, isHoliday: holidayCalendar(["SE"]) };
/** Wall time in Stockholm → instant. */
const at = (wall: string) => parseInstant(wall, TZ)!;

let nextId = 1;
const fee = (
  type_of_day: number,
  start_time: string,
  end_time: string,
  cost_per_unit: number,
  round = true,
  unit = 1,
): WindowFee => ({ id: nextId++, type_of_day, start_time, end_time, cost_per_unit, round, unit });
const step = (
  type_of_day: number,
  from_minute: number,
  to_minute: number | null,
  cost_per_unit: number,
  unit = 1,
): StepFee => ({ id: nextId++, type_of_day, from_minute, to_minute, cost_per_unit, unit });
const tariff = (fees: WindowFee[], extra: Partial<Tariff> = {}): Tariff => ({
  parking_lot_fee: fees,
  variable_fees: [],
  max_fee: 0,
  max_time: 0,
  ...extra,
});

/**
 * The city lot used by most cases:
 *   weekdays 08-18: 20 kr per started hour; weekday nights 18-08: 5 kr per started hour;
 *   Saturdays 10-16: 10 kr/h pro rata per started minute; Sundays and holidays: free.
 */
const city = tariff([
  fee(1, "08:00:00", "18:00:00", 2000),
  fee(1, "18:00:00", "08:00:00", 500),
  fee(2, "10:00:00", "16:00:00", 1000, false),
]);

interface Case {
  name: string;
  tariff: Tariff;
  from: string;
  to: string;
  amount: number;
  /** [from, to, amount] of each breakdown line, wall time in Stockholm. */
  lines?: [string, string, number][];
  capped?: boolean;
}

const cases: Case[] = [
  {
    // Tue 22:30 → Wed 01:15 inside Tuesday's 18-08 night window, which runs past midnight:
    // 2 h 45 min → 3 started hours × 5 kr.
    name: "a stay across midnight",
    tariff: city,
    from: "2026-06-16T22:30",
    to: "2026-06-17T01:15",
    amount: 1500,
    lines: [["2026-06-16T22:30", "2026-06-17T01:15", 1500]],
  },
  {
    // Fri 17:30-18:00 day rate: 1 started hour = 20 kr. Fri 18:00 → Sat 08:00 Friday's night
    // window (a weekday window, it belongs to Friday): 14 h × 5 kr = 70 kr. Sat 08-10 no window:
    // free. Sat 10:00-11:30 pro rata: 90 min × 10 kr / 60 = 15 kr. Total 105 kr.
    name: "a stay across Friday → Saturday",
    tariff: city,
    from: "2026-06-12T17:30",
    to: "2026-06-13T11:30",
    amount: 10500,
    lines: [
      ["2026-06-12T17:30", "2026-06-12T18:00", 2000],
      ["2026-06-12T18:00", "2026-06-13T08:00", 7000],
      ["2026-06-13T08:00", "2026-06-13T10:00", 0],
      ["2026-06-13T10:00", "2026-06-13T11:30", 1500],
    ],
  },
  {
    // Midsummer Eve (Fri 19 June 2026) is a holiday, day type 3, which has no fees here.
    // Thursday's night window still runs until 08:00 Friday: 12 h × 5 kr = 60 kr; 08-12 free.
    // (On an ordinary Friday 08-12 would add 4 h × 20 kr.)
    name: "over a public holiday",
    tariff: city,
    from: "2026-06-18T20:00",
    to: "2026-06-19T12:00",
    amount: 6000,
    lines: [
      ["2026-06-18T20:00", "2026-06-19T08:00", 6000],
      ["2026-06-19T08:00", "2026-06-19T12:00", 0],
    ],
  },
  {
    // The same hours one week later, an ordinary Friday: 60 kr + 4 h × 20 kr = 140 kr.
    name: "the same stay on an ordinary Friday",
    tariff: city,
    from: "2026-06-25T20:00",
    to: "2026-06-26T12:00",
    amount: 14000,
  },
  {
    // round: true → 61 minutes are 2 started hours × 20 kr.
    name: "rounding on: whole started units",
    tariff: tariff([fee(1, "08:00:00", "18:00:00", 2000, true)]),
    from: "2026-06-15T09:00",
    to: "2026-06-15T10:01",
    amount: 4000,
  },
  {
    // round: false → 61 started minutes × 2000 / 60 = 2033.3 → 2033 öre.
    name: "rounding off: pro rata per started minute",
    tariff: tariff([fee(1, "08:00:00", "18:00:00", 2000, false)]),
    from: "2026-06-15T09:00",
    to: "2026-06-15T10:01",
    amount: 2033,
  },
  {
    // 30 seconds is one started minute: 2000 / 60 = 33.3 → 33 öre.
    name: "rounding off: a started minute counts",
    tariff: tariff([fee(1, "08:00:00", "18:00:00", 2000, false)]),
    from: "2026-06-15T09:00:00",
    to: "2026-06-15T09:00:30",
    amount: 33,
  },
  {
    // Weekday variable fees: first hour 10 kr/h, after that 25 kr per started hour. They take
    // precedence over the weekday window fee (99.99 kr/h), which is therefore ignored.
    // 10:00-11:00 first step: 10 kr; 11:00-12:30 second step: 2 started hours = 50 kr.
    name: "a variable-fee step",
    tariff: tariff([fee(1, "08:00:00", "18:00:00", 9999)], {
      variable_fees: [step(1, 0, 60, 1000), step(1, 60, null, 2500)],
    }),
    from: "2026-06-15T10:00",
    to: "2026-06-15T12:30",
    amount: 6000,
    lines: [
      ["2026-06-15T10:00", "2026-06-15T11:00", 1000],
      ["2026-06-15T11:00", "2026-06-15T12:30", 5000],
    ],
  },
  {
    // Variable fees on weekdays, a window on Saturday: Fri 23:00 → Sat 01:00. Friday 23-24 is the
    // first step (1 h × 10 kr); Saturday has no variable fees, so its own window applies:
    // 00:00-01:00 at 7 kr per started hour.
    name: "variable fees on one day type, windows on the next",
    tariff: tariff([fee(2, "00:00:00", "23:59:59", 700)], {
      variable_fees: [step(1, 0, 60, 1000), step(1, 60, null, 2500)],
    }),
    from: "2026-06-12T23:00",
    to: "2026-06-13T01:00",
    amount: 1700,
  },
  {
    // The Friday → Saturday stay costs 105 kr; max_fee caps one ticket at 50 kr.
    name: "the cap",
    tariff: { ...city, max_fee: 5000 },
    from: "2026-06-12T17:30",
    to: "2026-06-13T11:30",
    amount: 5000,
    capped: true,
  },
  {
    // Spring forward, Sun 29 March 2026: clocks go 02:00 → 03:00. Sat 23:00 CET (22:00 UTC) →
    // Sun 05:00 CEST (03:00 UTC) is 5 real hours, not 6. Saturday and Sunday both cost 6 kr/h
    // round up; the same price across midnight is one stretch: 5 h × 6 kr = 30 kr.
    name: "spring forward (2026-03-29)",
    tariff: tariff([fee(2, "00:00:00", "23:59:59", 600), fee(3, "00:00:00", "23:59:59", 600)]),
    from: "2026-03-28T23:00",
    to: "2026-03-29T05:00",
    amount: 3000,
    lines: [["2026-03-28T23:00", "2026-03-29T05:00", 3000]],
  },
  {
    // The window 01:00-03:00 on the spring-forward day lasts one real hour (01:00 CET is 00:00
    // UTC, 03:00 CEST is 01:00 UTC): pro rata 60 min × 12 kr/h = 12 kr.
    name: "spring forward: a window across the gap is shorter",
    tariff: tariff([fee(3, "01:00:00", "03:00:00", 1200, false)]),
    from: "2026-03-29T00:00",
    to: "2026-03-29T06:00",
    amount: 1200,
  },
  {
    // A window edge the clock skips is the jump itself: 02:30-04:00 on the spring-forward day
    // starts when 02:00 CET becomes 03:00 CEST, so it lasts one real hour: 60 min × 12 kr/h.
    name: "spring forward: a window starting inside the gap starts at the jump",
    tariff: tariff([fee(3, "02:30:00", "04:00:00", 1200, false)]),
    from: "2026-03-29T00:00",
    to: "2026-03-29T06:00",
    amount: 1200,
    lines: [
      ["2026-03-29T00:00", "2026-03-29T03:00", 0],
      ["2026-03-29T03:00", "2026-03-29T04:00", 1200],
      ["2026-03-29T04:00", "2026-03-29T06:00", 0],
    ],
  },
  {
    // A window wholly inside the skipped hour never happens on that day.
    name: "spring forward: a window inside the gap is empty",
    tariff: tariff([fee(3, "02:10:00", "02:50:00", 1200, true)]),
    from: "2026-03-29T00:00",
    to: "2026-03-29T06:00",
    amount: 0,
  },
  {
    // Fall back, Sun 25 October 2026: 03:00 CEST → 02:00 CET. 00:00 CEST (22:00 UTC Sat) →
    // 06:00 CET (05:00 UTC) is 7 real hours: 7 × 6 kr = 42 kr.
    name: "fall back (2026-10-25)",
    tariff: tariff([fee(3, "00:00:00", "23:59:59", 600)]),
    from: "2026-10-25T00:00",
    to: "2026-10-25T06:00",
    amount: 4200,
  },
  {
    // The window 01:00-04:00 on the fall-back day covers the repeated hour: 4 real hours
    // (23:00 UTC → 03:00 UTC), pro rata 240 min × 12 kr/h = 48 kr.
    name: "fall back: a window across the repeated hour is longer",
    tariff: tariff([fee(3, "01:00:00", "04:00:00", 1200, false)]),
    from: "2026-10-25T00:00",
    to: "2026-10-25T06:00",
    amount: 4800,
  },
  {
    // Weekday 08-12 and 13-18 at 10 kr per started hour, nothing 12-13. 11:45-12:00 → 1 h = 10 kr;
    // 12-13 free; 13:00-13:15 → 1 h = 10 kr.
    name: "a zero-fee gap",
    tariff: tariff([fee(1, "08:00:00", "12:00:00", 1000), fee(1, "13:00:00", "18:00:00", 1000)]),
    from: "2026-06-15T11:45",
    to: "2026-06-15T13:15",
    amount: 2000,
    lines: [
      ["2026-06-15T11:45", "2026-06-15T12:00", 1000],
      ["2026-06-15T12:00", "2026-06-15T13:00", 0],
      ["2026-06-15T13:00", "2026-06-15T13:15", 1000],
    ],
  },
  {
    // A day rate (unit 2) over all of every weekday: Mon 10:00 → Wed 09:00 is 47 h, one stretch
    // at one price → 2 started days × 150 kr.
    name: "unit day: started 24-hour periods",
    tariff: tariff([fee(1, "00:00:00", "23:59:59", 15000, true, 2)]),
    from: "2026-06-15T10:00",
    to: "2026-06-17T09:00",
    amount: 30000,
  },
  {
    // Weekday nights 22-06 at 3 kr/h and all of Saturday at 10 kr/h. Fri 23:00 → Sat 02:00: Friday
    // 23-24 is Friday's night (3 kr); after midnight Saturday's own window wins over the rest
    // of Friday's night: 2 h × 10 kr. Total 23 kr.
    name: "the next day's own window wins over last night's window",
    tariff: tariff([fee(1, "22:00:00", "06:00:00", 300), fee(2, "00:00:00", "23:59:59", 1000)]),
    from: "2026-06-12T23:00",
    to: "2026-06-13T02:00",
    amount: 2300,
  },
  {
    // start_time equal to end_time is a 24-hour window from that time: Monday 12:00 → Tuesday
    // 12:00 at 1 kr/h. Mon 20:00 → Tue 04:00 = 8 h.
    name: "a window whose end equals its start lasts 24 hours",
    tariff: tariff([fee(1, "12:00:00", "12:00:00", 100)]),
    from: "2026-06-15T20:00",
    to: "2026-06-16T04:00",
    amount: 800,
  },
  {
    // 24:00:00 and 23:59:59 both end a window at midnight: 22:00-24:00 at 2 kr/h, 23:00 → 01:00
    // pays 23-24 only (1 h); after midnight Tuesday has no window before 22:00.
    name: "24:00:00 and 23:59:59 both mean midnight",
    tariff: tariff([fee(1, "22:00:00", "24:00:00", 200)]),
    from: "2026-06-15T23:00",
    to: "2026-06-16T01:00",
    amount: 200,
    lines: [
      ["2026-06-15T23:00", "2026-06-16T00:00", 200],
      ["2026-06-16T00:00", "2026-06-16T01:00", 0],
    ],
  },
  {
    name: "no time parked costs nothing",
    tariff: city,
    from: "2026-06-15T10:00",
    to: "2026-06-15T10:00",
    amount: 0,
    lines: [],
  },
];

describe("tariff engine, worked by hand", () => {
  test.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const q = priceStay(c.tariff, at(c.from), at(c.to), site);
    expect(q.amount).toBe(c.amount);
    expect(q.capped_by_max_fee).toBe(c.capped ?? false);
    if (c.lines)
      expect(q.charges.map((l) => [l.from, l.to, l.amount])).toEqual(
        c.lines.map(([f, t, a]) => [at(f), at(t), a]),
      );
    // The breakdown covers the stay without gaps and adds up to the amount before the cap.
    let cursor = at(c.from);
    for (const l of q.charges) {
      expect(l.from).toBe(cursor);
      cursor = l.to;
    }
    if (q.charges.length) expect(cursor).toBe(at(c.to));
    expect(q.charges.reduce((s, l) => s + l.amount, 0)).toBe(q.amount_before_cap);
  });

  test("the cap reports the amount before it", () => {
    const q = priceStay({ ...city, max_fee: 5000 }, at("2026-06-12T17:30"), at("2026-06-13T11:30"), site);
    expect(q.amount_before_cap).toBe(10500);
    const under = priceStay(
      { ...city, max_fee: 20000 },
      at("2026-06-12T17:30"),
      at("2026-06-13T11:30"),
      site,
    );
    expect(under).toMatchObject({ amount: 10500, capped_by_max_fee: false });
  });

  test("max_time flags a stay longer than it, and only then", () => {
    const lot = { ...city, max_time: 7200 };
    const start = at("2026-06-15T10:00");
    expect(priceStay(lot, start, start + 7_200_000, site).exceeds_max_time).toBe(false);
    expect(priceStay(lot, start, start + 7_200_001, site).exceeds_max_time).toBe(true);
    expect(priceStay(city, start, start + 100 * 86_400_000, site).exceeds_max_time).toBe(false);
  });

  test("the holiday list is the site's: without it Midsummer Eve is a Friday", () => {
    const plain = { timezone: TZ, isHoliday: holidayCalendar([]) };
    const q = priceStay(city, at("2026-06-19T08:00"), at("2026-06-19T12:00"), plain);
    expect(q.amount).toBe(8000);
    const local = { timezone: TZ, isHoliday: holidayCalendar(["2026-06-15"]) };
    expect(priceStay(city, at("2026-06-15T08:00"), at("2026-06-15T12:00"), local).amount).toBe(0);
  });

  test("breakdown lines name the fee, day type and units", () => {
    const q = priceStay(city, at("2026-06-12T17:30"), at("2026-06-13T11:30"), site);
    expect(q.charges[0]).toMatchObject({
      source: "fee",
      fee_ids: [city.parking_lot_fee[0]!.id],
      type_of_day: 1,
    });
    expect(q.charges[0]).toMatchObject({ minutes: 30, units: 1 });
    expect(q.charges[2]).toMatchObject({ source: "free", fee_ids: [], type_of_day: null, amount: 0 });
    expect(q.charges[3]).toMatchObject({ type_of_day: 2, minutes: 90, units: 1.5 });
  });
});
