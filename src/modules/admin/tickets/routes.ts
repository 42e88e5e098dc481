import { Elysia, type Static } from "elysia";
import { authPlugin } from "../../../platform/http/auth.ts";
import { routeDeclaration } from "../../../platform/http/route-declaration.ts";
import { adminOperations } from "../contract.ts";
import type { AdminDeps } from "../deps.ts";
import { TicketByIdQuery, TicketIdParams, TicketView, TicketViewQuery } from "./model.ts";
import { ticketView } from "./service.ts";

/** The operator's view of one ticket (scope admin), its id in the path or, for any id, in the query. */
export function ticketAdminRoutes(ctx: AdminDeps) {
  const view = (ticketId: string, page: Static<typeof TicketViewQuery>) => ({
    data: ticketView(ctx.store, ticketId, { cursor: page.events_cursor, limit: page.events_limit }),
  });
  const answer = {
    auth: { scope: "admin" as const },
    response: { 200: TicketView },
  };
  return new Elysia({ name: "ticket-admin" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .get("/api/v1/tickets/:ticketId", ({ params, query }) => view(params.ticketId, query), {
      operation: adminOperations.getTicket,
      ...answer,
      params: TicketIdParams,
      query: TicketViewQuery,
      detail: {
        summary: "A ticket's current state and the events received for it, a page at a time",
        tags: ["tickets"],
      },
    })
    .get("/api/v1/ticket", ({ query }) => view(query.ticket_id, query), {
      operation: adminOperations.getTicketByQuery,
      ...answer,
      query: TicketByIdQuery,
      detail: {
        summary: 'The same view, the ticket\'s id in the query: for the ids a path cannot carry (".", "..")',
        tags: ["tickets"],
      },
    });
}
