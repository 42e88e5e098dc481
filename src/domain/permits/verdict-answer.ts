/**
 * The attendant's verdict as the handheld reads it, made from a plate's holdings: one function
 * that the box runs for GET /api/v1/attendants/verdict and the phone runs on its saved zone list
 * when the box does not answer, so that offline and online answers cannot differ. Pure.
 */
import { normalizePlate } from "../plates.ts";
import { formatMicros } from "../time/zoned.ts";
import { type PermitWindow, type WindowSpan, windowSpans } from "./activity.ts";
import { isOverLimit, type Observation, observationAt, overLimitAt } from "./observations.ts";
import { type Judged, mayBeDue, type PatrolDue, type PatrolReason, patrolReason } from "./patrol.ts";
import { type PermitFinding, type PermitState, type Verdict, type VerdictState, verdict } from "./verdict.ts";

/** A ticket or an operator permit held by a plate, with what the handheld shows of it. */
export interface PlateHolding {
  kind: "ticket" | "permit";
  /** The ticket id, or the permit id (office permits: `o` and the office's id). */
  id: string;
  /** The plate as it was sent. */
  plate: string;
  zone: number;
  startAt: number;
  /** Where it stops counting: its end, a stopped ticket's stop; null: open-ended. */
  endAt: number | null;
  ticketStatus: "running" | "stopped" | null;
  parkingLotId: number | null;
  lotName: string | null;
  note: string;
  /** Weekly windows in the site time zone; null: at all hours. */
  days: PermitWindow[] | null;
}

/** The site's rules a verdict depends on besides the holdings and the clock. */
export interface VerdictRules {
  timezone: string;
  graceMinutes: number;
  recentHours: number;
}

export interface PermitFindingAnswer {
  kind: "ticket" | "permit";
  id: string;
  registration_number: string;
  zone: number;
  state: PermitState;
  start_at: string;
  end_at: string | null;
  valid_until: string | null;
  ended_at: string | null;
  next_opening: string | null;
  ticket_status: "running" | "stopped" | null;
  parking_lot_id: number | null;
  lot_name: string | null;
  note: string;
  windows: PermitWindow[] | null;
}

/**
 * What the verdict answers: the permits' verdict, or OVER TIME LIMIT for a car marked in this zone
 * today that has stood there longer than the zone's limit and holds nothing that lets it stand
 * here (a permit or ticket valid here, or in grace, wins over the limit).
 */
export type VerdictAnswerState = VerdictState | "over_time_limit";

/** The observation of the car in this zone today, as the handheld shows it. */
export interface ObservationAnswer {
  first_seen_at: string;
  limit_seconds: number;
  /** When it is (or was) past the limit. */
  over_limit_at: string;
  /** Whole seconds since it was first seen, at the instant judged. */
  seen_seconds_ago: number;
  note: string;
}

/** The verdict's JSON answer (the module's TypeBox `Verdict` describes the same shape). */
export interface VerdictAnswer {
  registration_number: string;
  zone: number;
  state: VerdictAnswerState;
  checked_at: string;
  valid_until: string | null;
  ended_at: string | null;
  next_opening: string | null;
  zones: number[];
  grace_minutes: number;
  permits: PermitFindingAnswer[];
  observation: ObservationAnswer | null;
  /** Why the car is on the zone's patrol list at the instant judged (patrol.ts); null: it is not. */
  patrol: { reason: PatrolReason; at: string | null } | null;
}

/**
 * How far back a verdict looks: what check-tickets lists (the recent hours) or, if longer, the
 * grace period. A holding that ended before this is not behind any verdict at `at`.
 */
export function verdictCutoff(at: number, rules: Pick<VerdictRules, "graceMinutes" | "recentHours">): number {
  return at - Math.max(rules.recentHours * 3_600_000, rules.graceMinutes * 60_000);
}

/** Counts at `at`: started, and not ended before the cutoff. */
export function behindVerdict(
  h: Pick<PlateHolding, "startAt" | "endAt">,
  at: number,
  cutoff: number,
): boolean {
  return h.startAt <= at && (h.endAt === null || h.endAt > cutoff);
}

interface WithWindows extends PlateHolding {
  windows: WindowSpan[] | null;
}

const micros = (t: number | null) => (t === null ? null : formatMicros(t));

/** The verdict's findings at `at`: what the answer and the patrol list are made from. */
function judge(
  holdings: readonly PlateHolding[],
  observations: readonly Observation[],
  zone: number,
  at: number,
  rules: VerdictRules,
): Judged & { verdict: Verdict<WithWindows> } {
  const cutoff = verdictCutoff(at, rules);
  const behind: WithWindows[] = [];
  for (const h of holdings)
    if (behindVerdict(h, at, cutoff)) behind.push({ ...h, windows: windowSpans(h.days) });
  // Latest start first, as check-tickets lists them.
  behind.sort((a, b) => b.startAt - a.startAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const v = verdict(behind, zone, at, rules.timezone, rules.graceMinutes * 60_000);
  const seen = observationAt(observations, zone, at, rules.timezone);
  const standsHere = v.state === "valid_here" || v.state === "grace";
  const over = seen !== null && !standsHere && isOverLimit(seen, at);
  return {
    state: over ? "over_time_limit" : v.state,
    validUntil: v.validUntil,
    nextOpening: v.nextOpening,
    seen,
    verdict: v,
  };
}

/**
 * The verdict for `plate` in `zone` at `at`, from the plate's holdings (any zone; those that do
 * not count at `at` are left out here, so a saved list taken earlier judges as the box would) and
 * its observations (the one made in this zone on the day of `at` counts).
 */
export function verdictAnswer(
  holdings: readonly PlateHolding[],
  observations: readonly Observation[],
  plate: string,
  zone: number,
  at: number,
  rules: VerdictRules,
): VerdictAnswer {
  const judged = judge(holdings, observations, zone, at, rules);
  const v = judged.verdict;
  const patrol = patrolReason(judged, holdings, zone, at, rules);
  return {
    registration_number: normalizePlate(plate),
    zone,
    state: judged.state,
    checked_at: formatMicros(at),
    valid_until: micros(v.validUntil),
    ended_at: micros(v.endedAt),
    next_opening: micros(v.nextOpening),
    zones: v.zones,
    grace_minutes: rules.graceMinutes,
    permits: v.permits.map(findingAnswer),
    observation: judged.seen === null ? null : observationAnswer(judged.seen, at),
    patrol: patrol === null ? null : { reason: patrol.reason, at: micros(patrol.at) },
  };
}

/**
 * The car's place on the zone's patrol list at `at`, as `verdictAnswer` gives it in `patrol`, but
 * judging only a car that can be on it (`mayBeDue`): what a phone runs over a zone's every plate.
 */
export function patrolDue(
  holdings: readonly PlateHolding[],
  observations: readonly Observation[],
  zone: number,
  at: number,
  rules: VerdictRules,
): PatrolDue | null {
  if (!mayBeDue(holdings, observations.length > 0, zone, at, rules)) return null;
  return patrolReason(judge(holdings, observations, zone, at, rules), holdings, zone, at, rules);
}

function observationAnswer(o: Observation, at: number): ObservationAnswer {
  return {
    first_seen_at: formatMicros(o.firstSeenAt),
    limit_seconds: o.limitSeconds,
    over_limit_at: formatMicros(overLimitAt(o)),
    seen_seconds_ago: Math.floor((at - o.firstSeenAt) / 1000),
    note: o.note,
  };
}

function findingAnswer(f: PermitFinding<WithWindows>): PermitFindingAnswer {
  const p = f.permit;
  return {
    kind: p.kind,
    id: p.id,
    registration_number: p.plate,
    zone: p.zone,
    state: f.state,
    start_at: formatMicros(p.startAt),
    end_at: micros(p.endAt),
    valid_until: micros(f.validUntil),
    ended_at: micros(f.endedAt),
    next_opening: micros(f.nextOpening),
    ticket_status: p.ticketStatus,
    parking_lot_id: p.parkingLotId,
    lot_name: p.lotName,
    note: p.note,
    windows: p.days && p.days.length > 0 ? p.days : null,
  };
}
