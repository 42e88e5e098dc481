import { Elysia } from "elysia";
import type { AppContext } from "./context.ts";
import { credentialRoutes } from "./credentials/routes.ts";
import { healthRoutes } from "./health/routes.ts";
import { errorHandling } from "./http/errors.ts";
import { routeTemplates } from "./http/route-template.ts";
import { lotRoutes } from "./lots/routes.ts";
import { webRoutes } from "./modules/web/routes.ts";
import type { RouteInfo } from "./operations/openapi.ts";
import { countRequests } from "./operations/request-count.ts";
import { operationsRoutes } from "./operations/routes.ts";
import { permitRoutes } from "./permits/routes.ts";
import { ticketRoutes } from "./tickets/routes.ts";

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
    .use(webRoutes(ctx))
    // Reads app.routes at request time, so it documents every route, whenever it was added.
    .use(operationsRoutes(ctx, (): readonly RouteInfo[] => app.routes));
  return countRequests(app, ctx.metrics);
}

export type App = ReturnType<typeof createApp>;
