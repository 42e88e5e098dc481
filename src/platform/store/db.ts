import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import type { MigrationMeta } from "drizzle-orm/migrator";
import { embeddedMigrations } from "./migrations.macro.ts" with { type: "macro" };
import * as schema from "./schema/index.ts";

export type Db = BunSQLiteDatabase<typeof schema>;

export interface Store {
  /** Absolute path of the SQLite file. */
  path: string;
  dataDir: string;
  sqlite: Database;
  db: Db;
  close(): void;
}

/**
 * Runs `fn` in one transaction committed without waiting for the disk. For records whose loss
 * on a power cut is acceptable (lookup records, last-used times): in WAL mode the commit is
 * safe against corruption and is made durable by the next synchronous commit or checkpoint,
 * and it spares the event loop an fsync. Earlier commits stay durable; the connection returns
 * to synchronous=FULL before anything else runs on it.
 */
export function commitRelaxed<T>(sqlite: Database, fn: () => T): T {
  sqlite.run("PRAGMA synchronous = NORMAL");
  try {
    return sqlite.transaction(fn)();
  } finally {
    sqlite.run("PRAGMA synchronous = FULL");
  }
}

export const STORE_FILE = "parkd.db";
const migrations: MigrationMeta[] = embeddedMigrations();

export function storePath(dataDir: string): string {
  return join(resolve(dataDir), STORE_FILE);
}

/**
 * Opens (creating if needed) the store in dataDir and brings its schema up to date.
 * WAL with synchronous=FULL: a commit is on disk before we answer, so an acknowledged
 * event survives a power cut.
 */
export function openStore(dataDir: string, opts: { migrate?: boolean } = {}): Store {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, STORE_FILE);
  const sqlite = new Database(path, { create: true, strict: true });
  configureConnection(sqlite);
  const db = drizzle({ client: sqlite, schema });
  if (opts.migrate !== false) applyMigrations(db);
  return {
    path,
    dataDir: dir,
    sqlite,
    db,
    close() {
      sqlite.close(false);
    },
  };
}

/** An in-memory store for tests: same schema, same pragmas where they apply. */
export function openMemoryStore(): Store {
  const sqlite = new Database(":memory:", { strict: true });
  configureConnection(sqlite);
  const db = drizzle({ client: sqlite, schema });
  applyMigrations(db);
  return { path: ":memory:", dataDir: ":memory:", sqlite, db, close: () => sqlite.close(false) };
}

function configureConnection(sqlite: Database): void {
  sqlite.run("PRAGMA busy_timeout = 5000");
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = FULL");
  sqlite.run("PRAGMA foreign_keys = ON");
}

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
