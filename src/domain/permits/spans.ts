/**
 * When a permit is valid as stretches of time (instants), not only whether it is valid at one
 * instant: what "until when" and "next opening" are worked out from. Weekly windows are
 * wall-clock times in the site time zone, so their bounds are found as instants day by day, with
 * a daylight-saving change day's skipped or repeated hour taken as `isActive` takes it.
 */
import { fromWallTime, offsetAt, toWallTime } from "../time/zoned.ts";
import { inPeriod, insideWindows, type PermitPeriod, type WindowSpan } from "./activity.ts";

/** [start, end) in epoch milliseconds; end may be +Infinity (open-ended). */
export interface Span {
  start: number;
  end: number;
}

const DAY_MS = 86_400_000;
const DAY_SECONDS = 86_400;

/** A civil date (no time zone) moved by whole days. */
function civil(
  y: number,
  m: number,
  d: number,
  plusDays = 0,
): { y: number; m: number; d: number; wd: number } {
  const t = new Date(Date.UTC(y, m - 1, d + plusDays));
  return {
    y: t.getUTCFullYear(),
    m: t.getUTCMonth() + 1,
    d: t.getUTCDate(),
    wd: ((t.getUTCDay() + 6) % 7) + 1,
  };
}

/**
 * Every instant at which the wall clock in `tz` shows `second` (seconds since midnight) on the
 * given date: one, or two on the night the clock is set back, or the instant just after the gap
 * when the clock skips it.
 */
function instantsOf(tz: string, date: { y: number; m: number; d: number }, second: number): number[] {
  const day = second >= DAY_SECONDS ? civil(date.y, date.m, date.d, 1) : date;
  const s = second % DAY_SECONDS;
  const h = Math.floor(s / 3600);
  const mi = Math.floor((s % 3600) / 60);
  const first = fromWallTime(tz, day.y, day.m, day.d, h, mi, s % 60);
  const out = [first];
  const setBack = offsetAt(first, tz) - offsetAt(first + DAY_MS, tz);
  if (setBack > 0) {
    const again = first + setBack;
    const w = toWallTime(again, tz);
    if (w.day === day.d && w.hour === h && w.minute === mi && w.second === s % 60) out.push(again);
  }
  return out;
}

/** The instant the zone's offset changes within [from, to), if it does (at most once a day). */
function offsetChange(tz: string, from: number, to: number): number | null {
  const before = offsetAt(from, tz);
  if (offsetAt(to, tz) === before) return null;
  let lo = from;
  let hi = to;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(mid, tz) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * Instants in (lo, hi) at which being inside the windows can change: every window bound on every
 * day the range touches (both times of a repeated wall time), and the offset changes themselves
 * (setting the clock back can re-enter a window that had closed).
 */
function changePoints(windows: readonly WindowSpan[], lo: number, hi: number, tz: string): number[] {
  const first = toWallTime(lo, tz);
  const last = toWallTime(hi, tz);
  const days = Math.round(
    (Date.UTC(last.year, last.month - 1, last.day) - Date.UTC(first.year, first.month - 1, first.day)) /
      DAY_MS,
  );
  const points: number[] = [];
  for (let i = -1; i <= days; i++) {
    const date = civil(first.year, first.month, first.day, i);
    const dayStart = fromWallTime(tz, date.y, date.m, date.d);
    const next = civil(date.y, date.m, date.d, 1);
    const change = offsetChange(tz, dayStart, fromWallTime(tz, next.y, next.m, next.d));
    if (change !== null) points.push(change);
    for (const w of windows) {
      if (w.weekday !== date.wd) continue;
      points.push(...instantsOf(tz, date, w.start));
      // An end at or before the start is on the next day; 24:00 is the next day's midnight.
      const end = w.end <= w.start ? w.end + DAY_SECONDS : w.end;
      points.push(...instantsOf(tz, date, end));
    }
  }
  return [...new Set(points.filter((t) => t > lo && t < hi))].sort((a, b) => a - b);
}

/**
 * The stretches of [from, to) in which the permit is valid (`isActive`), in order, adjacent ones
 * joined. `to` must be finite for a permit with windows.
 */
export function validSpans(p: PermitPeriod, from: number, to: number, tz: string): Span[] {
  if (p.canceled) return [];
  const lo = Math.max(from, p.startAt);
  const hi = Math.min(to, p.endAt ?? Number.POSITIVE_INFINITY);
  if (lo >= hi) return [];
  if (!p.windows || p.windows.length === 0) return [{ start: lo, end: hi }];
  if (!Number.isFinite(hi)) throw new RangeError("validSpans needs a finite end for a permit with windows");
  const edges = [lo, ...changePoints(p.windows, lo, hi, tz), hi];
  const spans: Span[] = [];
  for (let i = 0; i < edges.length - 1; i++) {
    const start = edges[i]!;
    if (!inPeriod(p, start) || !insideWindows(p.windows, toWallTime(start, tz))) continue;
    const prev = spans[spans.length - 1];
    if (prev && prev.end === start) prev.end = edges[i + 1]!;
    else spans.push({ start, end: edges[i + 1]! });
  }
  return spans;
}

/**
 * The end of the joined stretch that holds `now`, over spans of any number of permits (a ticket
 * until 14:00 and a permit from 13:00 to 18:00: valid until 18:00). null: none holds `now`.
 */
export function coveredUntil(spans: readonly Span[], now: number): number | null {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let until: number | null = null;
  for (const s of sorted) {
    if (until === null) {
      if (s.start <= now && now < s.end) until = s.end;
    } else if (s.start <= until && s.end > until) until = s.end;
  }
  if (until === null) return null;
  // A later span may reach back into the stretch only through one that sorted before it; join again.
  for (let changed = true; changed; ) {
    changed = false;
    for (const s of sorted)
      if (s.start <= until && s.end > until) {
        until = s.end;
        changed = true;
      }
  }
  return until;
}
