import { blob, integer, sqliteTable } from "drizzle-orm/sqlite-core";

/**
 * Rewritten by /readyz: proof that the store can still commit. Row 1 is the usual small write;
 * row 2 carries `pad`, as many bytes as the largest request body, written while the last write
 * failed, to tell when a write of that size fits again.
 */
export const storeProbe = sqliteTable("store_probe", {
  id: integer().primaryKey(),
  checkedAt: integer("checked_at").notNull(),
  pad: blob(),
});
