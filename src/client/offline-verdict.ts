/**
 * The verdict a handheld gives from its saved list while the box does not answer: the same
 * function the box runs (src/domain/permits/verdict-answer.ts), on the holdings and the marks the
 * box sent for the zone's plates, with the plate normalized by the box's own function.
 */
import type { Observation } from "../domain/permits/observations.ts";
import type { PlateHolding, VerdictAnswer } from "../domain/permits/verdict-answer.ts";
import { verdictAnswer } from "../domain/permits/verdict-answer.ts";
import { normalizePlate } from "../domain/plates.ts";
import type { ZonePermits } from "./api-types.ts";

/** The interface's instants ("…000000Z", microseconds) as milliseconds. */
function ms(s: string): number {
  return Date.parse(s.replace(/(\.\d{3})\d+Z$/, "$1Z"));
}

function holding(p: ZonePermits["permits"][number]): PlateHolding {
  return {
    kind: p.kind,
    id: p.id,
    plate: p.registration_number,
    zone: p.zone,
    startAt: ms(p.start_at),
    endAt: p.end_at === null ? null : ms(p.end_at),
    ticketStatus: p.ticket_status,
    parkingLotId: p.parking_lot_id,
    lotName: p.lot_name,
    note: p.note,
    days: p.windows,
  };
}

function observation(o: ZonePermits["observations"][number]): Observation {
  return {
    plateNorm: o.plate_norm,
    zone: o.zone,
    firstSeenAt: ms(o.first_seen_at),
    limitSeconds: o.limit_seconds,
    note: o.note,
  };
}

/** A saved list made ready to judge: each plate's holdings and marks by its normalized plate. */
export interface SavedZone {
  zone: number;
  takenAt: number;
  rules: { timezone: string; graceMinutes: number; recentHours: number };
  byPlate: Map<string, PlateHolding[]>;
  marks: Map<string, Observation[]>;
}

export function savedZone(list: ZonePermits): SavedZone {
  const byPlate = new Map<string, PlateHolding[]>(list.plates.map((p) => [p, []]));
  for (const p of list.permits) byPlate.get(p.plate_norm)?.push(holding(p));
  const marks = new Map<string, Observation[]>();
  // A list saved before marks were in it has none.
  for (const o of list.observations ?? [])
    marks.set(o.plate_norm, [...(marks.get(o.plate_norm) ?? []), observation(o)]);
  return {
    zone: list.zone,
    takenAt: ms(list.taken_at),
    rules: { timezone: list.timezone, graceMinutes: list.grace_minutes, recentHours: list.recent_hours },
    byPlate,
    marks,
  };
}

/**
 * The verdict for `plate` in the saved list's zone at `at`, as the box would give it on the data
 * it held when the list was taken; null when the plate is not among the zone's plates (the list
 * cannot tell whether it is valid elsewhere or nowhere).
 */
export function offlineVerdict(saved: SavedZone, plate: string, at: number): VerdictAnswer | null {
  const plateNorm = normalizePlate(plate);
  const holdings = saved.byPlate.get(plateNorm);
  if (!holdings) return null;
  return verdictAnswer(holdings, saved.marks.get(plateNorm) ?? [], plate, saved.zone, at, saved.rules);
}
