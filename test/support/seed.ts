import { Database } from "bun:sqlite";
import type { AppContext } from "../../src/context.ts";
import { normalizePlate } from "../../src/domain/plates.ts";
import type { TicketRow } from "../../src/platform/store/tickets/rows.ts";

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

/**
 * A ticket row as the intake writes it, for tests that write through the repository: no lot, no
 * money, running, the plate its own normalized form, unless given.
 */
export function ticketRow(
  t: Pick<TicketRow, "ticketId" | "zone" | "startAt" | "endAt" | "plate" | "at"> & Partial<TicketRow>,
): TicketRow {
  return {
    parkingLotId: null,
    lotUnknown: false,
    plateNorm: t.plate,
    amountInclVat: null,
    vatRate: null,
    currencyCode: null,
    status: "running",
    ...t,
  };
}

const ms = (v: string | number) => (typeof v === "number" ? v : Date.parse(v));

/**
 * Puts a ticket into the store through its repository, as ticket intake would leave it, so permit
 * tests do not depend on the intake code (and the lookups' read model hears of it, as of any write).
 */
export function seedTicket(ctx: AppContext, t: SeedTicket): void {
  const now = ctx.now();
  const status = t.status ?? "running";
  const end = t.end === undefined || t.end === null ? null : ms(t.end);
  ctx.store.tickets.insert(
    ticketRow({
      ticketId: t.ticketId,
      zone: t.zone,
      parkingLotId: t.parkingLotId ?? null,
      startAt: ms(t.start),
      endAt: end,
      plate: t.plate,
      plateNorm: normalizePlate(t.plate),
      status: status === "canceled" ? "running" : status,
      at: now,
    }),
  );
  if (status === "canceled") ctx.store.tickets.cancel(t.ticketId, now);
}

/** What a TicketMoved does to the row: the plate changes in place. */
export function moveTicket(ctx: AppContext, ticketId: string, toPlate: string): void {
  ctx.store.tickets.move(ticketId, toPlate, normalizePlate(toPlate), ctx.now());
}

/** What a TicketCanceled does to the row. */
export function cancelTicket(ctx: AppContext, ticketId: string): void {
  ctx.store.tickets.cancel(ticketId, ctx.now());
}

/**
 * A busy zone written straight into a store file the binary will serve (its data folder's
 * parkd.db, made by `migrate`): `count` running tickets in `zone`, plates `${prefix}00000` on,
 * ids `${idPrefix}0` on, started at `start`, the i-th ending at `end(i)`. Far faster than the
 * intake for the tens of thousands of cars the scale tests and benches need.
 */
export function seedZoneIntoStore(
  dbPath: string,
  t: {
    zone: number;
    count: number;
    prefix: string;
    idPrefix: string;
    start: number;
    end: (i: number) => number;
  },
): void {
  const db = new Database(dbPath);
  const now = Date.now();
  const insert = db.prepare(
    "INSERT INTO tickets (ticket_id, zone, start_at, end_at, plate, plate_norm, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?)",
  );
  db.transaction(() => {
    for (let i = 0; i < t.count; i++) {
      const plate = `${t.prefix}${String(i).padStart(5, "0")}`;
      insert.run(`${t.idPrefix}${i}`, t.zone, t.start, t.end(i), plate, plate, now, now);
    }
  })();
  db.close();
}
