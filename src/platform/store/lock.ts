import { Database } from "bun:sqlite";
import { accessSync, constants, existsSync, mkdirSync, statfsSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * One `serve` per data folder. The lock is an exclusive SQLite transaction held on a side
 * file for the life of the process: the OS drops it when the process dies, even on kill -9,
 * so a crash never leaves a stale lock behind.
 */
export interface ServeLock {
  release(): void;
}

export class LockHeldError extends Error {}

/** The data folder cannot be used at all (read-only, full, no permission): not another serve. */
export class DataFolderError extends Error {}

const LOCK_FILE = "serve.lock";

/**
 * Only SQLITE_BUSY means another process holds the lock; anything else is the folder's own
 * trouble, told as what it is, so a technician does not go looking for a second serve.
 */
export function folderTrouble(dir: string, e: unknown): DataFolderError {
  const code = String((e as { code?: unknown })?.code ?? "");
  try {
    accessSync(dir, constants.W_OK);
  } catch (access) {
    const why = (access as { code?: string }).code;
    if (why === "EROFS")
      return new DataFolderError(
        `data folder ${dir} is on a read-only file system; parkd needs to write there`,
      );
    if (why === "EACCES" || why === "EPERM")
      return new DataFolderError(
        `data folder ${dir} is not writable by this user; parkd needs to write there`,
      );
    if (why === "ENOENT")
      return new DataFolderError(`data folder ${dir} does not exist and cannot be created`);
  }
  let full = code.startsWith("SQLITE_FULL") || code === "ENOSPC";
  try {
    const fs = statfsSync(dir);
    full ||= fs.bavail === 0 || fs.ffree === 0;
  } catch {}
  if (full)
    return new DataFolderError(`data folder ${dir} is full (no space left on its disk); free some space`);
  if (code.startsWith("SQLITE_READONLY"))
    return new DataFolderError(`data folder ${dir} is read-only; parkd needs to write there`);
  return new DataFolderError(`cannot use data folder ${dir}: ${(e as Error).message ?? e}`);
}

export function acquireServeLock(dataDir: string): ServeLock {
  const dir = resolve(dataDir);
  let lockDb: Database;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    lockDb = new Database(join(dir, LOCK_FILE), { create: true });
  } catch (e) {
    throw folderTrouble(dir, e);
  }
  try {
    lockDb.run("PRAGMA busy_timeout = 0");
    // The lock writes nothing; a journal in memory lets it be taken on a full disk too, where a
    // box with a store still starts and serves reads.
    lockDb.run("PRAGMA journal_mode = MEMORY");
    lockDb.run("BEGIN EXCLUSIVE");
  } catch (e) {
    lockDb.close(false);
    if (String((e as { code?: unknown }).code ?? "").startsWith("SQLITE_BUSY"))
      throw new LockHeldError(`another parkd serve is already running on data folder ${dir}`);
    throw folderTrouble(dir, e);
  }
  return {
    release() {
      try {
        lockDb.run("ROLLBACK");
      } finally {
        lockDb.close(false);
      }
    },
  };
}

/** True when a `serve` holds the data folder. */
export function isServeRunning(dataDir: string): boolean {
  try {
    acquireServeLock(dataDir).release();
    return false;
  } catch (e) {
    if (e instanceof LockHeldError) return true;
    throw e;
  }
}

/**
 * Whether a serve holds the data folder's lock, asked without taking it: serve keeps an
 * exclusive transaction on serve.lock, so even a read there is refused as busy.
 */
export function serveLockHeld(dataDir: string): boolean {
  const file = join(dataDir, LOCK_FILE);
  if (!existsSync(file)) return false;
  let db: Database;
  try {
    db = new Database(file, { readonly: true });
  } catch {
    return false;
  }
  try {
    db.run("PRAGMA busy_timeout = 0");
    db.query("SELECT count(*) FROM sqlite_master").get();
    return false;
  } catch (e) {
    return String((e as { code?: unknown }).code ?? "").startsWith("SQLITE_BUSY");
  } finally {
    db.close(false);
  }
}

export const STORE_FILE = "parkd.db";

/** A command that must not create a store was pointed at a folder without one. */
export class StoreMissingError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `no parkd store in ${dataDir} (${STORE_FILE} not found). Pass the --data-dir that holds it, or create one there first with 'parkd migrate --data-dir ${dataDir}' (serve creates it too)`,
    );
  }
}

/** Whether process `pid` runs (another user's, the service's as parkd for a command run as root, too). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === "EPERM";
  }
}
