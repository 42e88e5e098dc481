import { Type } from "@sinclair/typebox";
import { type Static, t } from "elysia";
import { NOTE_MAX, NOTICE_ID_PATTERN, NOTICE_ID_WORDS } from "../../../domain/notices/rules.ts";
import { ZONE_MAX } from "../../../domain/zones.ts";

/** A car an attendant marks in the zone where it stands. */
export const MarkInput = t.Object({
  id: t.Optional(
    t.String({
      pattern: NOTICE_ID_PATTERN,
      description: `${NOTICE_ID_WORDS}; the same mark sent again (its answer lost, or kept offline and sent later) is answered with the stored one`,
    }),
  ),
  registration_number: t.String({ minLength: 1, maxLength: 32 }),
  zone: Type.Integer({ minimum: 0, maximum: ZONE_MAX, description: "The zone the attendant stands in" }),
  note: t.Optional(
    t.String({
      maxLength: NOTE_MAX,
      description: "What the attendant noted: valve positions, a description",
    }),
  ),
  marked_at: t.Optional(
    t.String({
      description:
        "When the attendant marked the car (ISO 8601), by the phone's clock: the first-seen time. At most 2 minutes ahead of the box's clock (then the box's time) and not before today (site time); without it, the box's clock",
    }),
  ),
});
export type MarkInput = Static<typeof MarkInput>;

export const ObservationReceipt = t.Object({
  data: t.Object({
    registration_number: t.String({ description: "The plate as it was first marked today" }),
    zone: Type.Integer(),
    first_seen_at: t.String({ description: "When the car was first marked in this zone today" }),
    limit_seconds: Type.Integer({ description: "The zone's time limit when it was marked" }),
    over_limit_at: t.String({ description: "From when it is over the limit" }),
    note: t.String(),
    marked_by: t.String({ description: "The credential of the handheld that marked it" }),
  }),
});
export type ObservationReceipt = Static<typeof ObservationReceipt>;
