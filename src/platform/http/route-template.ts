import { Elysia } from "elysia";
import { metaOf } from "./request-meta.ts";

/**
 * Records the matched route template (`/api/v1/tickets/zone/:zone`) for the log line and the
 * metrics, for failed requests too: transform runs before validation and auth, and the error
 * hook covers a body that fails to parse. Register it before errorHandling, whose error hook
 * answers and so ends the chain.
 */
export const routeTemplates = new Elysia({ name: "route-templates" })
  .onTransform({ as: "global" }, ({ request, route }) => {
    if (route) metaOf(request).route = route;
  })
  .onError({ as: "global" }, ({ request, route }) => {
    if (route) metaOf(request).route = route;
  });
