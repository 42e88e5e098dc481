import { Elysia } from "elysia";
import type { AppContext } from "../../../context.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import { iso } from "../paging.ts";
import { HistoryQuery, OccupancyHistory, OccupancyNow } from "./model.ts";
import { occupancyHistory, occupancyNow } from "./service.ts";

/** How full each lot and zone is, now and over time (scope admin). */
export function occupancyRoutes(ctx: AppContext) {
  return new Elysia({ name: "occupancy" })
    .use(authPlugin(ctx))
    .get(
      "/api/v1/occupancy",
      () => {
        const o = occupancyNow(ctx);
        return { ...o, at: iso(o.at) };
      },
      {
        auth: { scope: "admin" },
        response: OccupancyNow,
        detail: {
          summary: "Tickets and permits now, per lot and zone; free spaces where a lot has spaces",
          tags: ["reports"],
        },
      },
    )
    .get(
      "/api/v1/occupancy/history",
      ({ query }) => {
        const h = occupancyHistory(ctx, query);
        return { ...h, from: iso(h.from), to: iso(h.to), at: h.at.map(iso) };
      },
      {
        auth: { scope: "admin" },
        query: HistoryQuery,
        response: OccupancyHistory,
        detail: {
          summary:
            "Tickets per lot and zone (and permits per zone) at every step of a range, from the tickets held",
          description:
            "At most 31 days and 2016 steps; history goes back as far as the tickets are kept (--retention-days).",
          tags: ["reports"],
        },
      },
    );
}
