import { Elysia } from "elysia";
import type { AppModule } from "../../platform/module.ts";
import { changeRoutes } from "./changes/routes.ts";
import { adminConsoleContract } from "./console-contract.ts";
import { adminContract } from "./contract.ts";
import { credentialApiRoutes } from "./credentials/api-routes.ts";
import { credentialRoutes } from "./credentials/routes.ts";
import { CredentialService, type CredentialStore } from "./credentials/service.ts";
import type { AdminDeps } from "./deps.ts";
import { lookupRecordRoutes } from "./lookups/routes.ts";
import { lotRoutes } from "./lots/routes.ts";
import { noticeAdminContract } from "./notices/contract.ts";
import { noticeAdminRoutes } from "./notices/routes.ts";
import { occupancyContract } from "./occupancy/contract.ts";
import { occupancyGauges } from "./occupancy/metrics.ts";
import { occupancyRoutes } from "./occupancy/routes.ts";
import { permitAdminRoutes } from "./permits/routes.ts";
import { reportsContract } from "./reports/contract.ts";
import { revenueRoutes } from "./reports/routes.ts";
import { ticketAdminRoutes } from "./tickets/routes.ts";
import { ticketSearchRoutes } from "./tickets/search-routes.ts";

export { CredentialService } from "./credentials/service.ts";
export { tokenView, userView } from "./credentials/views.ts";
export type { AdminDeps } from "./deps.ts";
export { type FileError, formatFileError } from "./lots/file.ts";
export type { ImportReport } from "./lots/model.ts";
export { LotCatalog } from "./lots/service.ts";

/**
 * The credentials, built before the modules: the platform's auth verifies every request's
 * credential through its CredentialVerifier port, which this service answers.
 */
export function adminCredentials(deps: { store: CredentialStore; now: () => number }): CredentialService {
  return new CredentialService(deps.store, deps.now);
}

/** Lots, permits, tickets, credentials, history, lookups, occupancy and reports, for operators. */
export function adminModule(ctx: AdminDeps): AppModule {
  for (const g of occupancyGauges(ctx)) ctx.metrics.addGauges(g);
  return {
    name: "admin",
    routes: new Elysia({ name: "admin" })
      .use(lotRoutes(ctx))
      .use(permitAdminRoutes(ctx))
      .use(ticketAdminRoutes(ctx))
      .use(credentialRoutes(ctx))
      .use(ticketSearchRoutes(ctx))
      .use(lookupRecordRoutes(ctx))
      .use(changeRoutes(ctx))
      .use(credentialApiRoutes(ctx))
      .use(revenueRoutes(ctx))
      .use(occupancyRoutes(ctx))
      .use(noticeAdminRoutes(ctx)),
    contracts: [adminContract, adminConsoleContract, reportsContract, occupancyContract, noticeAdminContract],
    start(hold) {
      ctx.credentials.startLastUsedFlush();
      hold("last-used times", () => ctx.credentials.stop());
    },
  };
}
