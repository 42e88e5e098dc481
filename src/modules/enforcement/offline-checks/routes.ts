import { Elysia } from "elysia";
import { credentialLabel } from "../../../domain/credentials.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import { routeDeclaration } from "../../../platform/http/route-declaration.ts";
import type { EnforcementContext } from "../module-context.ts";
import { offlineCheckOperations } from "./contract.ts";
import { OfflineChecks, OfflineChecksReceipt } from "./model.ts";
import { OfflineCheckRecords } from "./service.ts";

/** Verdicts handhelds gave offline, recorded when the box answers again (scope permits:read). */
export function offlineCheckRoutes(ctx: EnforcementContext) {
  const records = new OfflineCheckRecords(ctx);
  return new Elysia({ name: "attendant-offline-checks" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .post(
      "/api/v1/attendants/offline-checks",
      ({ body, credential }) => records.record(body, credentialLabel(credential)),
      {
        operation: offlineCheckOperations.recordOfflineChecks,
        auth: { scope: "permits:read", strictBody: OfflineChecks },
        body: OfflineChecks,
        response: { 200: OfflineChecksReceipt },
        detail: {
          summary: "Record verdicts a handheld gave from its saved list while the box did not answer",
          tags: ["permits"],
        },
      },
    );
}
