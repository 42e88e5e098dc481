import type { Database } from "bun:sqlite";

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
