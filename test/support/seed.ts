import { eq } from "drizzle-orm";
import type { AppContext } from "../../src/context.ts";
import { normalizePlate } from "../../src/domain/plates.ts";
import { tickets } from "../../src/platform/store/schema/index.ts";

export interface SeedTicket {
  ticketId: string;
  plate: string;
  zone: number;
  /** ISO text or epoch ms. */
  start: string | number;
  /** null or absent: no end yet. */
  end?: string | number | null;
  status?: "running" | "stopped" | "canceled";
  parkingLotId?: number | null;
}

const ms = (v: string | number) => (typeof v === "number" ? v : Date.parse(v));

/**
 * Puts a ticket straight into the store, as ticket intake would leave it, so permit tests do not
 * depend on the intake code.
 */
export function seedTicket(ctx: AppContext, t: SeedTicket): void {
  const now = ctx.now();
  const status = t.status ?? "running";
  ctx.store.db
    .insert(tickets)
    .values({
      ticketId: t.ticketId,
      zone: t.zone,
      parkingLotId: t.parkingLotId ?? null,
      startAt: ms(t.start),
      endAt: t.end === undefined || t.end === null ? null : ms(t.end),
      plate: t.plate,
      plateNorm: normalizePlate(t.plate),
      status,
      createdAt: now,
      updatedAt: now,
      canceledAt: status === "canceled" ? now : null,
    })
    .run();
}

/** What a TicketMoved does to the row: the plate changes in place. */
export function moveTicket(ctx: AppContext, ticketId: string, toPlate: string): void {
  ctx.store.db
    .update(tickets)
    .set({ plate: toPlate, plateNorm: normalizePlate(toPlate), updatedAt: ctx.now() })
    .where(eq(tickets.ticketId, ticketId))
    .run();
}

/** What a TicketCanceled does to the row. */
export function cancelTicket(ctx: AppContext, ticketId: string): void {
  ctx.store.db
    .update(tickets)
    .set({ status: "canceled", canceledAt: ctx.now(), updatedAt: ctx.now() })
    .where(eq(tickets.ticketId, ticketId))
    .run();
}
