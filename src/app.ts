import { Elysia } from "elysia";
import type { AppContext } from "./context.ts";
import { credentialRoutes } from "./credentials/routes.ts";
import { healthRoutes } from "./health/routes.ts";
import { errorHandling } from "./http/errors.ts";
import { metaOf } from "./http/request-meta.ts";
import { permitRoutes } from "./permits/routes.ts";

/** The whole HTTP surface as one Elysia app; `serve` puts it behind the front end, tests call app.handle. */
export function createApp(ctx: AppContext) {
  return new Elysia()
    .use(errorHandling)
    .onAfterHandle({ as: "global" }, ({ request, route }) => {
      metaOf(request).route = route;
    })
    .use(healthRoutes(ctx))
    .use(credentialRoutes(ctx))
    .use(permitRoutes(ctx));
}

export type App = ReturnType<typeof createApp>;
