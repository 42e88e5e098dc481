/**
 * Between instants and `<input type=datetime-local>` values, which are wall time in this
 * browser's zone (the site's, on site) to the minute.
 */
const pad = (n: number) => String(n).padStart(2, "0");

/** An instant (a Date or ISO text) as a datetime-local value; "" for none. */
export function localValue(at: Date | string | null): string {
  if (at === null) return "";
  const d = typeof at === "string" ? new Date(at) : at;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value as an ISO instant for a query, or nothing when the field is empty. */
export function isoOf(value: string): string | undefined {
  return value ? new Date(value).toISOString() : undefined;
}
