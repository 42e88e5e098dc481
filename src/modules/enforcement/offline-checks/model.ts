import { Type } from "@sinclair/typebox";
import { type Static, t } from "elysia";
import { ZONE_MAX } from "../../../domain/zones.ts";
import { VERDICT_STATES } from "../model.ts";

/** Checks sent at most in one request: about an hour's round offline, and a body of some 20 KB. */
export const OFFLINE_CHECKS_MAX = 200;

/** What a handheld answered from its saved list while the box did not answer. */
export const OfflineCheck = t.Object(
  {
    registration_number: t.String({ minLength: 1, maxLength: 32, description: "The plate as checked" }),
    zone: Type.Integer({ minimum: 0, maximum: ZONE_MAX, description: "The zone judged" }),
    checked_at: t.String({
      description:
        "When the handheld answered (ISO 8601, its clock set by the box's Date): at most 2 minutes ahead of the box's clock, and within the lookup records' retention",
    }),
    verdict: t.UnionEnum([...VERDICT_STATES, "not_in_list"], {
      description:
        "What the handheld said: a verdict's state, or not_in_list (the plate was not in the zone's saved list)",
    }),
    list_taken_at: t.String({ description: "When the saved list it judged from was taken (ISO 8601)" }),
    camera_read: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 32,
        description:
          "The plate as the handheld's camera read it, when the camera filled the plate field (the attendant may have corrected it before checking); left out when the plate was typed",
      }),
    ),
  },
  { additionalProperties: false },
);
export type OfflineCheck = Static<typeof OfflineCheck>;

export const OfflineChecks = t.Object({
  checks: t.Array(OfflineCheck, { minItems: 1, maxItems: OFFLINE_CHECKS_MAX }),
});
export type OfflineChecks = Static<typeof OfflineChecks>;

export const OfflineChecksReceipt = t.Object({
  recorded: Type.Integer({ description: "Checks recorded now" }),
  already: Type.Integer({
    description: "Checks recorded before (the same handheld, plate, zone and instant): a batch sent again",
  }),
});
export type OfflineChecksReceipt = Static<typeof OfflineChecksReceipt>;
