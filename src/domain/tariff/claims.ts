import { fromWallTime, offsetAt, toWallTime } from "../time/zoned.ts";
import { addDays, type CalendarDate } from "./holidays.ts";
import {
  dayTypeOf,
  HOUR,
  type Site,
  type StepFee,
  secondsOfDay,
  type Tariff,
  type WindowFee,
} from "./model.ts";

/**
 * Which rule claims which stretch of a stay: fee windows and variable-fee days laid out on the
 * site's wall clock, day by day, across midnight and clock changes.
 */

/** A stretch of time claimed by one rule, before it is clipped to the stay. */
export interface Claim {
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
export function claimsFor(tariff: Tariff, start: number, end: number, site: Site): Claim[] {
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
