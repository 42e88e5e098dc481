import { refuse } from "../../../domain/errors.ts";
import { TICKET_REFUSALS } from "../../../domain/tickets/rules.ts";
import { formatMicros } from "../../../domain/time/zoned.ts";
import type { Store } from "../../../platform/store/db.ts";
import { EVENTS_PAGE, type TicketView } from "./model.ts";

/** Stored bodies were valid JSON when they arrived; show them as JSON, or as text if not. */
function parseStored(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export interface EventsPage {
  /** events_next_cursor of the previous page (the last seq it held); absent or empty: the first page. */
  cursor?: string;
  limit?: number;
}

/**
 * The ticket as stored now, with one page of the events received for it (oldest first): a
 * ticket may hold MAX_EVENTS_PER_TICKET events of up to 8 KiB, too much for one answer.
 */
export function ticketView(store: Store, ticketId: string, page: EventsPage = {}): TicketView["data"] {
  const t = store.tickets.get(ticketId);
  if (!t) throw refuse(TICKET_REFUSALS, "ticket-not-found", `No ticket has ticketId "${ticketId}"`);
  const limit = page.limit ?? EVENTS_PAGE;
  // One more than the page shows whether another page follows.
  const rows = store.tickets.events(ticketId, Number(page.cursor || 0), limit + 1);
  const more = rows.length > limit;
  if (more) rows.pop();
  const events = rows.map((e) => ({
    seq: e.seq,
    eventType: e.eventType,
    receivedAt: formatMicros(e.receivedAt),
    credential: e.credential,
    outcome: e.outcome,
    body: parseStored(e.rawBody),
    bodyCutFrom: e.bodyCutFrom,
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
    events_next_cursor: more ? String(rows[rows.length - 1]!.seq) : null,
  };
}
