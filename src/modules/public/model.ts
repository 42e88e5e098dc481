import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { ID_MAX } from "../../domain/zones.ts";
import { wholeNumberParam } from "../../platform/http/validation.ts";
import { QUOTE_INSTANT_PATTERN } from "./quote.ts";

/** What the public lot reads and quotes take and answer beyond the lot's shapes (src/domain/lots/schema.ts). */

const Int = Type.Integer;
const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

export const LotId = t.Object({ id: wholeNumberParam("id", "params", 1, ID_MAX) });
export const ListQuery = t.Object({
  active: t.Optional(t.Boolean({ description: "true: active lots only; false: inactive only" })),
});
const QuoteInstant = (then: string) =>
  t.String({
    pattern: QUOTE_INSTANT_PATTERN,
    description: `a date-time or a date in ISO 8601, such as 2026-06-15T10:00:00+02:00 or 2026-06-15 (in a query string, + may be written %2B); without an offset it is wall time in the site time zone${then}`,
  });
export const QuoteQuery = t.Object({
  start: QuoteInstant(""),
  end: QuoteInstant(
    "; not before start, and at most 31 days after it (an hour more across the autumn clock change); a longer stay is a 400 naming `/end`",
  ),
});

export const QuoteLine = t.Object({
  from: t.String(),
  to: t.String(),
  amount: Int(),
  source: t.UnionEnum(["fee", "variable_fee", "free"]),
  fee_ids: t.Array(Int()),
  type_of_day: Nullable(Int()),
  cost_per_unit: Nullable(Int()),
  unit: Nullable(Int()),
  round: Nullable(t.Boolean()),
  minutes: Int(),
  units: t.Number(),
});
export const Quote = t.Object({
  data: t.Object({
    amount_incl_vat: Int(),
    currency_code: t.String(),
    capped_by_max_fee: t.Boolean(),
    exceeds_max_time: t.Boolean(),
    amount_before_cap: Int(),
    start: t.String(),
    end: t.String(),
    breakdown: t.Array(QuoteLine),
  }),
});
