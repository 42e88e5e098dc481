/**
 * Public holidays, which count as day type 3 (like Sundays). Pure: the calendar is built from
 * the configured entries and answers per date without any I/O.
 */

export interface CalendarDate {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
}

/** The configuration word for "Swedish public holidays of every year" in a holiday list. */
export const SWEDISH_HOLIDAYS = "SE";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function dateKey(d: CalendarDate): string {
  return `${String(d.year).padStart(4, "0")}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
}

/** `days` after `d` on the calendar (negative: before). */
export function addDays(d: CalendarDate, days: number): CalendarDate {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** ISO weekday of a calendar date: 1 = Monday ... 7 = Sunday. */
export function weekdayOf(d: CalendarDate): number {
  const w = new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
  return w === 0 ? 7 : w;
}

/** Easter Sunday in the Gregorian calendar (the anonymous Meeus/Jones/Butcher algorithm). */
export function easterSunday(year: number): CalendarDate {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return { year, month, day };
}

/** The first date on or after `from` that falls on ISO `weekday`. */
function firstWeekdayFrom(from: CalendarDate, weekday: number): CalendarDate {
  return addDays(from, (weekday - weekdayOf(from) + 7) % 7);
}

/**
 * Swedish public holidays ("röda dagar") of a year, plus the eves that shops and car parks treat
 * as holidays (Midsummer Eve, Christmas Eve, New Year's Eve). Sorted, as YYYY-MM-DD.
 */
export function swedishPublicHolidays(year: number): string[] {
  const easter = easterSunday(year);
  const on = (month: number, day: number): CalendarDate => ({ year, month, day });
  const days: CalendarDate[] = [
    on(1, 1), // New Year's Day
    on(1, 6), // Epiphany
    addDays(easter, -2), // Good Friday
    easter, // Easter Sunday
    addDays(easter, 1), // Easter Monday
    on(5, 1), // May Day
    addDays(easter, 39), // Ascension Day
    addDays(easter, 49), // Whitsunday (Pentecost)
    on(6, 6), // National Day
    firstWeekdayFrom(on(6, 19), 5), // Midsummer Eve: the Friday in 19-25 June
    firstWeekdayFrom(on(6, 20), 6), // Midsummer Day: the Saturday in 20-26 June
    firstWeekdayFrom(on(10, 31), 6), // All Saints' Day: the Saturday in 31 Oct - 6 Nov
    on(12, 24), // Christmas Eve
    on(12, 25), // Christmas Day
    on(12, 26), // Boxing Day
    on(12, 31), // New Year's Eve
  ];
  return days.map(dateKey).sort();
}

/** Why a holiday list entry is not usable, or null when it is. */
export function holidayEntryProblem(entry: unknown): string | null {
  if (entry === SWEDISH_HOLIDAYS) return null;
  if (typeof entry !== "string") return `${JSON.stringify(entry)} is not a string`;
  const m = DATE.exec(entry);
  if (!m) return `"${entry}" is neither a date YYYY-MM-DD nor "${SWEDISH_HOLIDAYS}"`;
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  const probe = addDays(d, 0);
  if (dateKey(probe) !== entry) return `"${entry}" is not a date in the calendar`;
  return null;
}

export type HolidayCheck = (date: CalendarDate) => boolean;

/**
 * A holiday check from configured entries: dates `YYYY-MM-DD`, and the word "SE" for the
 * Swedish public holidays of every year. Entries must have passed `holidayEntryProblem`.
 */
export function holidayCalendar(entries: readonly string[]): HolidayCheck {
  const fixed = new Set(entries.filter((e) => e !== SWEDISH_HOLIDAYS));
  const swedish = entries.includes(SWEDISH_HOLIDAYS);
  const byYear = new Map<number, Set<string>>();
  return (date) => {
    const key = dateKey(date);
    if (fixed.has(key)) return true;
    if (!swedish) return false;
    let year = byYear.get(date.year);
    if (!year) {
      year = new Set(swedishPublicHolidays(date.year));
      byYear.set(date.year, year);
    }
    return year.has(key);
  };
}
