import { Type } from "@sinclair/typebox";
import { t } from "elysia";

export const BoardQuery = t.Object({
  lots: t.Optional(
    t.String({
      maxLength: 300,
      description: "Lot ids joined by commas (up to 24); absent: every active lot",
    }),
  ),
});

export const BoardView = t.Object({
  at: t.String({ format: "date-time", description: "When these figures were read" }),
  currency: t.String(),
  lots: t.Array(
    t.Object({
      id: Type.Integer(),
      name: t.String(),
      free: t.Union([Type.Integer(), t.Null()], {
        description: "Free spaces; null: the lot does not count its spaces",
      }),
      full: t.Boolean(),
      price_per_hour: Type.Integer({ description: "What the next hour from now costs, cents incl. VAT" }),
    }),
  ),
});
