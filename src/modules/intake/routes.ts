import { Elysia } from "elysia";
import { credentialLabel } from "../../domain/credentials.ts";
import { authPlugin } from "../../platform/http/auth.ts";
import { rawBodyOf } from "../../platform/http/request-body.ts";
import type { IntakeDeps } from "./deps.ts";
import { IntakeAccepted, TicketEventBody } from "./model.ts";
import { TicketIntake } from "./service.ts";

const NO_EVENTS: unknown[] = [];

/** Ticket event intake for terminals and parking apps (scope tickets:write, Bearer or Basic). */
export function intakeRoutes(ctx: IntakeDeps) {
  const intake = new TicketIntake(ctx);
  return new Elysia({ name: "intake" }).use(authPlugin(ctx.auth)).post(
    "/api/v1/actions/tickets",
    async ({ body, request, credential }) => {
      await intake.receive(body, {
        raw: rawBodyOf(request) ?? JSON.stringify(body ?? null),
        credential: credentialLabel(credential),
      });
      return NO_EVENTS;
    },
    {
      auth: { scope: "tickets:write", basic: true },
      // The body is validated in the service against the schema its eventType picks (see read-event.ts).
      response: { 200: IntakeAccepted },
      // Description, section, statuses and examples: ./contract.ts.
      detail: {
        summary: "Receive a ticket event (created, updated, stopped, moved, canceled, create-or-update)",
        requestBody: {
          required: true,
          content: { "application/json": { schema: TicketEventBody as object } },
        },
      },
    },
  );
}
