import { refuse } from "../../../domain/errors.ts";
import { formatMicros } from "../../../domain/time/zoned.ts";
import type { Store } from "../../../platform/store/db.ts";
import { rowAfter, rowCursor } from "../paging.ts";
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
  /** events_next_cursor of the previous page (it holds the last seq shown); absent or empty: the first page. */
  cursor?: string;
  limit?: number;
}

/**
 * The ticket as stored now, with one page of the events received for it (oldest first): a
 * ticket may hold MAX_EVENTS_PER_TICKET events of up to 8 KiB, too much for one answer.
 */
export function ticketView(
  store: Pick<Store, "tickets">,
  ticketId: string,
  page: EventsPage = {},
): TicketView["data"] {
  const t = store.tickets.get(ticketId);
  if (!t) throw refuse("ticket-not-found", `No ticket has ticketId "${ticketId}"`);
  const limit = page.limit ?? EVENTS_PAGE;
  // One more than the page shows whether another page follows.
  const rows = store.tickets.events(
    ticketId,
    page.cursor ? rowAfter(page.cursor, "ticket-events", "events_cursor") : 0,
    limit + 1,
  );
  const more = rows.length > limit;
  if (more) rows.pop();
  const events = rows.map((e) => ({
    seq: e.seq,
    event_type: e.eventType,
    received_at: formatMicros(e.receivedAt),
    credential: e.credential,
    outcome: e.outcome,
    body: parseStored(e.rawBody),
    body_cut_from: e.bodyCutFrom,
  }));
  return {
    ticket_id: t.ticketId,
    status: t.status,
    zone: t.zone,
    parking_lot_id: t.parkingLotId,
    lot_unknown: t.lotUnknown,
    start_at: formatMicros(t.startAt),
    end_at: t.endAt === null ? null : formatMicros(t.endAt),
    license_number: t.plate,
    plate_normalized: t.plateNorm,
    ticket_cost: { amount_incl_vat: t.amountInclVat, vat_rate: t.vatRate, currency_code: t.currencyCode },
    created_at: formatMicros(t.createdAt),
    updated_at: formatMicros(t.updatedAt),
    canceled_at: t.canceledAt === null ? null : formatMicros(t.canceledAt),
    events,
    events_next_cursor: more ? rowCursor("ticket-events", rows[rows.length - 1]!.seq) : null,
  };
}
