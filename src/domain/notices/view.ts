/**
 * A control notice as the API shows it, to the handheld that issued it (its receipt) and to the
 * operator (who also sees who issued it, its state and where its photos are served): one shape
 * and one view of the fields both see, so the two answers cannot drift apart. Pure: the stored
 * record in, the answer's fields out; the TypeBox shapes document and check the same.
 */
import { type Static, Type } from "@sinclair/typebox";
import { formatMicros } from "../time/zoned.ts";
import { NOTICE_VERDICTS, type NoticeVerdict } from "./rules.ts";

/**
 * What a stored notice holds: the store's record is this with its sync sequence. A type, not an
 * interface, so the store can bind it as named parameters.
 */
export type NoticeFacts = {
  id: string;
  number: number;
  plate: string;
  zone: number;
  lotId: number | null;
  verdict: NoticeVerdict;
  reasonCode: string;
  reasonTitle: string;
  amount: number;
  currency: string;
  note: string;
  observedAt: number;
  /** The mark that led to an OVER TIME LIMIT notice (null for other notices): see NoticeMark. */
  markSeenAt: number | null;
  markLimitSeconds: number | null;
  markedBy: string | null;
  issuedAt: number;
  issuedBy: string;
  voidedAt: number | null;
  voidedBy: string | null;
  voidReason: string | null;
};

/** A photo's record, as its views read it (the store's record adds the notice and the time). */
export type PhotoFacts = {
  hash: string;
  contentType: "image/jpeg" | "image/png";
  bytes: number;
  width: number;
  height: number;
};

export const NoticePhotoRef = Type.Object({
  hash: Type.String({ description: "SHA-256 of the photo, hex" }),
  content_type: Type.Union([Type.Literal("image/jpeg"), Type.Literal("image/png")]),
  bytes: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
});
export type NoticePhotoRef = Static<typeof NoticePhotoRef>;

/** The verdicts a reason's notices may follow: at least one, each once. */
export const ReasonVerdicts = (extra: { default?: NoticeVerdict[] } = {}) =>
  Type.Array(Type.Union([Type.Literal(NOTICE_VERDICTS[0]), Type.Literal(NOTICE_VERDICTS[1])]), {
    minItems: 1,
    uniqueItems: true,
    description:
      "The verdicts a notice under this reason may follow (none: NO VALID PERMIT; over_time_limit: OVER TIME LIMIT); the handheld offers the reason after these only",
    ...extra,
  });

/** The mark that led to an OVER TIME LIMIT notice, as it stood when the notice was stored. */
export const NoticeMark = Type.Object(
  {
    seen_at: Type.String({ description: "When the car was first seen in the zone that day" }),
    limit_seconds: Type.Integer({ description: "The zone's time limit when it was marked" }),
    marked_by: Type.String({ description: "The credential label of the handheld that marked it" }),
  },
  { description: "The mark that led to an OVER TIME LIMIT notice; null for a notice after another verdict" },
);

/** The fields of a notice that the handheld's receipt and the operator's view both carry. */
export const noticeFieldSchemas = {
  id: Type.String({ description: "The id the handheld made (a retry carries it again)" }),
  number: Type.Integer({ description: "The site's notice number: its own sequence, without gaps" }),
  registration_number: Type.String(),
  zone: Type.Integer(),
  parking_lot_id: Type.Union([Type.Integer(), Type.Null()]),
  verdict: Type.Union([Type.Literal(NOTICE_VERDICTS[0]), Type.Literal(NOTICE_VERDICTS[1])], {
    description: "The verdict it follows: NO VALID PERMIT (none) or OVER TIME LIMIT",
  }),
  reason: Type.String(),
  reason_title: Type.String(),
  amount: Type.Integer({ description: "Öre, from the site's table of reasons when it was issued" }),
  currency: Type.String(),
  note: Type.String(),
  observed_at: Type.String({ description: "When the attendant made it, by the phone's clock" }),
  mark: Type.Union([NoticeMark, Type.Null()], {
    description:
      "The mark that led to an OVER TIME LIMIT notice (the car's mark in the zone that day, made before the notice); null otherwise",
  }),
  issued_at: Type.String({ description: "When the box stored it" }),
};

// Every verdict a notice may follow is in the schema: a third one fails the type check here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const verdictsListed: Same<Static<typeof noticeFieldSchemas.verdict>, NoticeVerdict> = true;

/** A notice as the handheld that issued it gets it back. */
export const NoticeView = Type.Object({ ...noticeFieldSchemas, photos: Type.Array(NoticePhotoRef) });
export type NoticeView = Static<typeof NoticeView>;

export function photoRef(p: PhotoFacts): NoticePhotoRef {
  return { hash: p.hash, content_type: p.contentType, bytes: p.bytes, width: p.width, height: p.height };
}

/** The fields both views carry, photos aside. */
export function noticeFields(n: NoticeFacts): Omit<NoticeView, "photos"> {
  return {
    id: n.id,
    number: n.number,
    registration_number: n.plate,
    zone: n.zone,
    parking_lot_id: n.lotId,
    verdict: n.verdict,
    reason: n.reasonCode,
    reason_title: n.reasonTitle,
    amount: n.amount,
    currency: n.currency,
    note: n.note,
    observed_at: formatMicros(n.observedAt),
    mark:
      n.markSeenAt === null
        ? null
        : { seen_at: formatMicros(n.markSeenAt), limit_seconds: n.markLimitSeconds!, marked_by: n.markedBy! },
    issued_at: formatMicros(n.issuedAt),
  };
}

/** The handheld's receipt of a notice. */
export function noticeView(n: NoticeFacts, photos: readonly PhotoFacts[]): NoticeView {
  return { ...noticeFields(n), photos: photos.map(photoRef) };
}

/** The fields of a notice the change history keeps at its issue, as the API names them. */
export function noticeHistoryFields(n: NoticeFacts): Record<string, unknown> {
  return {
    id: n.id,
    registration_number: n.plate,
    zone: n.zone,
    parking_lot_id: n.lotId,
    verdict: n.verdict,
    reason: n.reasonCode,
    amount: n.amount,
    currency: n.currency,
    note: n.note,
    observed_at: formatMicros(n.observedAt),
  };
}
