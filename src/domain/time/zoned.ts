/**
 * Instants and wall-clock time in the site's time zone, with Intl only (no tz database of our
 * own). All instants are epoch milliseconds in UTC.
 */

export interface WallTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** ISO weekday: 1 = Monday ... 7 = Sunday. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      weekday: "short",
    });
    formatters.set(tz, f);
  }
  return f;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

export function isTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time at `instant` in `tz`, straight from Intl (slow: a few µs a call). */
export function intlWallTime(instant: number, tz: string): WallTime {
  const parts: Record<string, string> = {};
  for (const p of formatter(tz).formatToParts(new Date(instant))) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond: ((instant % 1000) + 1000) % 1000,
    weekday: WEEKDAYS[parts.weekday!]!,
  };
}

function intlOffset(instant: number, tz: string): number {
  const w = intlWallTime(instant, tz);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond) - instant;
}

/**
 * Offsets by quarter hour, per zone. A quarter whose first and last millisecond have the same
 * offset has it throughout (zones change offset at most once in far more than 15 minutes); a
 * quarter holding a change is marked and always asked of Intl. Pricing a stay asks for the wall
 * time at every window edge, and Intl made up most of a quote's cost.
 */
const QUARTER = 15 * 60_000;
const offsets = new Map<string, Map<number, number | null>>();

/** Offset of `tz` from UTC at `instant`, in milliseconds (Stockholm in summer: +7 200 000). */
export function offsetAt(instant: number, tz: string): number {
  let byQuarter = offsets.get(tz);
  if (!byQuarter) {
    byQuarter = new Map();
    offsets.set(tz, byQuarter);
  }
  const q = Math.floor(instant / QUARTER);
  let off = byQuarter.get(q);
  if (off === undefined) {
    const first = intlOffset(q * QUARTER, tz);
    off = first === intlOffset((q + 1) * QUARTER - 1, tz) ? first : null;
    if (byQuarter.size >= 200_000) byQuarter.clear();
    byQuarter.set(q, off);
  }
  return off ?? intlOffset(instant, tz);
}

/** The wall-clock time at `instant` in `tz`. */
export function toWallTime(instant: number, tz: string): WallTime {
  const d = new Date(instant + offsetAt(instant, tz));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
    weekday: ((d.getUTCDay() + 6) % 7) + 1,
  };
}

/**
 * The instant at which the wall clock in `tz` shows the given time. A time skipped by a
 * spring-forward change maps to the instant just after the gap (02:30 → 03:30 summer time);
 * a time that occurs twice at fall-back maps to its first occurrence.
 */
export function fromWallTime(
  tz: string,
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  millisecond = 0,
): number {
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  const before = offsetAt(local - 86_400_000, tz);
  const after = offsetAt(local + 86_400_000, tz);
  // Try the earlier offset first so that a repeated hour resolves to its first occurrence.
  const candidates = before >= after ? [before, after] : [after, before];
  for (const off of candidates) {
    const t = local - off;
    if (offsetAt(t, tz) === off) return t;
  }
  // In the gap: no instant shows this wall time; move forward by the size of the gap.
  return local - Math.min(before, after);
}

/** Midnight at the start of the wall-clock day that contains `instant`. */
export function startOfDay(instant: number, tz: string): number {
  const w = toWallTime(instant, tz);
  return fromWallTime(tz, w.year, w.month, w.day);
}

/** The next wall-clock day's start after the day containing `instant` (23, 24 or 25 hours later). */
export function startOfNextDay(instant: number, tz: string): number {
  const w = toWallTime(instant, tz);
  const next = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  return fromWallTime(tz, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate());
}

const DATE = String.raw`(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])`;
const TIME = String.raw`[Tt ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:[.,](\d{1,9}))?)?`;
const OFFSET = String.raw`\s*([Zz]|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)?`;
const ISO = new RegExp(`^${DATE}(?:${TIME})?${OFFSET}$`);

/**
 * The texts parseInstant reads, as JSON Schema patterns (ECMA-262, no flags), so that a published
 * schema takes what the box takes: a date-time (`INSTANT_PATTERN`: the ticket intake, where a
 * date alone is refused), or a date-time or a date (`INSTANT_OR_DATE_PATTERN`). Months, days,
 * hours, minutes, seconds and offsets are in their ranges; a day its month does not have
 * (2026-02-30) still matches and is refused by the reader.
 */
export const INSTANT_PATTERN = String.raw`^\s*${DATE}${TIME}${OFFSET}\s*$`;
export const INSTANT_OR_DATE_PATTERN = String.raw`^\s*${DATE}(?:${TIME})?${OFFSET}\s*$`;

/**
 * Reads an ISO 8601 date-time. With `Z` or a numeric offset it is that instant; without one it
 * is wall-clock time in `tz`. Returns null when the text is not such a date or names a day
 * that does not exist (2026-02-30). Instants are kept to the millisecond: fraction digits past
 * the third are cut (…:00.123456Z is …:00.123Z). A date alone is the start of that day in `tz`
 * unless `dateOnly` is false (the ticket intake: a ticket's start or end is a moment, and a date
 * read as midnight would silently end a ticket before it began).
 */
export function parseInstant(text: string, tz: string, opts: { dateOnly?: boolean } = {}): number | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  if (opts.dateOnly === false && m[4] === undefined) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const ms = Number(`${frac}000`.slice(0, 3));
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  if (!zone) return fromWallTime(tz, year, month, day, hour, minute, second, ms);
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  if (zone.toUpperCase() === "Z") return local;
  const sign = zone[0] === "-" ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  const oh = Number(digits.slice(0, 2));
  const om = Number(digits.slice(2) || "0");
  if (oh > 23 || om > 59) return null;
  return local - sign * (oh * 60 + om) * 60_000;
}

/** `2026-06-15T08:00:00.000000Z`: UTC with six fractional digits, as the interface shows. */
export function formatMicros(instant: number): string {
  // Answers list hundreds of instants; plain arithmetic is several times faster than
  // toISOString plus a regex. Years 0000-9999 only; anything else takes the general path.
  if (!Number.isInteger(instant) || instant < MIN_FAST || instant > MAX_FAST)
    return new Date(instant).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
  const days = Math.floor(instant / DAY_MS);
  let rest = instant - days * DAY_MS;
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  const milli = rest - second * 1000;
  return `${civilDate(days)}T${TWO[hour]}:${TWO[minute]}:${TWO[second]}.${THREE[milli]}000Z`;
}

const DAY_MS = 86_400_000;
/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z. */
const MIN_FAST = -62_167_219_200_000;
const MAX_FAST = 253_402_300_799_999;
const TWO = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, "0"));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, "0"));

/** Answers list many instants of the same few days; the memo is dropped when it grows large. */
const civilDates = new Map<number, string>();

function civilDate(days: number): string {
  let date = civilDates.get(days);
  if (date === undefined) {
    if (civilDates.size >= 4096) civilDates.clear();
    date = computeCivilDate(days);
    civilDates.set(days, date);
  }
  return date;
}

/** `YYYY-MM-DD` of a day counted from 1970-01-01 (proleptic Gregorian, H. Hinnant's civil_from_days). */
function computeCivilDate(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, "0")}-${TWO[month]}-${TWO[day]}`;
}

/** `HH:MM:SS` → seconds since midnight; null when malformed. 24:00:00 is allowed as end of day. */
export function parseTimeOfDay(text: string): number | null {
  const m = /^(\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return null;
  const [h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (h === 24 && mi === 0 && s === 0) return 86_400;
  if (h > 23 || mi > 59 || s > 59) return null;
  return h * 3600 + mi * 60 + s;
}
