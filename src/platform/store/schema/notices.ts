import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { NOTICE_VERDICTS, type NoticeVerdict } from "../../../domain/notices/rules.ts";

/**
 * The site's table of reasons a control notice is issued for, with their amounts. An operator
 * retires a reason (active = 0) rather than deleting it: the notices issued under it name it.
 */
export const noticeReasons = sqliteTable("notice_reasons", {
  code: text().primaryKey(),
  title: text().notNull(),
  /** Öre. */
  amount: integer().notNull(),
  active: integer({ mode: "boolean" }).notNull(),
  /** The verdicts a notice under it may follow (a JSON array): the handheld offers it after these. */
  verdicts: text({ mode: "json" })
    .$type<NoticeVerdict[]>()
    .notNull()
    .default([...NOTICE_VERDICTS]),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Control notices as attendants issue them. `id` is made by the phone, so a notice sent again
 * after a lost answer is recognised; `number` is the site's own sequence (notice_sequence), handed
 * out in the transaction that stores the notice, so it has no gaps. The reason's title and amount
 * are copied: a later change to the table does not change an issued notice.
 */
export const notices = sqliteTable(
  "notices",
  {
    id: text().primaryKey(),
    number: integer().notNull(),
    plate: text().notNull(),
    plateNorm: text("plate_norm").notNull(),
    zone: integer().notNull(),
    lotId: integer("lot_id"),
    verdict: text({ enum: ["none", "over_time_limit"] }).notNull(),
    reasonCode: text("reason_code").notNull(),
    reasonTitle: text("reason_title").notNull(),
    /** Öre. */
    amount: integer().notNull(),
    currency: text().notNull(),
    note: text().notNull(),
    /** When the attendant made it, by the phone's clock (it may have waited offline). */
    observedAt: integer("observed_at").notNull(),
    /**
     * The mark that led to an OVER TIME LIMIT notice, as it stood when the notice was stored (the
     * mark itself is replaced when the car moves, and deleted by retention): when the car was
     * first seen, the zone's limit then, and who marked it. Null for other notices.
     */
    markSeenAt: integer("mark_seen_at"),
    markLimitSeconds: integer("mark_limit_seconds"),
    markedBy: text("marked_by"),
    /** When the box stored it. */
    issuedAt: integer("issued_at").notNull(),
    /** The credential label of the handheld that issued it. */
    issuedBy: text("issued_by").notNull(),
    voidedAt: integer("voided_at"),
    voidedBy: text("voided_by"),
    voidReason: text("void_reason"),
    /** Moves on every write (issue, void, photo): the office sync sends rows past its cursor again. */
    syncSeq: integer("sync_seq").notNull(),
  },
  (t) => [
    uniqueIndex("notices_number").on(t.number),
    uniqueIndex("notices_sync_seq").on(t.syncSeq),
    index("notices_issued_at").on(t.issuedAt),
    index("notices_plate").on(t.plateNorm, t.number),
    index("notices_issued_by").on(t.issuedBy, t.number),
    index("notices_reason").on(t.reasonCode, t.number),
  ],
);

/** A notice's photos: the files are in the data folder's photos/, named by their SHA-256. */
export const noticePhotos = sqliteTable(
  "notice_photos",
  {
    noticeId: text("notice_id").notNull(),
    /** SHA-256 of the file, hex. */
    hash: text().notNull(),
    contentType: text("content_type", { enum: ["image/jpeg", "image/png"] }).notNull(),
    bytes: integer().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    addedAt: integer("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.noticeId, t.hash] }), index("notice_photos_hash").on(t.hash)],
);

/** The site's notice sequence and the notices' sync sequence: one row each, kept past retention. */
export const noticeCounters = sqliteTable("notice_counters", {
  name: text().primaryKey(),
  last: integer().notNull(),
});
