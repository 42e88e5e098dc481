import { join } from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";

/**
 * Runs at bundle time (imported with `type: "macro"`), so the compiled binary carries its
 * migrations and needs no db/ folder beside it.
 */
export function embeddedMigrations() {
  return readMigrationFiles({ migrationsFolder: join(import.meta.dir, "../../../db/migrations") });
}
