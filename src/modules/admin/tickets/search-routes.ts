import { Elysia, t } from "elysia";
import { normalizePlate } from "../../../domain/plates.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import { wholeNumberParam } from "../../../platform/http/validation.ts";
import { TICKET_ORDERS } from "../../../platform/store/tickets/search.ts";
import type { AdminDeps } from "../index.ts";
import { CursorParam, instant, iso, isoOrNull } from "../paging.ts";
import { pageCursor, readSort, sortParam } from "../sorting.ts";

const Instant = t.String({ format: "date-time" });
const Status = t.Union([t.Literal("running"), t.Literal("stopped"), t.Literal("canceled")]);

export const TicketSearchQuery = t.Object({
  registration_number: t.Optional(t.String({ maxLength: 32 })),
  zone: t.Optional(wholeNumberParam("zone", "query", 0, 2_147_483_647)),
  // Literals, not UnionEnum: Elysia fills a missing query UnionEnum with its first value.
  status: t.Optional(Status),
  sort: sortParam(Object.keys(TICKET_ORDERS), "-start_at"),
  from: t.Optional(
    t.String({ description: "ISO 8601; without an offset it is site time, a date alone its start" }),
  ),
  to: t.Optional(t.String({ description: "ISO 8601, as from" })),
  cursor: CursorParam,
  limit: t.Optional(wholeNumberParam("limit", "query", 1, 200, "Tickets a page (50 unless given)")),
});

export const TicketPage = t.Object({
  data: t.Array(
    t.Object({
      ticket_id: t.String(),
      status: Status,
      zone: t.Integer(),
      parking_lot_id: t.Union([t.Integer(), t.Null()]),
      license_number: t.String(),
      start_at: Instant,
      end_at: t.Union([Instant, t.Null()]),
      updated_at: Instant,
    }),
  ),
  next_cursor: t.Union([t.String(), t.Null()], { description: "null on the last page" }),
});

/** The console's ticket search (scope admin): plate, zone, state and time, a page at a time. */
export function ticketSearchRoutes(ctx: AdminDeps) {
  return new Elysia({ name: "ticket-search" }).use(authPlugin(ctx.auth)).get(
    "/api/v1/tickets",
    ({ query }) => {
      const plate = query.registration_number?.trim();
      const sort = query.sort ?? "-start_at";
      const p = ctx.store.ticketSearch.search({
        plateNorm: plate ? normalizePlate(plate) : undefined,
        zone: query.zone,
        status: query.status,
        from: instant(query.from, "from", ctx.config.timezone),
        to: instant(query.to, "to", ctx.config.timezone),
        ...readSort("tickets", sort, TICKET_ORDERS, query.cursor),
        limit: query.limit ?? 50,
      });
      return {
        data: p.rows.map((r) => ({
          ticket_id: r.ticketId,
          status: r.status,
          zone: r.zone,
          parking_lot_id: r.parkingLotId,
          license_number: r.plate,
          start_at: iso(r.startAt),
          end_at: isoOrNull(r.endAt),
          updated_at: iso(r.updatedAt),
        })),
        next_cursor: p.next && pageCursor("tickets", sort, p.next),
      };
    },
    {
      auth: { scope: "admin" },
      query: TicketSearchQuery,
      response: TicketPage,
      detail: {
        summary: "Search tickets, newest start first unless sorted otherwise, a page at a time",
        description:
          "registration_number matches however the plate was typed (as check-tickets does); from/to keep tickets whose stay overlaps the range. sort names a column, descending with a leading '-' (-start_at unless given); zone sorts a zone's tickets by end; tickets without an end sort first ascending, last descending. A cursor continues the sort it came from. limit 1-200 (50).",
        tags: ["tickets"],
      },
    },
  );
}
