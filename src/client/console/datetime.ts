/**
 * Between instants and `<input type=datetime-local>` values, which are wall time at the site
 * (site-zone.ts) to the minute, wherever the browser is.
 */
import { siteInstant, siteWallTime } from "../site-zone.ts";

const pad = (n: number) => String(n).padStart(2, "0");

/** An instant (a Date or ISO text) as a datetime-local value; "" for none. */
export function localValue(at: Date | string | null): string {
  if (at === null) return "";
  const w = siteWallTime((typeof at === "string" ? new Date(at) : at).getTime());
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/**
 * The stored instant when the field still shows it as it was filled: a form saved without
 * touching a time must not move it (the field keeps minutes only, and a wall time the clocks'
 * change repeats reads as its first).
 */
export function asShown(value: string, stored: string | null): string | undefined {
  return stored !== null && value === localValue(stored) ? stored : undefined;
}

/** A datetime-local value as an ISO instant for a query, or nothing when the field is empty. */
export function isoOf(value: string): string | undefined {
  const ms = value ? siteInstant(value) : null;
  return ms === null ? undefined : new Date(ms).toISOString();
}
