import { Type } from "@sinclair/typebox";
import { type Static, t } from "elysia";
import { wholeNumberParam } from "../../../platform/http/validation.ts";
import { TICKET_ORDERS } from "../../../platform/store/tickets/search.ts";
import { CursorParam } from "../paging.ts";
import { RevenueCsvQuery } from "../reports/model.ts";
import { sortParam } from "../sorting.ts";

/** The operator's view of one ticket: its state and every event a terminal sent for it. */

const Instant = t.String({ description: "UTC, YYYY-MM-DDTHH:mm:ss.SSSSSSZ" });

export const TicketEventView = t.Object({
  seq: Type.Integer(),
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
  body_cut_from: t.Union([Type.Integer(), t.Null()], {
    description: "Bytes the body had when only its known fields were kept; null when kept whole",
  }),
});

export const TicketView = t.Object({
  data: t.Object({
    ticket_id: t.String(),
    status: t.UnionEnum(["running", "stopped", "canceled"]),
    zone: Type.Integer(),
    parking_lot_id: t.Union([Type.Integer(), t.Null()]),
    lot_unknown: t.Boolean({ description: "parking_lot_id named no known parking lot" }),
    start_at: Instant,
    end_at: t.Union([Instant, t.Null()]),
    license_number: t.String({ description: "As sent" }),
    plate_normalized: t.String({ description: "The form lookups match on" }),
    ticket_cost: t.Object({
      amount_incl_vat: t.Union([Type.Integer(), t.Null()]),
      vat_rate: t.Union([Type.Integer(), t.Null()]),
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

// The console's ticket search: its filters (a page, or CSV) and the page it answers.

const SearchInstant = t.String({ format: "date-time" });

const StoredStatus = t.Union([t.Literal("running"), t.Literal("stopped"), t.Literal("canceled")], {
  description:
    "The stored status as the last event left it (running after a create, whatever the clock says)",
});

// Literals, not UnionEnum: Elysia fills a missing query UnionEnum with its first value.
const TicketState = t.Union(
  [t.Literal("active"), t.Literal("not_started"), t.Literal("ended"), t.Literal("canceled")],
  {
    description:
      "What the ticket is now, read from its times and events: canceled; not_started (starts later); ended (stopped, or its end has passed); else active",
  },
);

export const ticketFilters = {
  registration_number: t.Optional(t.String({ maxLength: 32 })),
  zone: t.Optional(wholeNumberParam("zone", "query", 0, 2_147_483_647)),
  state: t.Optional(TicketState),
  status: t.Optional(StoredStatus),
  sort: sortParam(Object.keys(TICKET_ORDERS), "-start_at"),
  from: t.Optional(
    t.String({ description: "ISO 8601; without an offset it is site time, a date alone its start" }),
  ),
  to: t.Optional(t.String({ description: "ISO 8601, as from" })),
};

export const TicketSearchQuery = t.Object({
  ...ticketFilters,
  cursor: CursorParam,
  limit: t.Optional(wholeNumberParam("limit", "query", 1, 200, "Tickets a page (50 unless given)")),
});

export const TicketSearchCsvQuery = t.Object({
  ...ticketFilters,
  variant: RevenueCsvQuery.properties.variant,
});

export const TicketPage = t.Object({
  data: t.Array(
    t.Object({
      ticket_id: t.String(),
      state: TicketState,
      status: StoredStatus,
      zone: Type.Integer(),
      parking_lot_id: t.Union([Type.Integer(), t.Null()]),
      lot_name: t.Union([t.String(), t.Null()], {
        description: "null: no lot, or a lot the box does not know",
      }),
      license_number: t.String(),
      start_at: SearchInstant,
      end_at: t.Union([SearchInstant, t.Null()]),
      amount_incl_vat: t.Union([Type.Integer(), t.Null()], {
        description: "Öre (cents), as the terminal sent it",
      }),
      currency_code: t.Union([t.String(), t.Null()]),
      updated_at: SearchInstant,
    }),
  ),
  total: t.Union([Type.Integer(), t.Null()], {
    description:
      "How many tickets the search finds in all: on the first page (no cursor); null on the others",
  }),
  next_cursor: t.Union([t.String(), t.Null()], { description: "null on the last page" }),
});
