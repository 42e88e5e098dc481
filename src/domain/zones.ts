/**
 * Zones are ints in the interface; 32-bit is what clients can hold. One range everywhere: lot and
 * permit writes, ticket intake and the attendant lookups all take 0..ZONE_MAX and nothing else,
 * so a zone that can be stored can always be looked up.
 */
export const ZONE_MAX = 2_147_483_647;

/** Ids the service hands out (lots, permits, their parts) and so the largest parkingLotId that can name one. */
export const ID_MAX = 2_147_483_647;

const DIGITS = /^[0-9]{1,16}$/;

/**
 * The one way an integer is read: a JSON number that is a whole number, or, where the interface
 * says senders send them (intake's zoneCode/parkingLotId/amounts, check-tickets' zone, path and
 * query parameters), a string of ASCII digits. Never "0x10", "1e2", "+5", " 5" or "5.0".
 * Null when the value is not one, or is outside [min, max].
 */
export function readWholeNumber(
  value: unknown,
  min: number,
  max: number,
  digitStrings: boolean,
): number | null {
  const n =
    typeof value === "number"
      ? value
      : digitStrings && typeof value === "string" && DIGITS.test(value)
        ? Number(value)
        : Number.NaN;
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}

/**
 * A pattern for exactly the digit strings readWholeNumber takes up to `max` (1 to 16 ASCII
 * digits, leading zeros allowed), so a published schema refuses what the box refuses: a
 * `maximum` beside a string branch would limit only the integers.
 */
export function digitsUpTo(max: number): string {
  const m = String(max);
  const alternatives = m.length > 1 ? [`[0-9]{1,${m.length - 1}}`] : [];
  for (let i = 0; i < m.length; i++) {
    const d = Number(m[i]);
    const rest = m.length - i - 1;
    const tail = rest ? `[0-9]{${rest}}` : "";
    if (i === m.length - 1) alternatives.push(`${m.slice(0, i)}[0-${d}]`);
    else if (d > 0) alternatives.push(`${m.slice(0, i)}${d === 1 ? "0" : `[0-${d - 1}]`}${tail}`);
  }
  return `^(?=[0-9]{1,16}$)0*(?:${alternatives.join("|")})$`;
}

/** A zone as a string of digits, exactly as the service reads it. */
export const ZONE_DIGITS = digitsUpTo(ZONE_MAX);
/** An id as a string of digits, exactly as the service reads it. */
export const ID_DIGITS = digitsUpTo(ID_MAX);
