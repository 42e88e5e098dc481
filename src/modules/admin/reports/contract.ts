import type { ApiContract, OperationContract } from "../../../platform/http/api-contract.ts";
import { RevenueReport, RevenueRowView } from "./model.ts";

const row = {
  day: "2026-06-15",
  currency: "SEK",
  tickets: 412,
  net: 1_318_400,
  vat: 329_600,
  gross: 1_648_000,
};

/** What the OpenAPI document says of the reports (api-contract.ts). */
export const reportsContract: ApiContract = {
  named: {
    RevenueRow: { schema: RevenueRowView, example: row },
    RevenueReport: {
      schema: RevenueReport,
      example: {
        from: "2026-06-15",
        to: "2026-06-15",
        group: ["day"],
        timezone: "Europe/Stockholm",
        data: [row],
      },
    },
  },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const reportsOperations = {
  getRevenueReport: {
    operationId: "getRevenueReport",
    tag: "reports",
    examples: { from: "2026-06-01", to: "2026-06-30" },
  },
  getRevenueReportCsv: {
    operationId: "getRevenueReportCsv",
    tag: "reports",
    examples: { from: "2026-06-01", to: "2026-06-30" },
    ok: {
      200: {
        description: "The report as CSV (a download); amounts in whole currency units with two decimals",
        contentType: "text/csv",
        schema: { type: "string" },
      },
    },
  },
} satisfies Record<string, OperationContract>;
