import { Elysia } from "elysia";
import { credentialLabel } from "../../domain/credentials.ts";
import { authPlugin } from "../../platform/http/auth.ts";
import { directAnswer, jsonValueAnswer } from "../../platform/http/direct.ts";
import { jsonBodyOf, rawBodyOf } from "../../platform/http/request-body.ts";
import { routeDeclaration } from "../../platform/http/route-declaration.ts";
import { intakeOperations } from "./contract.ts";
import type { IntakeDeps } from "./deps.ts";
import { IntakeAccepted, TicketEventBody } from "./model.ts";
import type { TicketIntake } from "./service.ts";

const NO_EVENTS: unknown[] = [];
const INTAKE = "/api/v1/actions/tickets";
/** The framework's answer to NO_EVENTS, as the direct route gives it. */
const ACCEPTED = jsonValueAnswer(NO_EVENTS);

/** Ticket event intake for terminals and parking apps (scope tickets:write, Bearer or Basic). */
export function intakeRoutes(ctx: IntakeDeps, intake: TicketIntake) {
  return new Elysia({ name: "intake" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .post(
      INTAKE,
      async ({ body, request, credential }) => {
        await intake.receive(body, {
          raw: rawBodyOf(request) ?? JSON.stringify(body ?? null),
          credential: credentialLabel(credential),
        });
        return NO_EVENTS;
      },
      {
        operation: intakeOperations.postTicketEvent,
        auth: { scope: "tickets:write", basic: true },
        // The plain case (a Bearer token with the scope, a JSON body that reads as an event) is
        // answered by the front end itself: the same event, stored by the same intake, answered
        // once the disk holds it. A Basic terminal, and any body the event reading refuses, is the app's.
        direct: directAnswer({
          read: (_query, body) => {
            if (body === null) throw new Error("a ticket event has a body");
            return jsonBodyOf(body.bytes, body.contentType);
          },
          // A body the event reading refuses throws here, before the event is queued: declined.
          answer: ({ text, value }, credential) =>
            intake
              .receive(value, { raw: text, credential: credentialLabel(credential!) })
              .then(() => ACCEPTED),
        }),
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
