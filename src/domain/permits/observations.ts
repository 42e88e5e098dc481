/**
 * Timed observations ("chalking"): an attendant marks a car in a zone with a time limit, and a
 * later check of the car there says how long ago it was first seen and whether it is past the
 * limit. Pure: what a zone's limit is, which observation counts at an instant, and when it is over.
 */
import { startOfDay } from "../time/zoned.ts";

/** A car marked in a zone, as the verdict reads it. */
export interface Observation {
  /** The plate, normalized. */
  plateNorm: string;
  zone: number;
  /** When it was first seen in the zone this day (the mark's instant). */
  firstSeenAt: number;
  /** The zone's time limit when it was marked, in seconds. */
  limitSeconds: number;
  /** What the attendant noted (valve positions, a description). */
  note: string;
}

/** A lot as far as its zone's time limit goes. */
export interface TimedLot {
  zone_number: number;
  max_time: number;
  active: boolean;
}

/**
 * A zone's posted time limit in seconds: the shortest `max_time` of its active lots that have
 * one (a free zone with a posted limit is a lot without fees and with that `max_time`); null
 * when none has, and a car there cannot be marked.
 */
export function zoneTimeLimit(lots: readonly TimedLot[], zone: number): number | null {
  let limit: number | null = null;
  for (const lot of lots)
    if (lot.active && lot.zone_number === zone && lot.max_time > 0)
      limit = limit === null ? lot.max_time : Math.min(limit, lot.max_time);
  return limit;
}

/**
 * The observation behind a check of a car in `zone` at `at`: one made in this zone on the same
 * site-local day, not later than `at`. An observation counts its own day only, so a car seen
 * yesterday starts again today.
 */
export function observationAt(
  observations: readonly Observation[],
  zone: number,
  at: number,
  timezone: string,
): Observation | null {
  const day = startOfDay(at, timezone);
  let found: Observation | null = null;
  for (const o of observations)
    if (o.zone === zone && o.firstSeenAt <= at && startOfDay(o.firstSeenAt, timezone) === day)
      if (found === null || o.firstSeenAt < found.firstSeenAt) found = o;
  return found;
}

/** The instant a car first seen at `firstSeenAt` is past the limit: over once more time has passed than allowed. */
export function overLimitAt(o: Pick<Observation, "firstSeenAt" | "limitSeconds">): number {
  return o.firstSeenAt + o.limitSeconds * 1000;
}

/** Over the limit at `at`: strictly longer than the limit since it was first seen. */
export function isOverLimit(o: Pick<Observation, "firstSeenAt" | "limitSeconds">, at: number): boolean {
  return at > overLimitAt(o);
}

/**
 * How far ahead of the box's clock a phone's time of marking may be: a phone set a little fast
 * marks at the box's time instead. Further ahead is a wrong clock, refused: a car "first seen"
 * later than it was would be over its limit later than it is.
 */
export const MARK_AHEAD_MS = 2 * 60_000;

/**
 * When a mark made at `markedAt` by the phone's clock counts from, at the box's `now`: the time of
 * marking, or `now` for a time a little ahead (a mark is never first seen in the box's future).
 * A problem (as words for the field) when the time is too far ahead, or was before the site-local
 * day began: a mark counts its own day only, so one kept on the phone past midnight counts nothing.
 */
export function markTime(
  markedAt: number,
  now: number,
  timezone: string,
): { at: number; problem: null } | { at: null; problem: string } {
  if (markedAt > now + MARK_AHEAD_MS)
    return {
      at: null,
      problem: `marked_at is more than ${MARK_AHEAD_MS / 60_000} minutes later than the box's clock; check the phone's time`,
    };
  if (markedAt < startOfDay(now, timezone))
    return {
      at: null,
      problem: "marked_at is before today (site time) began: a mark counts on its own day only",
    };
  return { at: Math.min(markedAt, now), problem: null };
}
