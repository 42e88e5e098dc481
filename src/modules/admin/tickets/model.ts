import { type Static, t } from "elysia";
import { wholeNumberParam } from "../../../platform/http/validation.ts";

/** The operator's view of one ticket: its state and every event a terminal sent for it. */

const Instant = t.String({ description: "UTC, YYYY-MM-DDTHH:mm:ss.SSSSSSZ" });

export const TicketEventView = t.Object({
  seq: t.Integer(),
  event_type: t.String(),
  received_at: Instant,
  credential: t.String({ description: 'Who sent it, e.g. "token:terminal-1"' }),
  outcome: t.UnionEnum(["applied", "repeat"], {
    description: "applied changed the ticket; repeat was a retry that changed nothing",
  }),
  body: t.Unknown({
    description:
      "The body as the sender posted it; a body over 8 KiB is kept as its known fields only (see body_cut_from)",
  }),
  body_cut_from: t.Union([t.Integer(), t.Null()], {
    description: "Bytes the body had when only its known fields were kept; null when kept whole",
  }),
});

export const TicketView = t.Object({
  data: t.Object({
    ticket_id: t.String(),
    status: t.UnionEnum(["running", "stopped", "canceled"]),
    zone: t.Integer(),
    parking_lot_id: t.Union([t.Integer(), t.Null()]),
    lot_unknown: t.Boolean({ description: "parking_lot_id named no known parking lot" }),
    start_at: Instant,
    end_at: t.Union([Instant, t.Null()]),
    license_number: t.String({ description: "As sent" }),
    plate_normalized: t.String({ description: "The form lookups match on" }),
    ticket_cost: t.Object({
      amount_incl_vat: t.Union([t.Integer(), t.Null()]),
      vat_rate: t.Union([t.Integer(), t.Null()]),
      currency_code: t.Union([t.String(), t.Null()]),
    }),
    created_at: Instant,
    updated_at: Instant,
    canceled_at: t.Union([Instant, t.Null()]),
    events: t.Array(TicketEventView, { description: "One page, oldest first (events_limit, default 100)" }),
    events_next_cursor: t.Union([t.String(), t.Null()], {
      description: "Pass as events_cursor for the next page; null on the last page",
    }),
  }),
});
export type TicketView = Static<typeof TicketView>;

export const TicketIdParams = t.Object({ ticketId: t.String({ minLength: 1, maxLength: 128 }) });

export const EVENTS_PAGE = 100;
export const EVENTS_PAGE_MAX = 500;

export const TicketViewQuery = t.Object({
  events_cursor: t.Optional(
    t.String({
      maxLength: 64,
      description: "events_next_cursor of the previous page (opaque, as every cursor)",
    }),
  ),
  events_limit: t.Optional(wholeNumberParam("events_limit", "query", 1, EVENTS_PAGE_MAX)),
});

/**
 * The same view with the id in the query: a URL path cannot carry the ids "." and ".." (URL
 * parsers drop such segments, "%2E" included), and a terminal may send either.
 */
export const TicketByIdQuery = t.Object({
  ticket_id: t.String({ minLength: 1, maxLength: 128, description: "The ticket's ticketId, any text" }),
  ...TicketViewQuery.properties,
});
