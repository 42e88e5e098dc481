import { Elysia } from "elysia";
import type { AppContext } from "../../../context.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import { TicketIdParams, TicketView } from "./model.ts";
import { ticketView } from "./service.ts";

/** The operator's view of one ticket (scope admin). */
export function ticketAdminRoutes(ctx: AppContext) {
  return new Elysia({ name: "ticket-admin" })
    .use(authPlugin(ctx))
    .get("/api/v1/tickets/:ticketId", ({ params }) => ({ data: ticketView(ctx.store, params.ticketId) }), {
      auth: { scope: "admin" },
      params: TicketIdParams,
      response: { 200: TicketView },
      detail: {
        summary: "A ticket's current state and every event received for it",
        tags: ["tickets"],
      },
    });
}
