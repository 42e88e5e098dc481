import { PATROL_SOON_MS } from "../../domain/permits/patrol.ts";
import { type PlatePart, partText } from "../../domain/permits/saved-list-changes.ts";
import { type PlateHolding, verdictCutoff } from "../../domain/permits/verdict-answer.ts";
import { formatMicros, startOfDay } from "../../domain/time/zoned.ts";
import type { StoredObservation as Observation } from "../../platform/store/observations.ts";
import type { ZonePermits } from "./model.ts";
import type { EnforcementContext } from "./module-context.ts";
import { plateHoldings } from "./verdict.ts";

/**
 * How far ahead the saved list looks: a ticket bought for later this day starts counting on a
 * handheld that has lost the box, as it would online; and the patrol list, which reads a ticket
 * that follows on within PATROL_SOON_MS, reads it there a day later too.
 */
export const SAVED_LIST_AHEAD_MS = 24 * 3_600_000 + PATROL_SOON_MS;

const micros = (t: number | null) => (t === null ? null : formatMicros(t));

function permitEntry(h: PlateHolding, plateNorm: string): ZonePermits["permits"][number] {
  return {
    kind: h.kind,
    id: h.id,
    registration_number: h.plate,
    plate_norm: plateNorm,
    zone: h.zone,
    start_at: formatMicros(h.startAt),
    end_at: micros(h.endAt),
    ticket_status: h.ticketStatus,
    parking_lot_id: h.parkingLotId,
    lot_name: h.lotName,
    note: h.note,
    windows: h.days,
  };
}

/** One mark of the saved list. */
function observationEntry(o: Observation): ZonePermits["observations"][number] {
  return {
    registration_number: o.plate,
    plate_norm: o.plateNorm,
    zone: o.zone,
    first_seen_at: formatMicros(o.firstSeenAt),
    limit_seconds: o.limitSeconds,
    note: o.note,
  };
}

type Part = PlatePart<ZonePermits["permits"][number], ZonePermits["observations"][number]>;

/**
 * The zone's marks of `at`'s day by plate. A mark elsewhere replaces the car's mark here (one a
 * car and day), so these are all the marks of its plates the verdict here reads.
 */
function zoneMarks(
  ctx: Pick<EnforcementContext, "store" | "config">,
  zone: number,
  at: number,
): Map<string, Observation> {
  const marked = ctx.store.observations.inZoneOn(zone, startOfDay(at, ctx.config.timezone));
  return new Map(marked.map((o) => [o.plateNorm, o]));
}

/** A plate's part of the saved list at `at`: every ticket and permit it holds, and its mark here. */
function platePart(
  ctx: Pick<EnforcementContext, "store" | "readModel">,
  plateNorm: string,
  at: number,
  cutoff: number,
  mark: Observation | undefined,
): Part {
  return {
    permits: plateHoldings(ctx, plateNorm, at + SAVED_LIST_AHEAD_MS, cutoff).map((h) =>
      permitEntry(h, plateNorm),
    ),
    observation: mark ? observationEntry(mark) : null,
  };
}

/**
 * What a handheld keeps of a zone to judge its cars as the box would while the box does not
 * answer: every plate with a ticket or permit in the zone (ended within the verdict's cutoff,
 * running, or starting within a day) or marked in it this day, each such plate's holdings in
 * every zone, so that "valid in another zone", grace and weekly windows come out as online, and
 * the zone's marks of the day, so that OVER TIME LIMIT does. Only the zone's own plates: a
 * handheld never carries the site's whole register. Each plate's part has its digest, from which
 * the changes since an earlier version are told (saved-list-changes.ts); the marks are in plate
 * order, as a list kept by changes has them.
 */
export function zonePermits(
  ctx: Pick<EnforcementContext, "store" | "config" | "readModel">,
  zone: number,
  at: number,
): { list: ZonePermits; digests: Map<string, number> } {
  const cutoff = verdictCutoff(at, ctx.config);
  const marks = zoneMarks(ctx, zone, at);
  const plates = [...new Set([...ctx.readModel.platesInZone(zone, cutoff, at), ...marks.keys()])].sort();
  const permits: ZonePermits["permits"] = [];
  const observations: ZonePermits["observations"] = [];
  const digests = new Map<string, number>();
  for (const plateNorm of plates) {
    const part = platePart(ctx, plateNorm, at, cutoff, marks.get(plateNorm));
    permits.push(...part.permits);
    if (part.observation) observations.push(part.observation);
    digests.set(plateNorm, partDigest(part));
  }
  return {
    list: {
      zone,
      taken_at: formatMicros(at),
      timezone: ctx.config.timezone,
      grace_minutes: ctx.config.graceMinutes,
      recent_hours: ctx.config.recentHours,
      plates,
      permits,
      observations,
    },
    digests,
  };
}

/**
 * The parts of `plates` of the zone's saved list at `at`, as the list made at `at` has them: what
 * a change answer carries. Made again from the store, which has not changed since that list was
 * made (the read model keeps it only until a write), so each part's digest is checked against it.
 */
export function savedListParts(
  ctx: Pick<EnforcementContext, "store" | "config" | "readModel">,
  zone: number,
  at: number,
  plates: readonly string[],
): Part[] {
  const cutoff = verdictCutoff(at, ctx.config);
  const marks = zoneMarks(ctx, zone, at);
  return plates.map((plateNorm) => platePart(ctx, plateNorm, at, cutoff, marks.get(plateNorm)));
}

/** The digest a part is kept under. */
export function partDigest(part: Part): number {
  return Number(Bun.hash(partText(part)) & 0xffffffffffffn);
}
