import { Elysia } from "elysia";
import { authPlugin } from "../../../platform/http/auth.ts";
import { routeDeclaration } from "../../../platform/http/route-declaration.ts";
import type { AdminDeps } from "../deps.ts";
import { iso } from "../paging.ts";
import { occupancyOperations } from "./contract.ts";
import { HistoryQuery } from "./model.ts";
import { occupancyHistory, occupancyNow } from "./service.ts";

/**
 * Sent as ready JSON: a day of every lot on the bench store is 600 KB, and checking it against its
 * schema on the way out cost more than counting it. The shapes are in the contract (OccupancyNow,
 * OccupancyHistory) and checked by the route tests.
 */
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } });

/** How full each lot and zone is, now and over time (scope admin). */
export function occupancyRoutes(ctx: AdminDeps) {
  return new Elysia({ name: "occupancy" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .get(
      "/api/v1/occupancy",
      () => {
        const o = occupancyNow(ctx);
        return json({ ...o, at: iso(o.at) });
      },
      {
        operation: occupancyOperations.getOccupancy,
        auth: { scope: "admin" },
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
        return json({ ...h, from: iso(h.from), to: iso(h.to), at: h.at.map(iso) });
      },
      {
        operation: occupancyOperations.getOccupancyHistory,
        auth: { scope: "admin" },
        query: HistoryQuery,
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
