import { integer, sqliteTable } from "drizzle-orm/sqlite-core";

/** One row, rewritten by /readyz: proof that the store can still commit. */
export const storeProbe = sqliteTable("store_probe", {
  id: integer().primaryKey(),
  checkedAt: integer("checked_at").notNull(),
});
