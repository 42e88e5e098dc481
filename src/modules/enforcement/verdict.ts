import type { PermitWindow } from "../../domain/permits/activity.ts";
import type { Observation } from "../../domain/permits/observations.ts";
import { PATROL_SOON_MS } from "../../domain/permits/patrol.ts";
import { type PlateHolding, verdictAnswer, verdictCutoff } from "../../domain/permits/verdict-answer.ts";
import { startOfDay } from "../../domain/time/zoned.ts";
import type { StoredObservation } from "../../platform/store/observations.ts";
import type { ListedPermit } from "../../platform/store/permits.ts";
import type { ListedTicket } from "../../platform/store/tickets/rows.ts";
import type { Verdict } from "./model.ts";
import type { EnforcementContext } from "./module-context.ts";

type HoldingContext = Pick<EnforcementContext, "store">;

/** A held ticket as the verdict reads it; null for a canceled one, which is behind nothing. */
export function ticketHolding(ctx: HoldingContext, t: ListedTicket): PlateHolding | null {
  if (t.status === "canceled") return null;
  return {
    kind: "ticket",
    id: t.ticketId,
    plate: t.plate,
    zone: t.zone,
    startAt: t.startAt,
    endAt: t.endAt ?? (t.status === "stopped" ? t.updatedAt : null),
    ticketStatus: t.status === "stopped" ? "stopped" : "running",
    parkingLotId: t.parkingLotId,
    lotName: t.parkingLotId === null ? null : (ctx.store.lots.nameOf(t.parkingLotId) ?? null),
    note: "",
    days: null,
  };
}

export function permitHolding(p: ListedPermit): PlateHolding {
  const days = p.days === null ? null : (JSON.parse(p.days) as PermitWindow[] | null);
  return {
    kind: "permit",
    id: `${p.office ? "o" : ""}${p.id}`,
    plate: p.plate,
    zone: p.zone,
    startAt: p.startAt,
    endAt: p.endAt,
    ticketStatus: null,
    parkingLotId: null,
    lotName: null,
    note: p.note,
    days: days && days.length > 0 ? days : null,
  };
}

/** The tickets and permits a plate holds between `cutoff` and `startedBy`, as the verdict reads them. */
export function plateHoldings(
  ctx: Pick<EnforcementContext, "store" | "readModel">,
  plateNorm: string,
  startedBy: number,
  cutoff: number,
): PlateHolding[] {
  const held = ctx.readModel.forPlate(plateNorm, startedBy, cutoff);
  const out: PlateHolding[] = [];
  for (const t of held.tickets) {
    const h = ticketHolding(ctx, t);
    if (h) out.push(h);
  }
  for (const p of held.permits) out.push(permitHolding(p));
  return out;
}

export function observationOf(o: StoredObservation): Observation {
  return {
    plateNorm: o.plateNorm,
    zone: o.zone,
    firstSeenAt: o.firstSeenAt,
    limitSeconds: o.limitSeconds,
    note: o.note,
  };
}

/** The plate's observation of the site-local day of `at` (in whichever zone), as the verdict reads it. */
export function plateObservations(
  ctx: Pick<EnforcementContext, "store" | "config">,
  plateNorm: string,
  at: number,
): Observation[] {
  const o = ctx.store.observations.ofCarOn(plateNorm, startOfDay(at, ctx.config.timezone));
  return o ? [observationOf(o)] : [];
}

/**
 * The verdict for a plate in the attendant's zone: the plate's tickets and permits (those a
 * check-tickets by plate lists, and those still in grace) and its observation today, judged by
 * the domain's verdictAnswer, the same function the handheld runs on its saved list. Notes and
 * states go out as fields, so a handheld words them in its own language.
 */
export function plateVerdict(
  ctx: Pick<EnforcementContext, "store" | "config" | "readModel">,
  plateNorm: string,
  zone: number,
  at: number,
): Verdict {
  // Holdings starting soon too: the verdict leaves them out, the patrol list reads a ticket that follows on.
  const holdings = plateHoldings(ctx, plateNorm, at + PATROL_SOON_MS, verdictCutoff(at, ctx.config));
  return verdictAnswer(holdings, plateObservations(ctx, plateNorm, at), plateNorm, zone, at, ctx.config);
}
