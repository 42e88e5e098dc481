import { Type } from "@sinclair/typebox";
import { type Static, t } from "elysia";
import { REASON_CODE_PATTERN, VOID_REASON_MAX } from "../../../domain/notices/rules.ts";
import { NoticePhotoRef, noticeFieldSchemas, ReasonVerdicts } from "../../../domain/notices/view.ts";
import { wholeNumberParam } from "../../../platform/http/validation.ts";
import { CursorParam } from "../paging.ts";

const instantOrNull = t.Union([t.String(), t.Null()]);

export const NoticePhoto = t.Object({
  ...NoticePhotoRef.properties,
  url: t.String({ description: "Where the photo itself is served" }),
});

/** The one view of a notice (src/domain/notices/view.ts), with what only the operator sees. */
export const Notice = t.Object({
  ...noticeFieldSchemas,
  parking_lot_name: t.Union([t.String(), t.Null()], {
    description: "The lot's name as it is now; null without a lot, or when the lot was deleted",
  }),
  issued_by: t.String({ description: "The handheld's credential label" }),
  state: t.UnionEnum(["issued", "voided"]),
  voided_at: instantOrNull,
  voided_by: t.Union([t.String(), t.Null()]),
  void_reason: t.Union([t.String(), t.Null()]),
  photos: t.Array(NoticePhoto),
});
export type Notice = Static<typeof Notice>;

export const NoticeEnvelope = t.Object({ data: Notice });

const filters = {
  registration_number: t.Optional(
    t.String({ minLength: 1, maxLength: 32, description: "A plate, any spacing or case" }),
  ),
  attendant: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 100,
      description: "The handheld's credential label, e.g. token:handheld-1",
    }),
  ),
  reason: t.Optional(t.String({ pattern: REASON_CODE_PATTERN, description: "A reason's code" })),
  state: t.Optional(t.String({ pattern: "^(issued|voided)$", description: "issued or voided" })),
  from: t.Optional(t.String({ description: "ISO 8601 (a date: its start on site); issued at or after it" })),
  to: t.Optional(t.String({ description: "ISO 8601 (a date: its start on site); issued before it" })),
};

export const NoticeQuery = t.Object({
  ...filters,
  cursor: CursorParam,
  limit: t.Optional(wholeNumberParam("limit", "query", 1, 200, "Notices a page (50 unless given)")),
});
export type NoticeQuery = Static<typeof NoticeQuery>;

export const NoticeCsvQuery = t.Object({
  ...filters,
  variant: t.Optional(
    t.String({
      pattern: "^(se|rfc4180)$",
      description: "se (default): semicolons, decimal commas; rfc4180: commas",
    }),
  ),
});
export type NoticeCsvQuery = Static<typeof NoticeCsvQuery>;

export const NoticePage = t.Object({
  data: t.Array(Notice, { description: "Newest number first" }),
  next_cursor: t.Union([t.String(), t.Null()], { description: "null on the last page" }),
});

/** A notice's number: the site's, printed on it, from 1 up (the store's numbers are 32-bit). */
const NoticeNumber = () => wholeNumberParam("number", "params", 1, 2_147_483_647, "The notice's number");
export const NoticeNumberParams = t.Object({ number: NoticeNumber() });
export const NoticePhotoParams = t.Object({
  number: NoticeNumber(),
  hash: t.String({ pattern: "^[0-9a-f]{64}$", description: "The photo's SHA-256, 64 lowercase hex digits" }),
});

export const VoidInput = t.Object({
  reason: t.String({ minLength: 1, maxLength: VOID_REASON_MAX, description: "Why it is void (recorded)" }),
});

export const NoticeReason = t.Object({
  code: t.String(),
  title: t.String(),
  amount: Type.Integer({ description: "Öre" }),
  active: t.Boolean({
    description: "Offered to handhelds; retired reasons stay for the notices that name them",
  }),
  verdicts: ReasonVerdicts(),
  created_at: t.String(),
  updated_at: t.String(),
});

export const NoticeReasonList = t.Object({ data: t.Array(NoticeReason), currency: t.String() });
export const NoticeReasonEnvelope = t.Object({ data: NoticeReason });

export const NoticeReasonInput = t.Object({
  code: t.String({ pattern: REASON_CODE_PATTERN, description: "Lower-case letters, digits, - and _" }),
  title: t.String({ minLength: 1, maxLength: 200 }),
  amount: Type.Integer({ minimum: 0, maximum: 100_000_000, description: "Öre" }),
  active: t.Optional(t.Boolean({ default: true })),
  verdicts: t.Optional(ReasonVerdicts({ default: ["none", "over_time_limit"] })),
});
export type NoticeReasonInput = Static<typeof NoticeReasonInput>;

export const NoticeReasonPatch = t.Object({
  title: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
  amount: t.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
  active: t.Optional(t.Boolean()),
  verdicts: t.Optional(ReasonVerdicts()),
});
export type NoticeReasonPatch = Static<typeof NoticeReasonPatch>;

export const ReasonCodeParams = t.Object({ code: t.String({ description: "The reason's code" }) });
