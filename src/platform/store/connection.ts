import type { Database } from "bun:sqlite";
import { chmodSync, close, fdatasync, open, statSync } from "node:fs";

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
  return withoutSync(sqlite, () => sqlite.transaction(fn)());
}

/**
 * Runs `commits` (transactions) with synchronous=NORMAL: their commits do not wait for the disk.
 * The connection is back to synchronous=FULL before anything else runs on it.
 */
export function withoutSync<T>(sqlite: Database, commits: () => T): T {
  sqlite.run("PRAGMA synchronous = NORMAL");
  try {
    return commits();
  } finally {
    sqlite.run("PRAGMA synchronous = FULL");
  }
}

/**
 * Brings commits made without waiting for the disk (synchronous=NORMAL) to the disk off the event
 * loop: an fdatasync of the WAL file on the runtime's thread pool. With synchronous=FULL the
 * commit itself makes that sync, holding every request of the box for it; a writer that tells nobody
 * before `synced()` resolves has the same guarantee (WAL frames of a committed transaction,
 * synced, survive a power cut; a checkpoint in between syncs the WAL before it copies and the
 * database after), and the event loop serves meanwhile. One sync at a time: callers that come
 * while one runs wait for the next, which covers their commits; all of them share it.
 */
export class WalSync {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(
    private readonly walPath: string | null,
    private readonly syncWal: (path: string) => Promise<void> = syncFile,
  ) {}

  /** Resolves once everything committed before the call is on the disk. */
  synced(): Promise<void> {
    if (this.walPath === null) return Promise.resolve();
    if (this.running === null) {
      const run = this.syncWal(this.walPath).finally(() => {
        if (this.running === run) this.running = null;
      });
      this.running = run;
      return run;
    }
    // The sync under way may have started before the caller's commit: the next one covers it.
    this.queued ??= this.running
      .catch(() => {})
      .then(() => {
        this.queued = null;
        return this.synced();
      });
    return this.queued;
  }
}

/**
 * fdatasync of the file at `path`, on the thread pool (a descriptor of its own: the file may be
 * replaced). A failure is SQLite's own code for it, so that callers answer it as any store
 * that cannot write (isStoreUnavailable).
 */
function syncFile(path: string): Promise<void> {
  const failed = (cause: NodeJS.ErrnoException) =>
    Object.assign(
      new Error(`the store's log could not be synced to the disk: ${cause.code ?? cause.message}`),
      {
        code: "SQLITE_IOERR_FSYNC",
        cause,
      },
    );
  return new Promise((resolve, reject) => {
    open(path, "r", (opened, fd) => {
      if (opened) return reject(failed(opened));
      // As SQLite syncs its WAL itself: the data and the size, not the times.
      fdatasync(fd, (synced) => close(fd, () => (synced ? reject(failed(synced)) : resolve())));
    });
  });
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
