import { notFound } from "../../../domain/errors.ts";
import { formatMicros } from "../../../domain/time/zoned.ts";
import type { Store } from "../../../platform/store/db.ts";
import type { TicketView } from "./model.ts";

/** Stored bodies were valid JSON when they arrived; show them as JSON, or as text if not. */
function parseStored(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The ticket as stored now, with every event received for it (oldest first). */
export function ticketView(store: Store, ticketId: string): TicketView["data"] {
  const t = store.tickets.get(ticketId);
  if (!t) throw notFound("ticket-not-found", "Ticket not found", `No ticket has ticketId "${ticketId}"`);
  const events = store.tickets.events(ticketId).map((e) => ({
    seq: e.seq,
    eventType: e.eventType,
    receivedAt: formatMicros(e.receivedAt),
    credential: e.credential,
    outcome: e.outcome,
    body: parseStored(e.rawBody),
  }));
  return {
    ticketId: t.ticketId,
    status: t.status,
    zone: t.zone,
    parkingLotId: t.parkingLotId,
    lotUnknown: t.lotUnknown,
    startAt: formatMicros(t.startAt),
    endAt: t.endAt === null ? null : formatMicros(t.endAt),
    licenseNumber: t.plate,
    plateNormalized: t.plateNorm,
    ticketCost: { amountInclVat: t.amountInclVat, vatRate: t.vatRate, currencyCode: t.currencyCode },
    createdAt: formatMicros(t.createdAt),
    updatedAt: formatMicros(t.updatedAt),
    canceledAt: t.canceledAt === null ? null : formatMicros(t.canceledAt),
    events,
  };
}
