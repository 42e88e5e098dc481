import { Elysia } from "elysia";
import type { AppContext } from "./context.ts";
import { credentialRoutes } from "./modules/admin/credentials/routes.ts";
import { lotRoutes } from "./modules/admin/lots/routes.ts";
import { permitRoutes } from "./modules/enforcement/routes.ts";
import { ticketRoutes } from "./modules/intake/routes.ts";
import { healthRoutes } from "./modules/operations/health.ts";
import type { RouteInfo } from "./modules/operations/openapi.ts";
import { operationsRoutes } from "./modules/operations/routes.ts";
import { countRequests } from "./platform/http/accounting.ts";
import { errorHandling } from "./platform/http/errors.ts";
import { routeTemplates } from "./platform/http/route-template.ts";

/** The whole HTTP surface as one Elysia app; `serve` puts it behind the front end, tests call app.handle. */
export function createApp(ctx: AppContext) {
  const app = new Elysia()
    .use(routeTemplates)
    .use(errorHandling({ bodyLimit: ctx.config.bodyLimit }))
    .use(healthRoutes(ctx))
    .use(credentialRoutes(ctx))
    .use(ticketRoutes(ctx))
    .use(lotRoutes(ctx))
    .use(permitRoutes(ctx))
    // Reads app.routes at request time, so it documents every route, whenever it was added.
    .use(operationsRoutes(ctx, (): readonly RouteInfo[] => app.routes));
  return countRequests(app, ctx.metrics);
}

export type App = ReturnType<typeof createApp>;
