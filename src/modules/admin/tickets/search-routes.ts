import { Elysia } from "elysia";
import { invalid } from "../../../domain/errors.ts";
import { normalizePlate } from "../../../domain/plates.ts";
import { type TICKET_STATES, ticketStateAt } from "../../../domain/tickets/state.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import { routeDeclaration } from "../../../platform/http/route-declaration.ts";
import { TICKET_ORDERS, type TicketSearch } from "../../../platform/store/tickets/search.ts";
import { adminConsoleOperations } from "../console-contract.ts";
import type { AdminDeps } from "../deps.ts";
import { instant, iso, isoOrNull } from "../paging.ts";
import { csvDownload } from "../reports/csv.ts";
import { pageCursor, readSort } from "../sorting.ts";
import { MAX_CSV_TICKETS, ticketsCsv } from "./csv.ts";
import { TicketPage, TicketSearchCsvQuery, TicketSearchQuery, type ticketFilters } from "./model.ts";

type Filters = { [K in keyof typeof ticketFilters]?: unknown } & {
  registration_number?: string;
  zone?: number;
  state?: (typeof TICKET_STATES)[number];
  status?: "running" | "stopped" | "canceled";
  from?: string;
  to?: string;
};

/** The search's filters as the store takes them; the state is read at `now`. */
function searchOf(
  ctx: AdminDeps,
  query: Filters,
  now: number,
): Omit<TicketSearch, "order" | "descending" | "limit"> {
  const plate = query.registration_number?.trim();
  return {
    plateNorm: plate ? normalizePlate(plate) : undefined,
    zone: query.zone,
    status: query.status,
    state: query.state === undefined ? undefined : { state: query.state, now },
    from: instant(query.from, "from", ctx.config.timezone),
    to: instant(query.to, "to", ctx.config.timezone),
  };
}

/** The console's ticket search (scope admin): plate, zone, state and time, a page at a time, or as CSV. */
export function ticketSearchRoutes(ctx: AdminDeps) {
  const lotName = (id: number | null) => (id === null ? null : ctx.store.lots.nameOf(id));
  return new Elysia({ name: "ticket-search" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .get(
      "/api/v1/tickets",
      ({ query }) => {
        const sort = query.sort ?? "-start_at";
        const now = ctx.now();
        const search = searchOf(ctx, query, now);
        const p = ctx.store.ticketSearch.search({
          ...search,
          ...readSort("tickets", sort, TICKET_ORDERS, query.cursor),
          limit: query.limit ?? 50,
        });
        return {
          data: p.rows.map((r) => ({
            ticket_id: r.ticketId,
            state: ticketStateAt(r, now),
            status: r.status,
            zone: r.zone,
            parking_lot_id: r.parkingLotId,
            lot_name: lotName(r.parkingLotId),
            license_number: r.plate,
            start_at: iso(r.startAt),
            end_at: isoOrNull(r.endAt),
            amount_incl_vat: r.amountInclVat,
            currency_code: r.currencyCode,
            updated_at: iso(r.updatedAt),
          })),
          // Counted once per search: a page further on costs what the first one did.
          total: query.cursor ? null : ctx.store.ticketSearch.count(search),
          next_cursor: p.next && pageCursor("tickets", sort, p.next),
        };
      },
      {
        operation: adminConsoleOperations.searchTickets,
        auth: { scope: "admin" },
        query: TicketSearchQuery,
        response: TicketPage,
        detail: {
          summary: "Search tickets, newest start first unless sorted otherwise, a page at a time",
          description:
            "registration_number matches however the plate was typed (as check-tickets does); state is what the console shows (active, not_started, ended, canceled), read at the request's time; status, the stored status the last event left (running, stopped, canceled); from/to keep tickets whose stay overlaps the range. sort names a column, descending with a leading '-' (-start_at unless given); zone sorts a zone's tickets by end; tickets without an end sort first ascending, last descending. A cursor continues the sort it came from. limit 1-200 (50). total, on the first page, counts every ticket the search finds.",
          tags: ["tickets"],
        },
      },
    )
    .get(
      "/api/v1/tickets.csv",
      ({ query }) => {
        const sort = query.sort ?? "-start_at";
        const now = ctx.now();
        const search = searchOf(ctx, query, now);
        const total = ctx.store.ticketSearch.count(search);
        if (total > MAX_CSV_TICKETS)
          throw invalid(
            [
              {
                pointer: "/from",
                message: `The search finds ${total} tickets; a CSV holds at most ${MAX_CSV_TICKETS}: narrow it (from, to)`,
                in: "query",
              },
            ],
            "Too many tickets for one CSV",
          );
        const rows = ctx.store.ticketSearch.search({
          ...search,
          ...readSort("tickets", sort, TICKET_ORDERS, undefined),
          limit: MAX_CSV_TICKETS,
        }).rows;
        const variant = query.variant ?? "se";
        const csv = ticketsCsv(
          rows.map((r) => ({
            ticketId: r.ticketId,
            plate: r.plate,
            zone: r.zone,
            lotId: r.parkingLotId,
            lotName: lotName(r.parkingLotId),
            state: ticketStateAt(r, now),
            startAt: r.startAt,
            endAt: r.endAt,
            amount: r.amountInclVat,
            currency: r.currencyCode,
          })),
          variant,
          ctx.config.timezone,
        );
        return csvDownload(csv, `tickets-${iso(now).slice(0, 10)}.csv`);
      },
      {
        operation: adminConsoleOperations.exportTicketsCsv,
        auth: { scope: "admin" },
        query: TicketSearchCsvQuery,
        detail: {
          summary: "The ticket search as CSV (every ticket it finds, in its order): se or rfc4180",
          tags: ["tickets"],
        },
      },
    );
}
