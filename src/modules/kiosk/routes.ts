import { Elysia } from "elysia";
import { addressBucket, rateLimitOption } from "../../platform/http/rate-limit.ts";
import { metaOf } from "../../platform/http/request-meta.ts";
import { routeDeclaration } from "../../platform/http/route-declaration.ts";
import { boardLotIds, boardNow, siteOf } from "./board.ts";
import { kioskOperations } from "./contract.ts";
import type { KioskDeps } from "./deps.ts";
import { BoardFeed, boardJson } from "./feed.ts";
import { BoardQuery } from "./model.ts";

/**
 * The kiosk board's figures (public and read-only, as the lot list is): free spaces and the price
 * of the next hour per lot, once or as server-sent events. Nothing in them names a plate.
 */
export function kioskRoutes(ctx: KioskDeps) {
  const site = siteOf(ctx);
  const feed = new BoardFeed(ctx, site);
  return new Elysia({ name: "kiosk" })
    .use(routeDeclaration)
    .use(rateLimitOption)
    .get(
      "/api/v1/board",
      ({ query }) =>
        new Response(boardJson(boardNow(ctx, boardLotIds(query.lots), site)), {
          headers: { "content-type": "application/json", "cache-control": "no-store" },
        }),
      {
        operation: kioskOperations.getBoard,
        rateLimit: "address",
        query: BoardQuery,
        detail: {
          summary: "The kiosk board: free spaces and the price of the next hour, per lot",
          tags: ["parking lots"],
        },
      },
    )
    .get(
      "/api/v1/board/events",
      ({ query, request }) => {
        const client = ctx.trustedProxies.client(metaOf(request).ip, request.headers.get("x-forwarded-for"));
        return feed.stream(boardLotIds(query.lots), addressBucket(client));
      },
      {
        operation: kioskOperations.streamBoard,
        rateLimit: "address",
        query: BoardQuery,
        detail: {
          summary:
            "The kiosk board as server-sent events: `board` on connect and whenever its figures change",
          description:
            "Figures are read again after ticket writes (at most once a second) and every 30 s. An event `tick` every 5 s keeps the connection open and tells the page the box is there (a board that hears nothing for 12 s shows its figures as stale). At most 4 open streams from one client address (429 too-many-boards beyond) and 64 in all: at 64, a new stream ends the oldest stream of the address holding the most, when that address holds more than the new stream's would; else 429 too-many-boards. An ended board reconnects after 5 s (its `retry`).",
          tags: ["parking lots"],
        },
      },
    );
}
