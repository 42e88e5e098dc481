import { Elysia } from "elysia";
import type { AppContext } from "./context.ts";
import { changeRoutes } from "./modules/admin/changes/routes.ts";
import { adminConsoleContract } from "./modules/admin/console-contract.ts";
import { adminContract } from "./modules/admin/contract.ts";
import { credentialApiRoutes } from "./modules/admin/credentials/api-routes.ts";
import { credentialRoutes } from "./modules/admin/credentials/routes.ts";
import { lookupRecordRoutes } from "./modules/admin/lookups/routes.ts";
import { lotRoutes } from "./modules/admin/lots/routes.ts";
import { occupancyContract } from "./modules/admin/occupancy/contract.ts";
import { occupancyRoutes } from "./modules/admin/occupancy/routes.ts";
import { permitAdminRoutes } from "./modules/admin/permits/routes.ts";
import { reportsContract } from "./modules/admin/reports/contract.ts";
import { revenueRoutes } from "./modules/admin/reports/routes.ts";
import { ticketAdminRoutes } from "./modules/admin/tickets/routes.ts";
import { ticketSearchRoutes } from "./modules/admin/tickets/search-routes.ts";
import { enforcementContract } from "./modules/enforcement/contract.ts";
import { feedContract } from "./modules/enforcement/feed-contract.ts";
import { zoneFeedRoutes } from "./modules/enforcement/feed-routes.ts";
import { enforcementRoutes } from "./modules/enforcement/routes.ts";
import { intakeContract } from "./modules/intake/contract.ts";
import { intakeRoutes } from "./modules/intake/routes.ts";
import { kioskContract } from "./modules/kiosk/contract.ts";
import { kioskRoutes } from "./modules/kiosk/routes.ts";
import { healthRoutes } from "./modules/operations/health.ts";
import type { RouteInfo } from "./modules/operations/openapi.ts";
import { operationsRoutes } from "./modules/operations/routes.ts";
import { statusContract } from "./modules/operations/status-contract.ts";
import { statusRoutes } from "./modules/operations/status-routes.ts";
import { webContract } from "./modules/web/contract.ts";
import { webRoutes } from "./modules/web/routes.ts";
import { accountRequests } from "./platform/http/accounting.ts";
import { refuseQueryTokens } from "./platform/http/auth.ts";
import { requestHandling } from "./platform/http/errors.ts";
import { type RouteEntry, routeMethods } from "./platform/http/route-methods.ts";

/** What each module says of its routes in the OpenAPI document, beyond their schemas. */
export const API_CONTRACTS = [
  intakeContract,
  enforcementContract,
  adminContract,
  feedContract,
  adminConsoleContract,
  statusContract,
  webContract,
  reportsContract,
  occupancyContract,
  kioskContract,
];

/** The whole HTTP surface as one Elysia app; `serve` puts it behind the front end, tests call app.handle. */
export function createApp(ctx: AppContext) {
  const app = new Elysia()
    .use(refuseQueryTokens)
    .use(
      requestHandling({
        bodyLimit: ctx.config.bodyLimit,
        methodsOf: routeMethods((): readonly RouteEntry[] => app.routes),
      }),
    )
    .use(healthRoutes(ctx))
    .use(intakeRoutes(ctx))
    .use(enforcementRoutes(ctx))
    .use(lotRoutes(ctx))
    .use(permitAdminRoutes(ctx))
    .use(ticketAdminRoutes(ctx))
    .use(credentialRoutes(ctx))
    .use(zoneFeedRoutes(ctx))
    .use(ticketSearchRoutes(ctx))
    .use(lookupRecordRoutes(ctx))
    .use(changeRoutes(ctx))
    .use(credentialApiRoutes(ctx))
    .use(statusRoutes(ctx))
    .use(revenueRoutes(ctx))
    .use(occupancyRoutes(ctx))
    .use(kioskRoutes(ctx))
    .use(webRoutes(ctx))
    // Reads app.routes at request time, so it documents every route, whenever it was added.
    .use(operationsRoutes(ctx, (): readonly RouteInfo[] => app.routes, API_CONTRACTS));
  return accountRequests(app, ctx.accounting);
}

export type App = ReturnType<typeof createApp>;
