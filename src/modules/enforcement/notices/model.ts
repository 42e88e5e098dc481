import { Type } from "@sinclair/typebox";
import { type Static, t } from "elysia";
import {
  NOTE_MAX,
  NOTICE_ID_PATTERN,
  NOTICE_ID_WORDS,
  NOTICE_VERDICTS,
  REASON_CODE_PATTERN,
} from "../../../domain/notices/rules.ts";
import { NoticePhotoRef, NoticeView, ReasonVerdicts } from "../../../domain/notices/view.ts";
import { INSTANT_PATTERN } from "../../../domain/time/zoned.ts";
import { ZONE_MAX } from "../../../domain/zones.ts";

/** A notice as the handheld sends it, made on the phone (possibly offline, sent later). */
export const NoticeInput = t.Object({
  id: t.String({
    pattern: NOTICE_ID_PATTERN,
    description: `${NOTICE_ID_WORDS}; sending the same notice again is answered with the stored one`,
  }),
  registration_number: t.String({ minLength: 1, maxLength: 32 }),
  zone: Type.Integer({ minimum: 0, maximum: ZONE_MAX }),
  parking_lot_id: t.Optional(t.Union([Type.Integer({ minimum: 1 }), t.Null()])),
  verdict: t.UnionEnum(NOTICE_VERDICTS, {
    description: "The verdict the notice follows: NO VALID PERMIT (none) or OVER TIME LIMIT",
  }),
  reason: t.String({
    pattern: REASON_CODE_PATTERN,
    description: "A code from the site's active reasons whose verdicts include this notice's verdict",
  }),
  note: t.Optional(t.String({ maxLength: NOTE_MAX })),
  observed_at: t.String({
    pattern: INSTANT_PATTERN,
    description:
      "When the attendant made it: an ISO 8601 date-time (a date alone is refused), by the phone's clock; without an offset, the site's time",
  }),
});
export type NoticeInput = Static<typeof NoticeInput>;

/** The notice as stored: the one view of a notice (src/domain/notices/view.ts). */
export const NoticeReceipt = t.Object({ data: NoticeView });
export type NoticeReceipt = Static<typeof NoticeReceipt>;

export const NoticeIdParams = t.Object({
  id: t.String({ description: "The notice's id (made on the phone)" }),
});

export const PhotoReceipt = t.Object({ data: NoticePhotoRef });

export const AttendantReasons = t.Object({
  data: t.Array(
    t.Object({
      code: t.String(),
      title: t.String(),
      amount: Type.Integer({ description: "Öre" }),
      verdicts: ReasonVerdicts(),
    }),
    {
      description:
        "The site's active reasons, by code; a notice after a verdict may name only a reason whose verdicts include it",
    },
  ),
  currency: t.String(),
});
export type AttendantReasons = Static<typeof AttendantReasons>;
