/**
 * The tariff engine: what parking from `start` to `end` costs under a lot's fees. Pure (no I/O,
 * no clock); the rules are written down with worked examples in docs/fees.md.
 */
import { fromWallTime, offsetAt, toWallTime } from "../time/zoned.ts";
import { addDays, type CalendarDate, type HolidayCheck, weekdayOf } from "./holidays.ts";

export const UNIT_HOUR = 1;
export const UNIT_DAY = 2;
export const UNIT_WEEK = 3;
export const UNIT_MONTH = 4;

export const DAY_WEEKDAY = 1;
export const DAY_SATURDAY = 2;
export const DAY_SUNDAY_OR_HOLIDAY = 3;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A unit is elapsed time, not calendar time: a day is 24 hours even on a 23- or 25-hour day. */
export const UNIT_MS: Record<number, number> = {
  [UNIT_HOUR]: HOUR,
  [UNIT_DAY]: DAY,
  [UNIT_WEEK]: 7 * DAY,
  [UNIT_MONTH]: 30 * DAY,
};

/** A time-of-day fee (ParkingLotFee). */
export interface WindowFee {
  id: number;
  cost_per_unit: number;
  unit: number;
  start_time: string;
  end_time: string;
  type_of_day: number;
  round: boolean;
}

/** A price step by time already parked (VariableFee). */
export interface StepFee {
  id: number;
  type_of_day: number;
  from_minute: number;
  to_minute: number | null;
  cost_per_unit: number;
  unit: number;
}

export interface Tariff {
  parking_lot_fee: readonly WindowFee[];
  variable_fees: readonly StepFee[];
  /** Cents; 0 = no cap. */
  max_fee: number;
  /** Seconds; 0 = no limit. */
  max_time: number;
}

export interface Site {
  timezone: string;
  isHoliday: HolidayCheck;
}

export interface Pricing {
  cost_per_unit: number;
  unit: number;
  round: boolean;
}

/** One stretch of the stay charged one way. Consecutive stretches cover the stay without gaps. */
export interface Charge {
  from: number;
  to: number;
  source: "fee" | "variable_fee" | "free";
  /** ids of the ParkingLotFee or VariableFee records that priced this stretch. */
  fee_ids: number[];
  /** Day type of the day whose rule applied at `from` (null for a free stretch). */
  type_of_day: number | null;
  pricing: Pricing | null;
  /** Started minutes in the stretch. */
  minutes: number;
  /** Units charged (whole units when rounding, a fraction when pro rata); 0 when free. */
  units: number;
  amount: number;
}

export interface TariffQuote {
  amount: number;
  amount_before_cap: number;
  capped_by_max_fee: boolean;
  exceeds_max_time: boolean;
  charges: Charge[];
}

export function dayTypeOf(date: CalendarDate, isHoliday: HolidayCheck): number {
  const weekday = weekdayOf(date);
  if (weekday === 7 || isHoliday(date)) return DAY_SUNDAY_OR_HOLIDAY;
  return weekday === 6 ? DAY_SATURDAY : DAY_WEEKDAY;
}

/** "HH:MM:SS" → seconds of the day; "23:59:59" and "24:00:00" as an end mean the end of the day. */
export function secondsOfDay(text: string, isEnd: boolean): number {
  const [h, m, s] = text.split(":").map(Number) as [number, number, number];
  const secs = h * 3600 + m * 60 + s;
  return isEnd && secs >= 86_399 ? 86_400 : secs;
}

/** A stretch of time claimed by one rule, before it is clipped to the stay. */
interface Claim {
  from: number;
  to: number;
  type_of_day: number;
  fee?: WindowFee;
  /** Set for a day priced by variable fees. */
  steps?: readonly StepFee[];
}

interface Day {
  date: CalendarDate;
  begin: number;
  end: number;
}

/**
 * The instant a window edge (seconds of the day) falls on. An edge the clock skips at spring
 * forward (02:30 when 02:00 jumps to 03:00) is the jump itself: the window starts or ends when
 * the wall clock first shows a later time.
 */
function instantOn(tz: string, date: CalendarDate, secs: number): number {
  if (secs >= 86_400) {
    const next = addDays(date, 1);
    return fromWallTime(tz, next.year, next.month, next.day);
  }
  const hour = Math.floor(secs / 3600);
  const minute = Math.floor(secs / 60) % 60;
  const second = secs % 60;
  const t = fromWallTime(tz, date.year, date.month, date.day, hour, minute, second);
  const w = toWallTime(t, tz);
  if (w.day === date.day && w.hour === hour && w.minute === minute && w.second === second) return t;
  return clockChangeBefore(t, tz);
}

/** The instant of the last offset change before `t` (within six hours), to the millisecond. */
function clockChangeBefore(t: number, tz: string): number {
  const after = offsetAt(t, tz);
  let lo = t - 6 * HOUR;
  let hi = t;
  if (offsetAt(lo, tz) === after) return t;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(mid, tz) === after) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Removes the parts of `claims` covered by `cover` (both sorted and each free of overlaps). */
function subtract(claims: Claim[], cover: Claim[]): Claim[] {
  const out: Claim[] = [];
  for (const c of claims) {
    let from = c.from;
    for (const k of cover) {
      if (k.to <= from || k.from >= c.to) continue;
      if (k.from > from) out.push({ ...c, from, to: k.from });
      from = Math.max(from, k.to);
    }
    if (from < c.to) out.push({ ...c, from });
  }
  return out;
}

function groupByDayType<T extends { type_of_day: number }>(items: readonly T[]): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const it of items) {
    const list = m.get(it.type_of_day) ?? [];
    list.push(it);
    m.set(it.type_of_day, list);
  }
  return m;
}

/**
 * Every stretch of time between the start of the day before `start` and `end` that some rule
 * claims. A window belongs to the day it starts on; its part after midnight gives way to the
 * next day's own rules.
 */
function claimsFor(tariff: Tariff, start: number, end: number, site: Site): Claim[] {
  const tz = site.timezone;
  const fees = groupByDayType(tariff.parking_lot_fee);
  const steps = groupByDayType(tariff.variable_fees);
  const w = toWallTime(start, tz);
  let date = addDays({ year: w.year, month: w.month, day: w.day }, -1);
  let begin = fromWallTime(tz, date.year, date.month, date.day);
  const out: Claim[] = [];
  let tails: Claim[] = [];
  while (begin < end) {
    const next = addDays(date, 1);
    const day: Day = { date, begin, end: fromWallTime(tz, next.year, next.month, next.day) };
    const type = dayTypeOf(date, site.isHoliday);
    const own: Claim[] = [];
    const newTails: Claim[] = [];
    const daySteps = steps.get(type);
    if (daySteps?.length) own.push({ from: day.begin, to: day.end, type_of_day: type, steps: daySteps });
    else {
      for (const fee of fees.get(type) ?? []) {
        const s = secondsOfDay(fee.start_time, false);
        const e = secondsOfDay(fee.end_time, true);
        const from = instantOn(tz, date, s);
        // An end at or before the start runs into the next day (equal: 24 hours from the start).
        const to = e > s ? instantOn(tz, date, e) : instantOn(tz, next, e);
        if (Math.min(to, day.end) > from)
          own.push({ from, to: Math.min(to, day.end), type_of_day: type, fee });
        if (to > day.end) newTails.push({ from: Math.max(from, day.end), to, type_of_day: type, fee });
      }
    }
    own.sort((a, b) => a.from - b.from);
    out.push(...withoutOverlaps(own), ...subtract(tails, own));
    tails = withoutOverlaps(newTails.sort((a, b) => a.from - b.from));
    date = next;
    begin = day.end;
  }
  return withoutOverlaps(out.sort((a, b) => a.from - b.from));
}

/** Validation keeps windows apart; should two still overlap, the earlier one keeps the overlap. */
function withoutOverlaps(sorted: Claim[]): Claim[] {
  const out: Claim[] = [];
  let reached = Number.NEGATIVE_INFINITY;
  for (const c of sorted) {
    const from = Math.max(c.from, reached);
    if (from >= c.to) continue;
    out.push(from === c.from ? c : { ...c, from });
    reached = c.to;
  }
  return out;
}

interface Stretch {
  from: number;
  to: number;
  source: Charge["source"];
  fee_id: number | null;
  type_of_day: number | null;
  pricing: Pricing | null;
}

/** Splits a day priced by variable fees into the steps by time parked since `start`. */
function stepStretches(claim: Claim, start: number): Stretch[] {
  const out: Stretch[] = [];
  const sorted = [...claim.steps!].sort((a, b) => a.from_minute - b.from_minute);
  for (const step of sorted) {
    const from = Math.max(claim.from, start + step.from_minute * MINUTE);
    const to = Math.min(claim.to, step.to_minute === null ? Infinity : start + step.to_minute * MINUTE);
    if (to <= from) continue;
    out.push({
      from,
      to,
      source: "variable_fee",
      fee_id: step.id,
      type_of_day: claim.type_of_day,
      // Steps have no rounding flag of their own: a step charges whole started units.
      pricing: { cost_per_unit: step.cost_per_unit, unit: step.unit, round: true },
    });
  }
  return out;
}

function feePricing(fee: WindowFee): Pricing {
  return { cost_per_unit: fee.cost_per_unit, unit: fee.unit, round: fee.round };
}

function samePricing(a: Pricing | null, b: Pricing | null): boolean {
  if (a === null || b === null) return a === b;
  return a.cost_per_unit === b.cost_per_unit && a.unit === b.unit && a.round === b.round;
}

export function chargeFor(
  pricing: Pricing | null,
  ms: number,
): { minutes: number; units: number; amount: number } {
  const minutes = Math.ceil(ms / MINUTE);
  if (pricing === null || ms <= 0) return { minutes, units: 0, amount: 0 };
  const unitMs = UNIT_MS[pricing.unit] ?? HOUR;
  if (pricing.round) {
    const units = Math.ceil(ms / unitMs);
    return { minutes, units, amount: units * pricing.cost_per_unit };
  }
  const units = (minutes * MINUTE) / unitMs;
  return { minutes, units, amount: Math.round(units * pricing.cost_per_unit) };
}

/** The price of parking from `start` to `end` (epoch ms, end >= start) under `tariff`. */
export function priceStay(tariff: Tariff, start: number, end: number, site: Site): TariffQuote {
  const stretches: Stretch[] = [];
  let at = start;
  /** Time up to `to` that no rule claimed is free. */
  const freeUntil = (to: number) => {
    if (to <= at) return;
    stretches.push({ from: at, to, source: "free", fee_id: null, type_of_day: null, pricing: null });
    at = to;
  };
  if (end > start) {
    for (const claim of claimsFor(tariff, start, end, site)) {
      const from = Math.max(claim.from, start);
      const to = Math.min(claim.to, end);
      if (to <= from) continue;
      const parts: Stretch[] = claim.steps
        ? stepStretches({ ...claim, from, to }, start)
        : [
            {
              from,
              to,
              source: "fee",
              fee_id: claim.fee!.id,
              type_of_day: claim.type_of_day,
              pricing: feePricing(claim.fee!),
            },
          ];
      for (const p of parts) {
        freeUntil(p.from);
        stretches.push(p);
        at = p.to;
      }
      freeUntil(to);
    }
    freeUntil(end);
  }
  const charges = merge(stretches);
  const before = charges.reduce((sum, c) => sum + c.amount, 0);
  const capped = tariff.max_fee > 0 && before > tariff.max_fee;
  return {
    amount: capped ? tariff.max_fee : before,
    amount_before_cap: before,
    capped_by_max_fee: capped,
    exceeds_max_time: tariff.max_time > 0 && end - start > tariff.max_time * 1000,
    charges,
  };
}

/**
 * Joins back-to-back stretches priced alike, so a unit is not started twice when only the day
 * changes (a same-price night across midnight is one stretch and is rounded once).
 */
function merge(stretches: Stretch[]): Charge[] {
  const out: Charge[] = [];
  let cur: (Stretch & { fee_ids: number[] }) | null = null;
  const flush = () => {
    if (!cur) return;
    const { minutes, units, amount } = chargeFor(cur.pricing, cur.to - cur.from);
    out.push({
      from: cur.from,
      to: cur.to,
      source: cur.source,
      fee_ids: cur.fee_ids,
      type_of_day: cur.type_of_day,
      pricing: cur.pricing,
      minutes,
      units,
      amount,
    });
  };
  for (const s of stretches) {
    if (cur && cur.to === s.from && cur.source === s.source && samePricing(cur.pricing, s.pricing)) {
      cur.to = s.to;
      if (s.fee_id !== null && !cur.fee_ids.includes(s.fee_id)) cur.fee_ids.push(s.fee_id);
      continue;
    }
    flush();
    cur = { ...s, fee_ids: s.fee_id === null ? [] : [s.fee_id] };
  }
  flush();
  return out;
}
