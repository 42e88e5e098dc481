import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Timed observations ("chalking"): an attendant marks a car in a zone with a time limit; a later
 * check of the car there says how long ago it was first seen. One a car and site-local day: a
 * mark in another zone replaces it (the car moved), and a new day starts without it.
 */
export const observations = sqliteTable(
  "observations",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    plate: text().notNull(),
    plateNorm: text("plate_norm").notNull(),
    zone: integer().notNull(),
    /** The start of the site-local day it was made (ms): it counts that day only. */
    dayStart: integer("day_start").notNull(),
    firstSeenAt: integer("first_seen_at").notNull(),
    /** The zone's time limit when it was marked, in seconds. */
    limitSeconds: integer("limit_seconds").notNull(),
    note: text().notNull(),
    /** The credential label of the handheld that marked it. */
    markedBy: text("marked_by").notNull(),
    /**
     * The id the phone made for the mark (null for a client that sends none): a mark sent again
     * after its answer was lost is answered with this row, not stored twice.
     */
    markId: text("mark_id"),
  },
  (t) => [
    uniqueIndex("observations_car").on(t.plateNorm, t.dayStart),
    uniqueIndex("observations_mark_id").on(t.markId),
    // The saved list's read: a zone's cars this day.
    index("observations_zone").on(t.zone, t.dayStart),
    // Retention's read.
    index("observations_seen").on(t.firstSeenAt),
  ],
);
