import { describe, expect, test } from "bun:test";
import { priceStay, type StepFee, type Tariff, type WindowFee } from "../../src/domain/tariff/engine.ts";
import { holidayCalendar } from "../../src/domain/tariff/holidays.ts";

/** mulberry32: a small seeded PRNG, so every run checks the same cases and a failure repeats. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]! };
}

const pad = (n: number) => String(n).padStart(2, "0");
const time = (secs: number) =>
  `${pad(Math.floor(secs / 3600))}:${pad(Math.floor(secs / 60) % 60)}:${pad(secs % 60)}`;

/** A random but valid tariff: per day type, non-overlapping windows (some overnight) or steps. */
function randomTariff(r: ReturnType<typeof prng>): Tariff {
  const fees: WindowFee[] = [];
  const steps: StepFee[] = [];
  let id = 1;
  for (const type of [1, 2, 3]) {
    if (r.next() < 0.25) {
      let from = 0;
      const n = r.int(1, 3);
      for (let i = 0; i < n; i++) {
        const last = i === n - 1;
        const to = last && r.next() < 0.6 ? null : from + r.int(15, 600);
        steps.push({
          id: id++,
          type_of_day: type,
          from_minute: from,
          to_minute: to,
          cost_per_unit: r.int(0, 5000),
          unit: r.int(1, 4),
        });
        if (to === null) break;
        from = to + (r.next() < 0.3 ? r.int(1, 120) : 0);
      }
      continue;
    }
    // Cut the day into up to 4 windows at sorted half-hour marks; the last may wrap past midnight.
    const marks = [...new Set(Array.from({ length: r.int(2, 8) }, () => r.int(0, 47) * 1800))].sort(
      (a, b) => a - b,
    );
    for (let i = 0; i + 1 < marks.length; i += 2) {
      const wraps = i + 2 >= marks.length && r.next() < 0.4;
      const end = wraps ? marks[0]! : marks[i + 1]!;
      if (wraps && i === 0) continue;
      fees.push({
        id: id++,
        type_of_day: type,
        start_time: time(marks[i]!),
        end_time: end === 0 && !wraps ? "23:59:59" : time(end),
        cost_per_unit: r.int(0, 4000),
        unit: r.pick([1, 1, 1, 2, 3, 4]),
        round: r.next() < 0.5,
      });
    }
  }
  return {
    parking_lot_fee: fees,
    variable_fees: steps,
    max_fee: r.next() < 0.5 ? r.int(1, 50_000) : 0,
    max_time: 0,
  };
}

const site = { timezone: "Europe/Stockholm", isHoliday: holidayCalendar(["SE"]) };
// Stays start between 2026-01-01 and 2027-01-01, so spring-forward and fall-back days come up.
const YEAR_START = Date.UTC(2026, 0, 1);

describe("tariff engine properties (random stays, fixed seed)", () => {
  const r = prng(20260329);
  const runs = Array.from({ length: 300 }, () => {
    const tariff = randomTariff(r);
    const start = YEAR_START + r.int(0, 365 * 24 * 60) * 60_000 + r.int(0, 59_999);
    const length = r.pick([r.int(0, 3 * 3600), r.int(0, 3 * 86_400), r.int(0, 20 * 86_400)]) * 1000;
    return { tariff, start, end: start + length, later: start + length + r.int(1, 2 * 86_400) * 1000 };
  });

  test("never negative, never above the cap, breakdown covers the stay", () => {
    for (const { tariff, start, end } of runs) {
      const q = priceStay(tariff, start, end, site);
      expect(q.amount).toBeGreaterThanOrEqual(0);
      if (tariff.max_fee > 0) expect(q.amount).toBeLessThanOrEqual(tariff.max_fee);
      expect(q.charges.reduce((s, c) => s + c.amount, 0)).toBe(q.amount_before_cap);
      let cursor = start;
      for (const c of q.charges) {
        expect(c.from).toBe(cursor);
        expect(c.to).toBeGreaterThan(c.from);
        cursor = c.to;
      }
      expect(cursor).toBe(end);
    }
  });

  test("never decreases when the end moves later", () => {
    for (const { tariff, start, end, later } of runs) {
      const a = priceStay(tariff, start, end, site);
      const b = priceStay(tariff, start, later, site);
      if (b.amount < a.amount)
        throw new Error(
          `amount fell from ${a.amount} to ${b.amount}: ${JSON.stringify({ tariff, start, end, later })}`,
        );
      expect(b.amount_before_cap).toBeGreaterThanOrEqual(a.amount_before_cap);
    }
  });

  test("never decreases minute by minute over the spring-forward and fall-back days", () => {
    const r2 = prng(7);
    for (let n = 0; n < 40; n++) {
      const tariff = randomTariff(r2);
      const night = n % 2 === 0 ? Date.UTC(2026, 2, 28, 20) : Date.UTC(2026, 9, 24, 20);
      const start = night + r2.int(0, 600) * 60_000;
      let last = 0;
      for (let m = 0; m <= 12 * 60; m += 7) {
        const q = priceStay(tariff, start, start + m * 60_000, site);
        expect(q.amount).toBeGreaterThanOrEqual(last);
        last = q.amount;
      }
    }
  });
});
