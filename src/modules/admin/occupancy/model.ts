import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { INSTANT_OR_DATE_PATTERN } from "../../../domain/time/zoned.ts";
import { wholeNumberParam } from "../../../platform/http/validation.ts";

const When = (what: string) =>
  t.String({
    minLength: 10,
    maxLength: 40,
    pattern: INSTANT_OR_DATE_PATTERN,
    description: `${what}: a date-time, or a date (the start of that day in the site time zone)`,
  });

export const HistoryQuery = t.Object({
  from: When("Start, included"),
  to: When("End, not included"),
  step: t.Optional(
    wholeNumberParam(
      "step",
      "query",
      5,
      1440,
      "Minutes between counts: 5 (the default) or a multiple of 5",
      5,
    ),
  ),
  lot: t.Optional(
    t.String({
      pattern: "^[0-9]{1,9}(,[0-9]{1,9}){0,49}$",
      description: "Only these lots (ids joined by commas), and their zones",
      errorMessage: "must be lot ids joined by commas",
    }),
  ),
});

const Counts = (what: string) => t.Array(Type.Integer(), { description: `${what}, one per step` });

export const LotNow = t.Object({
  id: Type.Integer(),
  name: t.Union([t.String(), t.Null()], { description: "null: tickets name this lot id, but no lot has it" }),
  zone: t.Union([Type.Integer(), t.Null()]),
  spaces: Type.Integer({ description: "number_of_spaces; 0: not counted" }),
  active: t.Boolean(),
  tickets: Type.Integer({ description: "Tickets in this lot now" }),
  free: t.Union([Type.Integer(), t.Null()], {
    description: "Spaces less tickets, at least 0; null without spaces",
  }),
  percent: t.Union([Type.Integer(), t.Null()], {
    description: "Tickets per space, in percent (over 100: over its spaces)",
  }),
});

export const ZoneNow = t.Object({
  zone: Type.Integer(),
  tickets: Type.Integer(),
  permits: Type.Integer({ description: "Operator and office permits valid now (weekly windows applied)" }),
});

export const OccupancyNow = t.Object({
  at: t.String({ format: "date-time" }),
  lots: t.Array(LotNow),
  zones: t.Array(ZoneNow),
});

export const OccupancyHistory = t.Object({
  from: t.String({ format: "date-time" }),
  to: t.String({ format: "date-time" }),
  step: Type.Integer({ description: "Minutes between counts" }),
  at: t.Array(t.String({ format: "date-time" }), { description: "The instants counted" }),
  lots: t.Array(
    t.Object({
      id: Type.Integer(),
      name: t.Union([t.String(), t.Null()]),
      zone: t.Union([Type.Integer(), t.Null()]),
      spaces: Type.Integer(),
      tickets: Counts("Tickets in the lot"),
    }),
  ),
  zones: t.Array(t.Object({ zone: Type.Integer(), tickets: Counts("Tickets"), permits: Counts("Permits") })),
  arrivals: Counts("Tickets that started within the step, all lots"),
});
