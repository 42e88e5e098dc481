import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { credentialLabel } from "../../domain/credentials.ts";
import { authPlugin } from "../../platform/http/auth.ts";
import { pathNumber } from "../../platform/http/validation.ts";
import { ZoneParams } from "./model.ts";
import { ZoneFeed } from "./zone-feed.ts";

/** The zone list, live: what the attendant page shows while a zone is picked. */
export function zoneFeedRoutes(ctx: AppContext) {
  const feed = new ZoneFeed(ctx);
  const records = ctx.lookupRecorder;
  return new Elysia({ name: "zone-feed" }).use(authPlugin(ctx)).get(
    "/api/v1/tickets/zone/:zone/events",
    ({ params, request, credential }) => {
      const zone = pathNumber(params.zone, "zone", 0);
      const label = credentialLabel(credential);
      const { response, results } = feed.open(zone, label, request.headers.get("last-event-id"));
      // One record per opened feed: the attendant asked for the zone once, the updates follow.
      records.record({ at: ctx.now(), credential: label, by: "zone_list", query: String(zone), results });
      return response;
    },
    {
      auth: { scope: "permits:read" },
      params: ZoneParams,
      detail: {
        summary: "The zone list as server-sent events: `plates` on connect and on every change",
        description:
          'Each event `plates` carries `{"data": [plates]}` (as GET /api/v1/tickets/zone/{zone}) and an `id`; reconnecting with Last-Event-ID gets the list only if it changed since. A comment line every 15 s keeps the connection open. At most 8 open feeds per credential (429 beyond).',
        tags: ["attendant lookups"],
      },
    },
  );
}
