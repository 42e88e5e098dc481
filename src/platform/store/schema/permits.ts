import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { PermitWindow } from "../../../domain/permits/activity.ts";
import { LOOKUP_KINDS } from "../lookup-kinds.ts";

export type { PermitWindow };

/**
 * What a permit grants, where and when: the same columns in the operator's permits and in the
 * office's as pulled (central_permits), so that one lookup reads both.
 */
export const permitTerms = () => ({
  plate: text().notNull(),
  plateNorm: text("plate_norm").notNull(),
  zone: integer().notNull(),
  startAt: integer("start_at").notNull(),
  /** null: open-ended. */
  endAt: integer("end_at"),
  note: text().notNull().default(""),
  /** JSON PermitWindow[]; null or empty: no weekly restriction. */
  days: text({ mode: "json" }).$type<PermitWindow[]>(),
});

/** Permits issued by the operator (residents, staff, contractors), beside ticket-derived ones. */
export const permits = sqliteTable(
  "permits",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    ...permitTerms(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("permits_plate_norm").on(t.plateNorm),
    index("permits_zone").on(t.zone, t.endAt),
    // The console's permit list sorts by start and by end too.
    index("permits_start").on(t.startAt),
    index("permits_end").on(t.endAt),
  ],
);

/** The plate index orders what was asked within stretches of 2^14 records by id (lookups.ts says why). */
export const LOOKUP_STRETCH_BITS = 14;

/** Who looked up what, when, and how many permits it got back. */
export const permitLookups = sqliteTable(
  "permit_lookups",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    at: integer().notNull(),
    credential: text().notNull(),
    by: text({
      enum: LOOKUP_KINDS,
    }).notNull(),
    /** The normalized plate or the zone number asked for; a verdict or a mark: `PLATE@ZONE`. */
    query: text().notNull(),
    results: integer().notNull(),
    /** A verdict's state (valid_here, grace, over_time_limit, valid_elsewhere, outside_hours, none); null otherwise. */
    verdict: text({
      enum: ["valid_here", "grace", "over_time_limit", "valid_elsewhere", "outside_hours", "none"],
    }),
    /**
     * A verdict asked for a plate the handheld's camera filled in: the plate as read (normalized),
     * which the attendant may have corrected before asking; null when the plate was typed.
     */
    cameraRead: text("camera_read"),
  },
  (t) => [
    index("permit_lookups_at").on(t.at),
    // The audit's filters: by what was asked (a plate; a verdict's PLATE@ZONE by its prefix) and by
    // who. What was asked is indexed within stretches of records: a batch of records lands in the
    // newest stretch's few pages, not in a random page per record of one index over the table.
    index("permit_lookups_plate").on(
      sql`(${t.id} >> ${sql.raw(String(LOOKUP_STRETCH_BITS))})`,
      t.query,
      t.id,
    ),
    index("permit_lookups_credential").on(t.credential, t.id),
    // The audit's kinds (plate checks, zone lists, ...): each kind's newest records in one seek.
    // Records are appended at the end of their kind's range: a few hot pages, not a random one.
    index("permit_lookups_by").on(t.by, t.id),
  ],
);
