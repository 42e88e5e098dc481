import { Elysia } from "elysia";
import { holidayCalendar } from "../../domain/tariff/holidays.ts";
import { type Rendered, withEtag } from "../../platform/http/conditional.ts";
import { rateLimitOption } from "../../platform/http/rate-limit.ts";
import { routeDeclaration } from "../../platform/http/route-declaration.ts";
import { publicOperations } from "./contract.ts";
import type { PublicDeps } from "./deps.ts";
import { LotReads } from "./lot-reads.ts";
import { ListQuery, LotId, Quote, QuoteQuery } from "./model.ts";
import { quoteStay } from "./quote.ts";

// Kiosk and app pages served from other origins may read lots and quotes.
const ANY_ORIGIN = { "access-control-allow-origin": "*" };

const send = (request: Request, r: Rendered) => withEtag(request, r.etag, r.body, ANY_ORIGIN);

const TAGS = ["parking lots"];

/** The lots with their fees, one lot, and the price of a stay: no credential, limited per address. */
export function publicLotRoutes(deps: PublicDeps) {
  const lots = new LotReads(deps.store);
  const site = { timezone: deps.config.timezone, isHoliday: holidayCalendar(deps.config.holidays) };
  return new Elysia({ name: "public-lots" })
    .use(routeDeclaration)
    .use(rateLimitOption)
    .get("/api/v1/parkings", ({ request, query }) => send(request, lots.list(query.active)), {
      operation: publicOperations.listParkingLots,
      rateLimit: "address",
      query: ListQuery,
      detail: {
        summary: "All parking lots with fees, variable fees, opening hours and locations",
        tags: TAGS,
      },
    })
    .get("/api/v1/parkings/:id", ({ request, params }) => send(request, lots.one(params.id)), {
      operation: publicOperations.getParkingLot,
      rateLimit: "address",
      params: LotId,
      detail: { summary: "One parking lot", tags: TAGS },
    })
    .get(
      "/api/v1/parkings/:id/quote",
      ({ params, query, set }) => {
        Object.assign(set.headers, ANY_ORIGIN);
        return {
          data: quoteStay(lots.require(params.id), query.start, query.end, site, deps.config.currency),
        };
      },
      {
        operation: publicOperations.quoteParkingLot,
        rateLimit: "address",
        params: LotId,
        query: QuoteQuery,
        response: Quote,
        detail: {
          summary: "The price of parking on a lot from start to end",
          description:
            "Stays of at most 31 days are quoted (an hour more across the autumn clock change); a longer one is a 400 validation problem whose error names `/end`.",
          tags: TAGS,
        },
      },
    );
}
