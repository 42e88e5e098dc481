import { invalid } from "../../../domain/errors.ts";
import {
  groupRevenue,
  REVENUE_GROUPS,
  type RevenueGroup,
  type RevenueRow,
} from "../../../domain/reports/revenue.ts";
import type { AdminDeps } from "../deps.ts";

/** The longest range one report covers: a year and a day (a leap year's report runs to its last day). */
const MAX_DAYS = 367;

export interface RevenueAnswer {
  from: string;
  to: string;
  group: RevenueGroup[];
  timezone: string;
  rows: RevenueRow[];
}

const dayNumber = (day: string): number => {
  const t = Date.parse(`${day}T00:00:00Z`);
  // Date.parse rolls 2026-02-30 over into March; a real date formats back to itself.
  return Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== day ? Number.NaN : t / 86_400_000;
};

/** The revenue report from the book (docs/reports.md); the range is checked before anything is read. */
export function revenueReport(
  ctx: AdminDeps,
  q: { from: string; to: string; group?: string },
): RevenueAnswer {
  const from = dayNumber(q.from);
  const to = dayNumber(q.to);
  if (Number.isNaN(from))
    throw invalid([{ pointer: "/from", message: "must be a date that exists", in: "query" }]);
  if (Number.isNaN(to))
    throw invalid([{ pointer: "/to", message: "must be a date that exists", in: "query" }]);
  if (to < from) throw invalid([{ pointer: "/to", message: "must not be before from", in: "query" }]);
  if (to - from >= MAX_DAYS)
    throw invalid([{ pointer: "/to", message: `must be at most ${MAX_DAYS} days after from`, in: "query" }]);
  const group = [...new Set((q.group ?? "day").split(","))] as RevenueGroup[];
  group.sort((a, b) => REVENUE_GROUPS.indexOf(a) - REVENUE_GROUPS.indexOf(b));
  const { timezone, currency } = ctx.config;
  const book = ctx.store.reports.revenue;
  book.ensureBasis(timezone, currency, ctx.now());
  return {
    from: q.from,
    to: q.to,
    group,
    timezone,
    rows: groupRevenue(book.sums(q.from, q.to, group), group),
  };
}
