/**
 * The store a restore set aside (`parkd.db.before-restore-<UTC time>`, one kept): the store as it
 * was before the latest restore, which a technician may restore back. Its notices' photo files
 * stay in `photos/` (a restore leaves the files there), so they are not leftovers to sweep.
 */
import { Database } from "bun:sqlite";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { STORE_FILE } from "./lock.ts";
import { NoticeRecords } from "./notices.ts";
import * as schema from "./schema/index.ts";

export const ASIDE_PREFIX = `${STORE_FILE}.before-restore-`;

/** The stores set aside in dataDir (their main files, not their -wal or -shm). */
export function asideStores(dataDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dataDir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(ASIDE_PREFIX) && !/-(wal|shm)$/.test(n))
    .map((n) => join(dataDir, n));
}

/**
 * The photo hashes the stores set aside name; null when one of them cannot be read (then no
 * file may be taken for a leftover).
 */
export function photoHashesAside(dataDir: string): Set<string> | null {
  const hashes = new Set<string>();
  for (const file of asideStores(dataDir)) {
    let db: Database | undefined;
    try {
      db = new Database(file, { readonly: true });
      const has = db
        .query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'notice_photos'")
        .get();
      if (has)
        for (const h of new NoticeRecords(db, drizzle({ client: db, schema })).photoHashes()) hashes.add(h);
    } catch {
      return null;
    } finally {
      db?.close(false);
    }
  }
  return hashes;
}
