import type { Database } from "bun:sqlite";
import type { MigrationMeta } from "drizzle-orm/migrator";
import type { Db } from "./db.ts";
import { embeddedMigrations } from "./migrations.macro.ts" with { type: "macro" };

/** The schema's migrations, carried in the binary, and how far a store has come through them. */

const migrations: MigrationMeta[] = embeddedMigrations();

interface Migrator {
  dialect: { migrate(m: MigrationMeta[], session: unknown, config: { migrationsFolder: string }): void };
  session: unknown;
}

export function applyMigrations(db: Db): void {
  const m = db as unknown as Migrator;
  m.dialect.migrate(migrations, m.session, { migrationsFolder: "(embedded)" });
}

/** Number of migrations this build knows; the store's schema version once migrated. */
export const SCHEMA_VERSION = migrations.length;

export function appliedSchemaVersion(sqlite: Database): number {
  try {
    const row = sqlite.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number } | null;
    return row?.n ?? 0;
  } catch {
    return 0;
  }
}
