import { type FieldError, invalid } from "../../domain/errors.ts";
import type { ParkingLot } from "../../domain/lots/lot.ts";
import { priceStay, type Site } from "../../domain/tariff/engine.ts";
import { formatMicros, INSTANT_OR_DATE_PATTERN, parseInstant } from "../../domain/time/zoned.ts";

/**
 * Longer stays than this are not quoted. The route is public and a quote's work grows with its
 * length (a 13-month quote held the event loop ~5 ms and answered 161 KB): a month is the longest
 * stay a visitor prices, and longer parking is a permit.
 */
export const MAX_QUOTE_DAYS = 31;
/** The hour the autumn clock change adds, so that a month from the 1st to the 1st is quoted. */
const MAX_QUOTE_MS = MAX_QUOTE_DAYS * 86_400_000 + 3_600_000;

function badQuery(errors: FieldError[]): never {
  const detail = errors.map((e) => `${e.pointer.slice(1)}: ${e.message}`).join("; ");
  throw invalid(errors, detail);
}

/** A time of day followed by a space and an offset's digits: where the offset's sign goes. */
const SPACE_FOR_PLUS_SOURCE = String.raw`^(\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?) (\d{2}(?::?\d{2})?)$`;
const SPACE_FOR_PLUS = new RegExp(SPACE_FOR_PLUS_SOURCE);
/** What a quote's start and end may be, as a JSON Schema pattern: what queryInstant reads. */
export const QUOTE_INSTANT_PATTERN = `(?:${INSTANT_OR_DATE_PATTERN})|(?:${String.raw`^\s*`}${SPACE_FOR_PLUS_SOURCE.slice(1, -1)}${String.raw`\s*$`})`;

/**
 * A query string decodes an unencoded `+` as a space, so `start=2026-06-15T10:00:00+01:00` typed
 * into a browser or curl arrives as `…10:00:00 01:00`. A space exactly where an offset's sign
 * goes can only have been a `+` (a `-` arrives as itself), so it is read as one.
 */
function queryInstant(text: string, timezone: string): number | null {
  const m = SPACE_FOR_PLUS.exec(text.trim());
  return parseInstant(m ? `${m[1]}+${m[2]}` : text, timezone);
}

/** The quote answer's `data` for parking on `lot` from `startText` to `endText`. */
export function quoteStay(lot: ParkingLot, startText: string, endText: string, site: Site, currency: string) {
  const start = queryInstant(startText, site.timezone);
  const end = queryInstant(endText, site.timezone);
  const errors: FieldError[] = [];
  const unreadable =
    "Expected an ISO 8601 date-time such as 2026-06-15T08:00:00+02:00 (in a query string, + may be written %2B)";
  if (start === null) errors.push({ pointer: "/start", message: unreadable, in: "query" });
  if (end === null) errors.push({ pointer: "/end", message: unreadable, in: "query" });
  if (start !== null && end !== null) {
    if (end < start) errors.push({ pointer: "/end", message: "Must not be before start", in: "query" });
    else if (end - start > MAX_QUOTE_MS)
      errors.push({
        pointer: "/end",
        message: `Must be within ${MAX_QUOTE_DAYS} days of start: longer stays are not quoted`,
        in: "query",
      });
  }
  if (errors.length) badQuery(errors);
  const q = priceStay(lot, start!, end!, site);
  return {
    amount_incl_vat: q.amount,
    currency_code: currency,
    capped_by_max_fee: q.capped_by_max_fee,
    exceeds_max_time: q.exceeds_max_time,
    amount_before_cap: q.amount_before_cap,
    start: formatMicros(start!),
    end: formatMicros(end!),
    breakdown: q.charges.map((c) => ({
      from: formatMicros(c.from),
      to: formatMicros(c.to),
      amount: c.amount,
      source: c.source,
      fee_ids: c.fee_ids,
      type_of_day: c.type_of_day,
      cost_per_unit: c.pricing?.cost_per_unit ?? null,
      unit: c.pricing?.unit ?? null,
      round: c.pricing?.round ?? null,
      minutes: c.minutes,
      units: c.units,
    })),
  };
}
