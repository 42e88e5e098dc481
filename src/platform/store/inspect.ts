/**
 * The store as `parkd doctor` sees it: opened read-only, never migrated, never written. SQLite
 * may make the -wal and -shm side files a WAL store reads through; run as root, it gives them the
 * store file's owner, so a look by root does not lock the service user out.
 */
import { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { STORE_FILE, Store, storePath } from "./db.ts";
import { MIGRATIONS } from "./migrations.ts";
import * as schema from "./schema/index.ts";
import { type SchemaState, schemaState } from "./upgrade.ts";

export interface StoreInspection {
  store: Store;
  /** PRAGMA quick_check's lines: ["ok"] when the store is whole. */
  quickCheck: string[];
  schema: SchemaState;
  /** This binary's schema version. */
  known: number;
  storeBytes: number;
  walBytes: number;
}

function size(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Opens the store in dataDir read-only; throws when there is none or SQLite cannot read it. */
export function inspectStore(dataDir: string): StoreInspection {
  const path = storePath(dataDir);
  statSync(path); // ENOENT before SQLite would say "unable to open"
  const sqlite = new Database(path, { readonly: true, strict: true });
  try {
    sqlite.run("PRAGMA busy_timeout = 5000");
    const quickCheck = (sqlite.query("PRAGMA quick_check").all() as { quick_check: string }[]).map(
      (r) => r.quick_check,
    );
    const store = new Store(path, dataDir, sqlite, drizzle({ client: sqlite, schema }));
    return {
      store,
      quickCheck,
      schema: schemaState(sqlite, MIGRATIONS),
      known: MIGRATIONS.length,
      storeBytes: size(path),
      walBytes: size(`${path}-wal`),
    };
  } catch (e) {
    sqlite.close(false);
    throw e;
  }
}

export { STORE_FILE };
