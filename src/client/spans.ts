/** Stretches of time in the attendant's words: pure, so that a test reads them without a page. */

/** "2 h 14 min", "2 h", "45 min": a stretch of whole minutes. */
export function span(seconds: number): string {
  const min = Math.floor(seconds / 60);
  const h = Math.floor(min / 60);
  if (h === 0) return `${min} min`;
  return min % 60 === 0 ? `${h} h` : `${h} h ${min % 60} min`;
}

/**
 * How long ago a car was first seen, against its zone's limit: whole minutes, as `span`, unless
 * that would read as at or under the limit while the car is over it; then with its seconds
 * ("2 min 16 s", limit 2 min). Rounded down to the limit, an overstay invites a dispute.
 */
export function seenAgo(seconds: number, limitSeconds: number): string {
  const whole = span(seconds);
  if (seconds <= limitSeconds || Math.floor(seconds / 60) * 60 > limitSeconds) return whole;
  return `${whole} ${Math.floor(seconds % 60)} s`;
}
