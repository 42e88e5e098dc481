import { type PlateHolding, verdictCutoff } from "../../domain/permits/verdict-answer.ts";
import { formatMicros, startOfDay } from "../../domain/time/zoned.ts";
import type { ZonePermits } from "./model.ts";
import type { EnforcementContext } from "./module-context.ts";
import { plateHoldings } from "./verdict.ts";

/**
 * How far ahead the saved list looks: a ticket bought for later this day starts counting on a
 * handheld that has lost the box, as it would online.
 */
export const SAVED_LIST_AHEAD_MS = 24 * 3_600_000;

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

/**
 * What a handheld keeps of a zone to judge its cars as the box would while the box does not
 * answer: every plate with a ticket or permit in the zone (ended within the verdict's cutoff,
 * running, or starting within a day) or marked in it this day, each such plate's holdings in
 * every zone, so that "valid in another zone", grace and weekly windows come out as online, and
 * the zone's marks of the day, so that OVER TIME LIMIT does. Only the zone's own plates: a
 * handheld never carries the site's whole register.
 */
export function zonePermits(
  ctx: Pick<EnforcementContext, "store" | "config" | "readModel">,
  zone: number,
  at: number,
): ZonePermits {
  const cutoff = verdictCutoff(at, ctx.config);
  // A mark elsewhere replaces the car's mark here (one a car and day), so the zone's marks are
  // all the marks of its plates the verdict here reads.
  const marked = ctx.store.observations.inZoneOn(zone, startOfDay(at, ctx.config.timezone));
  const plates = [
    ...new Set([...ctx.readModel.platesInZone(zone, cutoff, at), ...marked.map((o) => o.plateNorm)]),
  ].sort();
  const permits: ZonePermits["permits"] = [];
  for (const plateNorm of plates)
    for (const h of plateHoldings(ctx, plateNorm, at + SAVED_LIST_AHEAD_MS, cutoff))
      permits.push(permitEntry(h, plateNorm));
  return {
    zone,
    taken_at: formatMicros(at),
    timezone: ctx.config.timezone,
    grace_minutes: ctx.config.graceMinutes,
    recent_hours: ctx.config.recentHours,
    plates,
    permits,
    observations: marked.map((o) => ({
      registration_number: o.plate,
      plate_norm: o.plateNorm,
      zone: o.zone,
      first_seen_at: formatMicros(o.firstSeenAt),
      limit_seconds: o.limitSeconds,
      note: o.note,
    })),
  };
}
