import { type PermitWindow, windowSpans } from "../../domain/permits/activity.ts";
import { type PermitFinding, verdict, type ZonedPermit } from "../../domain/permits/verdict.ts";
import { formatMicros } from "../../domain/time/zoned.ts";
import type { EnforcementContext } from "./index.ts";
import type { Verdict } from "./model.ts";

/** A ticket or an operator permit of the plate, with what the handheld shows of it. */
interface Behind extends ZonedPermit {
  kind: "ticket" | "permit";
  id: string;
  plate: string;
  ticketStatus: "running" | "stopped" | null;
  parkingLotId: number | null;
  lotName: string | null;
  note: string;
  days: PermitWindow[] | null;
}

const micros = (t: number | null) => (t === null ? null : formatMicros(t));

/**
 * The verdict for a plate in the attendant's zone: the plate's tickets and permits (those a
 * check-tickets by plate lists, and those still in grace), judged by src/domain/permits/verdict.ts.
 * Notes and states go out as fields, so a handheld words them in its own language.
 */
export function plateVerdict(
  ctx: Pick<EnforcementContext, "store" | "config" | "readModel">,
  plateNorm: string,
  zone: number,
  at: number,
): Verdict {
  const graceMs = ctx.config.graceMinutes * 60_000;
  const cutoff = at - Math.max(ctx.config.recentHours * 3_600_000, graceMs);
  const held = ctx.readModel.forPlate(plateNorm, at, cutoff);
  const behind: Behind[] = [];
  for (const t of held.tickets) {
    if (t.status === "canceled") continue;
    behind.push({
      kind: "ticket",
      id: t.ticketId,
      plate: t.plate,
      zone: t.zone,
      startAt: t.startAt,
      endAt: t.endAt ?? (t.status === "stopped" ? t.updatedAt : null),
      windows: null,
      ticketStatus: t.status === "stopped" ? "stopped" : "running",
      parkingLotId: t.parkingLotId,
      lotName: t.parkingLotId === null ? null : (ctx.store.lots.nameOf(t.parkingLotId) ?? null),
      note: "",
      days: null,
    });
  }
  for (const p of held.permits) {
    const days = p.days === null ? null : (JSON.parse(p.days) as PermitWindow[] | null);
    behind.push({
      kind: "permit",
      id: `${p.office ? "o" : ""}${p.id}`,
      plate: p.plate,
      zone: p.zone,
      startAt: p.startAt,
      endAt: p.endAt,
      windows: windowSpans(days),
      ticketStatus: null,
      parkingLotId: null,
      lotName: null,
      note: p.note,
      days: days && days.length > 0 ? days : null,
    });
  }
  // Latest start first, as check-tickets lists them.
  behind.sort((a, b) => b.startAt - a.startAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const v = verdict(behind, zone, at, ctx.config.timezone, graceMs);
  return {
    registration_number: plateNorm,
    zone,
    state: v.state,
    checked_at: formatMicros(at),
    valid_until: micros(v.validUntil),
    ended_at: micros(v.endedAt),
    next_opening: micros(v.nextOpening),
    zones: v.zones,
    grace_minutes: ctx.config.graceMinutes,
    permits: v.permits.map(finding),
  };
}

function finding(f: PermitFinding<Behind>): Verdict["permits"][number] {
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
    windows: p.days,
  };
}
