import { Elysia } from "elysia";
import { authPlugin } from "../../../platform/http/auth.ts";
import { routeDeclaration } from "../../../platform/http/route-declaration.ts";
import type { AdminDeps } from "../deps.ts";
import { reportsOperations } from "./contract.ts";
import { csvDownload, revenueCsv } from "./csv.ts";
import { RevenueCsvQuery, RevenueQuery, RevenueReport } from "./model.ts";
import { revenueReport } from "./service.ts";

/** The revenue report for the operator and the books (scope admin), as JSON or as a CSV download. */
export function revenueRoutes(ctx: AdminDeps) {
  return new Elysia({ name: "revenue-reports" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .get(
      "/api/v1/reports/revenue",
      ({ query }) => {
        const r = revenueReport(ctx, query);
        return {
          from: r.from,
          to: r.to,
          group: r.group,
          timezone: r.timezone,
          // The grouped dimensions first, in the order the groups are listed in the schema.
          data: r.rows.map(({ day, lotId, zone, vatRate, ...sums }) => ({
            ...(day === undefined ? {} : { day }),
            ...(lotId === undefined ? {} : { parking_lot_id: lotId }),
            ...(zone === undefined ? {} : { zone }),
            ...(vatRate === undefined ? {} : { vat_rate: vatRate }),
            ...sums,
          })),
        };
      },
      {
        operation: reportsOperations.getRevenueReport,
        auth: { scope: "admin" },
        query: RevenueQuery,
        response: RevenueReport,
        detail: {
          summary: "Revenue per day, lot, zone or VAT rate: net, VAT and gross in öre (docs/reports.md)",
          tags: ["reports"],
        },
      },
    )
    .get(
      "/api/v1/reports/revenue.csv",
      ({ query }) => {
        const r = revenueReport(ctx, query);
        const variant = query.variant ?? "se";
        const csv = revenueCsv(r.rows, r.group, variant, {
          lotName: (id) => ctx.store.lots.nameOf(id),
          totals: query.totals ?? variant === "se",
          timezone: ctx.config.timezone,
        });
        return csvDownload(csv, `revenue-${r.from}-${r.to}.csv`);
      },
      {
        operation: reportsOperations.getRevenueReportCsv,
        auth: { scope: "admin" },
        query: RevenueCsvQuery,
        detail: {
          summary: "The revenue report as CSV: Swedish spreadsheet form (se) or plain RFC 4180",
          tags: ["reports"],
        },
      },
    );
}
