import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { REVENUE_GROUPS } from "../../../domain/reports/revenue.ts";

const SiteDay = (what: string) =>
  t.String({
    pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
    description: `${what}, a site-local date (YYYY-MM-DD), included`,
    errorMessage: "must be a date YYYY-MM-DD",
  });

export const RevenueQuery = t.Object({
  from: SiteDay("First day"),
  to: SiteDay("Last day"),
  group: t.Optional(
    t.String({
      pattern: `^(${REVENUE_GROUPS.join("|")})(,(${REVENUE_GROUPS.join("|")}))*$`,
      default: "day",
      description:
        "What a row sums: day, lot, zone or vat, or several joined by commas (day,vat); currency always",
      errorMessage: `must be ${REVENUE_GROUPS.join(", ")} or several of them joined by commas`,
    }),
  ),
});

export const RevenueCsvQuery = t.Object({
  ...RevenueQuery.properties,
  variant: t.Optional(
    t.UnionEnum(["se", "rfc4180"], {
      default: "se",
      description:
        "se: semicolons, decimal comma, UTF-8 with a byte order mark (opens right in a Swedish spreadsheet); rfc4180: commas and a decimal point",
      errorMessage: "must be se or rfc4180",
    }),
  ),
  totals: t.Optional(
    t.Boolean({
      description:
        "A last row per currency summing the rows above (Summa / total): true unless given in se, false unless given in rfc4180 (a script summing the column would count it twice)",
    }),
  ),
});

const Ore = (what: string) => Type.Integer({ description: `${what}, öre (cents)` });

export const RevenueRowView = t.Object({
  day: t.Optional(t.String({ description: "Site-local date the tickets started on" })),
  parking_lot_id: t.Optional(
    t.Union([Type.Integer(), t.Null()], { description: "null: tickets without a lot" }),
  ),
  zone: t.Optional(Type.Integer()),
  vat_rate: t.Optional(
    t.Union([Type.Integer(), t.Null()], { description: "Percent; null: no rate was sent" }),
  ),
  currency: t.String(),
  tickets: Type.Integer({ description: "Tickets counted (each once, canceled ones not)" }),
  net: Ore("Excluding VAT"),
  vat: Ore("VAT, the sum of each ticket's VAT"),
  gross: Ore("Including VAT"),
});

export const RevenueReport = t.Object({
  from: t.String(),
  to: t.String(),
  group: t.Array(t.UnionEnum([...REVENUE_GROUPS])),
  timezone: t.String({ description: "The site time zone the days are in" }),
  data: t.Array(RevenueRowView),
});
