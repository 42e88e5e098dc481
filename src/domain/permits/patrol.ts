/**
 * What needs an attendant in a zone now: the rules that put a car on the patrol list, with its
 * reason and the instant the reason is about. Pure: the box puts a car's reason in its verdict,
 * the phone lists the zone's cars from its saved list, and both decide here.
 */

import { windowSpans } from "./activity.ts";
import { type Observation, overLimitAt } from "./observations.ts";
import { coveredUntil, type Span, validSpans } from "./spans.ts";
import {
  type PlateHolding,
  type VerdictAnswerState,
  type VerdictRules,
  verdictCutoff,
} from "./verdict-answer.ts";

/** A ticket ending, or a mark's limit passing, this soon is listed: the attendant is on the way. */
export const PATROL_SOON_MS = 10 * 60_000;
/** A car whose grace ended up to this long ago is listed: it may still be there, without a ticket. */
export const PATROL_PAST_MS = 30 * 60_000;

/**
 * Why a car is on the list, most urgent first:
 * - `over_limit`: marked here today, past the zone's limit, and nothing lets it stand here;
 * - `grace_over`: its ticket or permit here ended, and the grace after it, within PATROL_PAST_MS;
 * - `outside_hours`: it holds a permit for this zone, outside the permit's weekly hours;
 * - `in_grace`: its ticket or permit here ended, and the grace runs;
 * - `limit_soon`: marked here, and passes the limit within PATROL_SOON_MS with nothing valid here;
 * - `ending_soon`: valid here until an instant within PATROL_SOON_MS.
 */
export const PATROL_REASONS = [
  "over_limit",
  "grace_over",
  "outside_hours",
  "in_grace",
  "limit_soon",
  "ending_soon",
] as const;
export type PatrolReason = (typeof PATROL_REASONS)[number];

/** Rank by reason: a car that can be ticketed now, then one in breach of its hours, then what is coming. */
export const PATROL_URGENCY: Readonly<Record<PatrolReason, number>> = {
  over_limit: 0,
  grace_over: 0,
  outside_hours: 1,
  in_grace: 2,
  limit_soon: 3,
  ending_soon: 3,
};

export interface PatrolDue {
  reason: PatrolReason;
  /**
   * The instant the reason is about: over_limit and limit_soon, when the limit is (was) passed;
   * grace_over and in_grace, when the grace ends (ended); outside_hours, the next opening (null:
   * none before the permit ends); ending_soon, when it stops being valid here.
   */
  at: number | null;
}

/** What a verdict found that the patrol rules read. */
export interface Judged {
  state: VerdictAnswerState;
  /** valid_here: until when (null: open-ended); grace: when the grace ends. */
  validUntil: number | null;
  nextOpening: number | null;
  /** The mark in this zone on the day of the instant judged, if any. */
  seen: Observation | null;
}

/**
 * The car's place on the patrol list at `at`, from its verdict there, or null when nothing about
 * it needs the attendant. `holdings` are the plate's (any zone); only this zone's are read here.
 */
export function patrolReason(
  judged: Judged,
  holdings: readonly PlateHolding[],
  zone: number,
  at: number,
  rules: Pick<VerdictRules, "timezone" | "graceMinutes" | "recentHours">,
): PatrolDue | null {
  const soon = at + PATROL_SOON_MS;
  switch (judged.state) {
    case "over_time_limit":
      return { reason: "over_limit", at: overLimitAt(judged.seen!) };
    case "grace":
      return { reason: "in_grace", at: judged.validUntil };
    case "outside_hours":
      return { reason: "outside_hours", at: judged.nextOpening };
    case "valid_here": {
      if (judged.validUntil === null || judged.validUntil > soon) return null;
      // A ticket bought to follow on (starting by then) keeps the car valid: not ending.
      const until = coveredUntil(spansHere(holdings, zone, at, soon + 1, rules.timezone), at);
      return until !== null && until <= soon ? { reason: "ending_soon", at: until } : null;
    }
    case "valid_elsewhere":
      // Valid in another zone: it may have moved there; a mark over the limit here would say otherwise.
      return null;
    case "none": {
      const graceMs = rules.graceMinutes * 60_000;
      // Only what the box's verdict reads (it holds nothing that ended by the cutoff).
      const from = Math.max(at - graceMs - PATROL_PAST_MS, verdictCutoff(at, rules));
      const ended = lastValidHere(holdings, zone, from, at, rules.timezone);
      if (ended !== null && ended + graceMs > at - PATROL_PAST_MS && ended + graceMs <= at)
        return { reason: "grace_over", at: ended + graceMs };
      if (judged.seen !== null && overLimitAt(judged.seen) <= soon)
        return { reason: "limit_soon", at: overLimitAt(judged.seen) };
      return null;
    }
  }
}

/** The stretches of [from, to) in which this zone's holdings are valid (any number of them). */
function spansHere(
  holdings: readonly PlateHolding[],
  zone: number,
  from: number,
  to: number,
  timezone: string,
): Span[] {
  const spans: Span[] = [];
  for (const h of holdings)
    if (h.zone === zone)
      spans.push(
        ...validSpans(
          { startAt: h.startAt, endAt: h.endAt, windows: windowSpans(h.days) },
          from,
          to,
          timezone,
        ),
      );
  return spans;
}

/** The latest instant in [from, at] at which a holding for this zone stopped being valid; null: none. */
function lastValidHere(
  holdings: readonly PlateHolding[],
  zone: number,
  from: number,
  at: number,
  timezone: string,
): number | null {
  let last: number | null = null;
  // To just past `at`: a stretch still running at `at` ends past it, one that ended at `at` ends there.
  for (const s of spansHere(holdings, zone, from, at + 1, timezone))
    if (s.end <= at && (last === null || s.end > last)) last = s.end;
  return last;
}

/**
 * Whether a car can be on the list at `at` at all, in a few comparisons: marked here, a permit
 * here with weekly hours, or a holding here that ends between the oldest grace the list shows and
 * PATROL_SOON_MS ahead. Every reason above needs one of these (a stretch of validity here ends at
 * a holding's end or at a window's edge), so a zone of 20,000 cars judges only the few that do.
 */
export function mayBeDue(
  holdings: readonly PlateHolding[],
  marked: boolean,
  zone: number,
  at: number,
  rules: Pick<VerdictRules, "graceMinutes">,
): boolean {
  if (marked) return true;
  const from = at - rules.graceMinutes * 60_000 - PATROL_PAST_MS;
  const to = at + PATROL_SOON_MS;
  for (const h of holdings) {
    if (h.zone !== zone) continue;
    if (h.days && h.days.length > 0) return true;
    if (h.endAt !== null && h.endAt > from && h.endAt <= to) return true;
  }
  return false;
}

/** A car on the list, where it stands if known. */
export interface PatrolEntry extends PatrolDue {
  plate: string;
  /** Metres from the attendant to the car's lot; null: not known (no position, no map point). */
  distance: number | null;
}

/**
 * The list's order: by urgency; within it nearest first where the distance is known (those without
 * after), then by the instant (the longest overdue, or the soonest, first), then by plate.
 */
export function patrolOrder(a: PatrolEntry, b: PatrolEntry): number {
  const rank = PATROL_URGENCY[a.reason] - PATROL_URGENCY[b.reason];
  if (rank !== 0) return rank;
  if (a.distance !== b.distance) {
    if (a.distance === null) return 1;
    if (b.distance === null) return -1;
    return a.distance - b.distance;
  }
  const at = (e: PatrolEntry) => e.at ?? Number.POSITIVE_INFINITY;
  if (at(a) !== at(b)) return at(a) - at(b);
  return a.plate < b.plate ? -1 : a.plate > b.plate ? 1 : 0;
}
