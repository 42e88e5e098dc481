import type { Database } from "bun:sqlite";
import { chmodSync, statSync } from "node:fs";

const UNAVAILABLE = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|PERM|NOMEM)/;

/**
 * A store that cannot take a write (disk full, read-only, I/O error, locked) is the box's
 * trouble, not the client's: 503, and the failed transaction has changed nothing.
 */
export function isStoreUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && UNAVAILABLE.test(code);
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

export function configureConnection(sqlite: Database): void {
  sqlite.run("PRAGMA busy_timeout = 5000");
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = FULL");
  sqlite.run("PRAGMA foreign_keys = ON");
}

/**
 * Whether the connection was opened read-only, found by a write that is rolled back: nothing
 * reaches the disk. SQLite opens a write-protected file read-only without saying so, and BEGIN
 * alone succeeds there; the first write is what fails. Any other failure (busy, full) is not this.
 */
export function isReadOnlyConnection(sqlite: Database): boolean {
  try {
    sqlite.run("BEGIN");
    try {
      sqlite.run("CREATE TABLE parkd_write_check (x)");
    } finally {
      sqlite.run("ROLLBACK");
    }
    return false;
  } catch (e) {
    return String((e as { code?: unknown })?.code ?? "").startsWith("SQLITE_READONLY");
  }
}

/**
 * SQLite gives a new -wal and -shm file the database file's permissions. Made while the database
 * file was write-protected, they stay so after it is fixed; give them its permissions back (they
 * are ours: this process made them). Failures are left for the next try.
 */
export function restoreSideFilePermissions(path: string): void {
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    return;
  }
  for (const side of [`${path}-wal`, `${path}-shm`]) {
    try {
      if ((statSync(side).mode & 0o777) !== mode) chmodSync(side, mode);
    } catch {}
  }
}
