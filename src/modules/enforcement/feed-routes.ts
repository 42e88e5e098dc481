import { Elysia } from "elysia";
import { credentialLabel } from "../../domain/credentials.ts";
import { authPlugin } from "../../platform/http/auth.ts";
import { routeDeclaration } from "../../platform/http/route-declaration.ts";
import { pathNumber } from "../../platform/http/validation.ts";
import { CredentialWatch } from "./credential-watch.ts";
import { feedOperations } from "./feed-contract.ts";
import { FeedQuery, ZoneParams } from "./model.ts";
import type { EnforcementContext } from "./module-context.ts";
import { ZoneFeed } from "./zone-feed.ts";

/** The zone list, live: what the attendant page shows while a zone is picked. */
export function zoneFeedRoutes(ctx: EnforcementContext) {
  const feed = new ZoneFeed(ctx);
  const watch = new CredentialWatch(ctx.credentialState);
  const records = ctx.lookupRecorder;
  return new Elysia({ name: "zone-feed" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .get(
      "/api/v1/tickets/zone/:zone/events",
      ({ params, query, request, credential }) => {
        const zone = pathNumber(params.zone, "zone", 0);
        const label = credentialLabel(credential);
        const mode = query.changes === undefined ? "plates" : "changes";
        const { response, results } = feed.open(zone, label, request.headers.get("last-event-id"), mode, {
          credential,
          watch,
        });
        // One record per opened feed: the attendant asked for the zone once, the updates follow.
        records.record({
          at: ctx.now(),
          credential: label,
          by: "zone_list",
          query: String(zone),
          results,
          verdict: null,
          cameraRead: null,
        });
        return response;
      },
      {
        operation: feedOperations.streamZonePlates,
        auth: { scope: "permits:read" },
        params: ZoneParams,
        query: FeedQuery,
        detail: {
          summary: "The zone list as server-sent events: `plates` on connect and on every change",
          description:
            'An event `plates` carries the whole list `{"data": [plates]}` (as GET /api/v1/tickets/zone/{zone}) and its `id`, on connect and, by default, on every change. With `?changes=1` a change is sent as `event: changes` with `{"from", "added", "removed"}` instead: its cost follows the change, not the size of the zone. Reconnecting with Last-Event-ID gets nothing if the list is unchanged since, what changed since (with `?changes=1`, while that version is among the last 64 changes of the zone), or the whole list. A comment line every 10 s keeps the connection open and tells a handheld the box is alive (the web app says "not live" after 20 s without a byte). At most 8 open feeds per credential (429 beyond). When the credential ends (token revoked or expired, user deleted) each of its feeds gets a last event `ended` with `{"reason": "revoked" | "deleted" | "ended"}` and closes: at once when it ended through the API, within a second when another process (the CLI) ended it.',
          tags: ["attendant lookups"],
        },
      },
    );
}
