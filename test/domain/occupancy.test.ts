import { describe, expect, test } from "bun:test";
import { lotFill, occupancyCurves, type Stay } from "../../src/domain/reports/occupancy.ts";

const T0 = Date.parse("2026-06-15T08:00:00Z");
const MIN = 60_000;
const steps = { from: T0, step: 5 * MIN, count: 6 }; // 08:00, 08:05 … 08:25

const stay = (lot: number | null, zone: number, start: number, end: number | null): Stay => ({
  parkingLotId: lot,
  zone,
  startAt: T0 + start * MIN,
  endAt: end === null ? null : T0 + end * MIN,
});

describe("occupancyCurves: a stay counts at t when start <= t < end", () => {
  test("per lot, per zone, edges and open ends worked by hand", () => {
    const c = occupancyCurves(
      [
        stay(1, 10, -60, 10), // 07:00-08:10: counts at 08:00 and 08:05, not at 08:10
        stay(1, 10, 5, 5), // zero length: never
        stay(1, 10, 3, null), // open from 08:03: 08:05 on
        stay(2, 10, 12, 20), // 08:15 and (not) 08:20
        stay(null, 11, 24, 90), // no lot: zone 11 only, at 08:25
      ],
      [
        { zone: 10, startAt: T0 - 1000 * MIN, endAt: null, windows: null },
        { zone: 10, startAt: T0 + 20 * MIN, endAt: T0 + 21 * MIN, windows: null },
      ],
      steps,
      "Europe/Stockholm",
    );
    expect(c.lots.get(1)).toEqual([1, 2, 1, 1, 1, 1]);
    expect(c.lots.get(2)).toEqual([0, 0, 0, 1, 0, 0]);
    expect([...c.lots.keys()].sort()).toEqual([1, 2]);
    expect(c.zones.get(10)).toEqual({ tickets: [1, 2, 1, 2, 1, 1], permits: [1, 1, 1, 1, 2, 1] });
    expect(c.zones.get(11)).toEqual({ tickets: [0, 0, 0, 0, 0, 1], permits: [0, 0, 0, 0, 0, 0] });
    // Arrivals per step [t, t + 5 min): 08:03 and 08:05 (zero-length) and 08:12 and 08:24.
    expect(c.arrivals).toEqual([1, 1, 1, 0, 1, 0]);
  });

  test("a permit with weekly windows counts only inside them (site wall time)", () => {
    // Monday 15 June 2026, 10:00-10:10 local = 08:00-08:10 UTC.
    const c = occupancyCurves(
      [],
      [
        {
          zone: 7,
          startAt: 0,
          endAt: null,
          windows: [{ weekday: 1, start: 10 * 3600 + 5 * 60, end: 10 * 3600 + 15 * 60 }],
        },
      ],
      steps,
      "Europe/Stockholm",
    );
    expect(c.zones.get(7)?.permits).toEqual([0, 1, 1, 0, 0, 0]);
  });

  test("lotFill: free spaces and percent; over its spaces shows over 100 and none free", () => {
    expect(lotFill(40, 10)).toEqual({ free: 30, percent: 25 });
    expect(lotFill(3, 2)).toEqual({ free: 1, percent: 67 });
    expect(lotFill(10, 12)).toEqual({ free: 0, percent: 120 });
    expect(lotFill(0, 12)).toBeNull();
  });
});
