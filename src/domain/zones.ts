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
