import { Elysia } from "elysia";
import { credentialLabel } from "../../../domain/credentials.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import { routeDeclaration } from "../../../platform/http/route-declaration.ts";
import type { EnforcementContext } from "../module-context.ts";
import { observationOperations } from "./contract.ts";
import { MarkInput, ObservationReceipt } from "./model.ts";
import { AttendantObservations } from "./service.ts";

/** Marking cars in zones with a time limit (scope notices:write; the verdict reads the marks). */
export function observationRoutes(ctx: EnforcementContext) {
  const observations = new AttendantObservations(ctx);
  return new Elysia({ name: "attendant-observations" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .post(
      "/api/v1/attendants/observations",
      ({ body, credential, set }) => {
        const { receipt, created } = observations.mark(body, credentialLabel(credential));
        set.status = created ? 201 : 200;
        return receipt;
      },
      {
        operation: observationOperations.markCar,
        auth: { scope: "notices:write", strictBody: MarkInput },
        body: MarkInput,
        response: { 200: ObservationReceipt, 201: ObservationReceipt },
        detail: { summary: "Mark a car in a zone with a time limit (timed observation)", tags: ["notices"] },
      },
    );
}
