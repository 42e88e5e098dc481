import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { sessionRoutes } from "./session-routes.ts";
import { staticRoutes } from "./static-routes.ts";

/** The web app: its pages at `/`, and browser sessions. */
export function webRoutes(ctx: AppContext) {
  return new Elysia({ name: "web" }).use(staticRoutes()).use(sessionRoutes(ctx));
}
