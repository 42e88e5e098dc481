import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { permitTerms } from "./permits.ts";

/**
 * How far the sync with the office got, one row per stream: "events", "lookups", "notices" and
 * "observations" (the last seq/id the office has stored, a notice's its sync_seq), "photos" (the
 * last notice photo file sent, "sync_seq:hash"), "lots" (a fingerprint of the lots last pushed),
 * "permits" (the office's transaction horizon of the last pull). Values are text: the horizon is
 * a 64-bit id.
 */
export const syncCursors = sqliteTable("sync_cursors", {
  stream: text().primaryKey(),
  value: text().notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Permits issued at the office that are valid at this site, as last pulled: the lookups serve
 * them beside the box's own, and they stay when the link to the office is down.
 */
export const centralPermits = sqliteTable(
  "central_permits",
  {
    /** The office's permit id. */
    id: integer().primaryKey(),
    ...permitTerms(),
    pulledAt: integer("pulled_at").notNull(),
  },
  (t) => [
    index("central_permits_plate_norm").on(t.plateNorm),
    index("central_permits_zone").on(t.zone, t.endAt),
  ],
);
