import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { credentialLabel } from "../../domain/credentials.ts";
import { authPlugin } from "../../platform/http/auth.ts";
import { rawBodyOf } from "../../platform/http/json-body.ts";
import { IntakeAccepted, TicketEventBody, TicketIdParams, TicketView } from "./model.ts";
import { TicketService } from "./service.ts";

const NO_EVENTS: unknown[] = [];

/** Ticket event intake for terminals, and the operator's view of one ticket. */
export function ticketRoutes(ctx: AppContext) {
  const service = new TicketService(ctx);
  return new Elysia({ name: "tickets" })
    .use(authPlugin(ctx))
    .post(
      "/api/v1/actions/tickets",
      async ({ body, request, credential }) => {
        await service.receive(body, {
          raw: rawBodyOf(request) ?? JSON.stringify(body ?? null),
          credential: credentialLabel(credential),
        });
        return NO_EVENTS;
      },
      {
        auth: { scope: "tickets:write", basic: true },
        // The body is validated in the service against the schema its eventType picks (see validate.ts).
        response: { 200: IntakeAccepted },
        detail: {
          summary: "Receive a ticket event (created, updated, stopped, moved, canceled, create-or-update)",
          description:
            "The body is one of six shapes told apart by eventType. The event is stored, raw body included, in the same transaction that changes the ticket; the empty array is sent after that commit. See docs/ticket-events.md.",
          tags: ["tickets"],
          requestBody: {
            required: true,
            content: { "application/json": { schema: TicketEventBody as object } },
          },
        },
      },
    )
    .get("/api/v1/tickets/:ticketId", ({ params }) => ({ data: service.view(params.ticketId) }), {
      auth: { scope: "admin" },
      params: TicketIdParams,
      response: { 200: TicketView },
      detail: {
        summary: "A ticket's current state and every event received for it",
        tags: ["tickets"],
      },
    });
}
