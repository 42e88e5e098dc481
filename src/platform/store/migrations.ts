import type { Database } from "bun:sqlite";
import type { MigrationMeta } from "drizzle-orm/migrator";
import type { Db } from "./db.ts";
import { embeddedMigrations } from "./migrations.macro.ts" with { type: "macro" };

/** The migrations this build carries (db/migrations, embedded at bundle time), in order. */
export const MIGRATIONS: MigrationMeta[] = embeddedMigrations();

/** Number of migrations this build knows; the store's schema version once migrated. */
export const SCHEMA_VERSION = MIGRATIONS.length;

interface Migrator {
  dialect: { migrate(m: MigrationMeta[], session: unknown, config: { migrationsFolder: string }): void };
  session: unknown;
}

/**
 * Applies the pending migrations in one transaction (drizzle's migrator): all or none. A statement
 * that fails is what is thrown, not the ROLLBACK after it: SQLite has already rolled back on a full
 * disk, so drizzle's ROLLBACK then fails too and would hide the reason.
 */
export function applyMigrations(db: Db, migrations: readonly MigrationMeta[] = MIGRATIONS): void {
  const m = db as unknown as Migrator;
  const session = m.session as { run(q: unknown): unknown; values(q: unknown): unknown };
  let first: unknown;
  const watched = {
    run(q: unknown) {
      try {
        return session.run(q);
      } catch (e) {
        first ??= e;
        throw e;
      }
    },
    values: (q: unknown) => session.values(q),
  };
  try {
    m.dialect.migrate(migrations as MigrationMeta[], watched, { migrationsFolder: "(embedded)" });
  } catch (e) {
    throw first ?? e;
  }
}

export function appliedSchemaVersion(sqlite: Database): number {
  try {
    const row = sqlite.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number } | null;
    return row?.n ?? 0;
  } catch {
    return 0;
  }
}
