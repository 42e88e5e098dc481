import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { PermitLookups } from "../../permits/lookup.ts";
import { webAdminRoutes } from "./admin-routes.ts";
import { feedRoutes } from "./feed-routes.ts";
import { sessionRoutes } from "./session-routes.ts";
import { staticRoutes } from "./static-routes.ts";
import { ZoneFeed } from "./zone-feed.ts";

/** The web app: its pages at `/`, browser sessions, and the API only the pages need. */
export function webRoutes(ctx: AppContext) {
  const feed = new ZoneFeed(ctx, new PermitLookups(ctx));
  return new Elysia({ name: "web" })
    .use(staticRoutes())
    .use(sessionRoutes(ctx))
    .use(feedRoutes(ctx, feed))
    .use(webAdminRoutes(ctx, feed));
}
