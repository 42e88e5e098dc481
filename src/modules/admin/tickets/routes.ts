import { Elysia } from "elysia";
import { authPlugin } from "../../../platform/http/auth.ts";
import type { AdminDeps } from "../index.ts";
import { TicketByIdQuery, TicketIdParams, TicketView, TicketViewQuery } from "./model.ts";
import { ticketView } from "./service.ts";

/** The operator's view of one ticket (scope admin). */
export function ticketAdminRoutes(ctx: AdminDeps) {
  return new Elysia({ name: "ticket-admin" })
    .use(authPlugin(ctx.auth))
    .get(
      "/api/v1/tickets/:ticketId",
      ({ params, query }) => ({
        data: ticketView(ctx.store, params.ticketId, {
          cursor: query.events_cursor,
          limit: query.events_limit,
        }),
      }),
      {
        auth: { scope: "admin" },
        params: TicketIdParams,
        query: TicketViewQuery,
        response: { 200: TicketView },
        detail: {
          summary: "A ticket's current state and the events received for it, a page at a time",
          tags: ["tickets"],
        },
      },
    )
    .get(
      "/api/v1/ticket",
      ({ query }) => ({
        data: ticketView(ctx.store, query.ticket_id, {
          cursor: query.events_cursor,
          limit: query.events_limit,
        }),
      }),
      {
        auth: { scope: "admin" },
        query: TicketByIdQuery,
        response: { 200: TicketView },
        detail: {
          summary:
            'The same view, the ticket\'s id in the query: for the ids a path cannot carry (".", "..")',
          tags: ["tickets"],
        },
      },
    );
}
