import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
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

const LOCK_FILE = "serve.lock";

export function acquireServeLock(dataDir: string): ServeLock {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lockDb = new Database(join(dir, LOCK_FILE), { create: true });
  try {
    lockDb.run("PRAGMA busy_timeout = 0");
    lockDb.run("BEGIN EXCLUSIVE");
  } catch {
    lockDb.close(false);
    throw new LockHeldError(`another parkd serve is already running on data folder ${dir}`);
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
