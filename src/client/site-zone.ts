/**
 * The site's time zone, as the session says it (the box's --timezone): every time the pages
 * show, and every time typed into them, is the site's, so that an operator at the office in
 * another zone reads and types what the attendants, the CSVs and the box mean. Until a session
 * has said it (the sign-in page, a page opened offline from an older box's session), the
 * browser's own zone.
 */
import { isTimeZone, parseInstant, toWallTime, type WallTime } from "../domain/time/zoned.ts";

let zone: string | undefined;

export function setSiteZone(tz: string | undefined): void {
  zone = tz !== undefined && isTimeZone(tz) ? tz : undefined;
}

/** For Intl's `timeZone` option: the site's, or undefined (the browser's). */
export function siteZone(): string | undefined {
  return zone;
}

/** The wall clock at `ms` where the site is. */
export function siteWallTime(ms: number): Pick<WallTime, "year" | "month" | "day" | "hour" | "minute"> {
  if (zone !== undefined) return toWallTime(ms, zone);
  const d = new Date(ms);
  return {
    year: d.getFullYear(),
    month: d.getMonth() + 1,
    day: d.getDate(),
    hour: d.getHours(),
    minute: d.getMinutes(),
  };
}

/** The site's day at `ms`, as the reports name days ("2026-06-15"). */
export function siteDay(ms: number): string {
  const w = siteWallTime(ms);
  return `${w.year}-${String(w.month).padStart(2, "0")}-${String(w.day).padStart(2, "0")}`;
}

/** A wall-clock time typed on the page ("2026-06-15T12:00", a datetime-local value) as an instant. */
export function siteInstant(value: string): number | null {
  if (zone === undefined) {
    const ms = new Date(value).getTime();
    return Number.isNaN(ms) ? null : ms;
  }
  return parseInstant(value, zone);
}
