/**
 * Backups and restores of the store. A backup is a copy into a side file made in one read
 * transaction (paced-copy.ts), so it is a consistent snapshot even while `serve` keeps committing
 * (WAL readers never block the writer). The notices' photo files that snapshot names are then copied into it
 * (the table `backup_photos`, which only a backup has), so a backup stays one file. It is checked
 * with `PRAGMA integrity_check` and synced to disk before it takes its final name, so a file
 * called FILE is always a whole, verified store.
 */
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import {
  chmodSync,
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  linkSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { ASIDE_PREFIX } from "./aside.ts";
import { SCHEMA_VERSION, STORE_FILE, storePath } from "./db.ts";
import { processAlive } from "./lock.ts";
import { MIGRATIONS } from "./migrations.ts";
import { NoticeRecords } from "./notices.ts";
import { copyStorePaced } from "./paced-copy.ts";
import { forgetPages } from "./page-cache.ts";
import { DiskPhotoFiles } from "./photos.ts";
import * as schema from "./schema/index.ts";
import { CopyDamaged, keepCheckedCopy, schemaState, uncheckedCopies } from "./upgrade.ts";

export class BackupError extends Error {}

export interface StoreFileCheck {
  schemaVersion: number;
  tickets: number | null;
  bytes: number;
  /** Photo files the backup carries (null: a store, or a backup made before photos were carried). */
  photos: number | null;
}

/** What a backup copied of the notices' photos, beside the store's check. */
export interface BackupReport extends StoreFileCheck {
  /** Photos the notices name whose file was not in the data folder (not in the backup either). */
  photosMissing: number;
}

const hasTable = (db: Database, name: string) =>
  db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== null;

/**
 * Copies into the snapshot `db` (the unnamed file `file`) the photo files its notices name, from
 * the data folder; returns how many were copied and how many were missing.
 */
function carryPhotos(
  db: Database,
  file: string,
  dataDir: string,
  rest: (tookMs: number) => void,
): { copied: number; missing: number } {
  // A store older than the notices has no photos to carry.
  if (!hasTable(db, "notice_photos")) return { copied: 0, missing: 0 };
  const files = new DiskPhotoFiles(dataDir);
  const hashes = new NoticeRecords(db, drizzle({ client: db, schema })).photoHashes();
  let copied = 0;
  let missing = 0;
  db.run("CREATE TABLE backup_photos (hash TEXT PRIMARY KEY NOT NULL, bytes BLOB NOT NULL)");
  // The file has no name yet and any failure deletes it, so a rollback journal and SQLite's own
  // syncs protect nothing here; each commit's journal file, made and deleted, was two more
  // metadata writes that serve's syncs (each ticket event waits on one) queued behind.
  db.run("PRAGMA journal_mode = OFF");
  db.run("PRAGMA synchronous = OFF");
  const insert = db.prepare("INSERT INTO backup_photos (hash, bytes) VALUES (?1, ?2)");
  const fd = openSync(file, "r");
  try {
    // The store's part, read again by its check, first.
    fdatasyncSync(fd);
    forgetPages(fd);
    // Synced every PHOTO_CHUNK_BYTES, with `rest` between: a site's photos are gigabytes; left to
    // the end they sat in memory as dirty pages and then went to the disk in one burst, and
    // written at the disk's full pace they made serve's own syncs queue behind them, on a small
    // box for most of a second.
    let i = 0;
    while (i < hashes.length) {
      const started = performance.now();
      db.transaction(() => {
        let bytesIn = 0;
        for (; i < hashes.length && bytesIn < PHOTO_CHUNK_BYTES; i++) {
          const bytes = files.read(hashes[i]!, { once: true });
          if (bytes === null) missing++;
          else {
            insert.run(hashes[i]!, bytes);
            copied++;
            bytesIn += bytes.length;
          }
        }
      })();
      fdatasyncSync(fd);
      // Synced, so clean: the copy's pages would otherwise push serve's out of a small box's memory.
      forgetPages(fd);
      if (i < hashes.length) rest(performance.now() - started);
    }
  } finally {
    closeSync(fd);
  }
  return { copied, missing };
}

/** How many bytes of photos a backup writes between two syncs. */
const PHOTO_CHUNK_BYTES = 1024 * 1024;

/**
 * Writes the photo files a backup carries into the data folder (each synced, and checked against
 * its hash first: a damaged backup writes none) and removes them from the store file `db`.
 */
function bringBackPhotos(db: Database, dataDir: string, file: string): number {
  if (!hasTable(db, "backup_photos")) return 0;
  const rows = db.query("SELECT hash, bytes FROM backup_photos").all() as {
    hash: string;
    bytes: Uint8Array;
  }[];
  for (const r of rows)
    if (createHash("sha256").update(r.bytes).digest("hex") !== r.hash)
      throw new BackupError(
        `${file} holds a damaged photo (${r.hash.slice(0, 12)}…): its bytes do not match its hash`,
      );
  const files = new DiskPhotoFiles(dataDir);
  try {
    for (const r of rows) files.put(r.hash, r.bytes);
  } catch (e) {
    // A photo already written is harmless: no store names it until the swap, which has not begun.
    throw new BackupError(`the photos cannot be written into ${files.dir}: ${(e as Error).message}`);
  }
  db.run("DROP TABLE backup_photos");
  return rows.length;
}

function syncFile(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function syncDir(dir: string): void {
  try {
    syncFile(dir);
  } catch {
    // Some filesystems cannot fsync a directory; the file itself is synced already.
  }
}

function countOrNull(db: Database, table: string): number | null {
  const exists = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  if (!exists) return null;
  return (db.query(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
}

/** Opens FILE read-only and proves it is a whole parkd store; throws BackupError if not. */
export function checkStoreFile(file: string): StoreFileCheck {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  let db: Database;
  try {
    db = new Database(file, { readonly: true });
  } catch (e) {
    throw new BackupError(`${file} cannot be opened as SQLite: ${(e as Error).message}`);
  }
  try {
    let result: string[];
    try {
      result = (db.query("PRAGMA integrity_check").all() as { integrity_check: string }[]).map(
        (r) => r.integrity_check,
      );
    } catch (e) {
      throw new BackupError(`${file} is not a SQLite database: ${(e as Error).message}`);
    }
    if (result.length !== 1 || result[0] !== "ok")
      throw new BackupError(`${file} failed the integrity check: ${result.slice(0, 5).join("; ")}`);
    const migrations = countOrNull(db, "__drizzle_migrations");
    if (migrations === null || migrations === 0)
      throw new BackupError(`${file} is a SQLite database but not a parkd store (no migrations table)`);
    // By the migrations themselves, not their count: a newer release's store can have as many.
    if (migrations > SCHEMA_VERSION || schemaState(db, MIGRATIONS).unknown > 0)
      throw new BackupError(
        `${file} has schema version ${migrations}, written by a newer parkd than this one (schema ${SCHEMA_VERSION}); use a newer parkd`,
      );
    return {
      schemaVersion: migrations,
      tickets: countOrNull(db, "tickets"),
      bytes: statSync(file).size,
      photos: countOrNull(db, "backup_photos"),
    };
  } finally {
    db.close(false);
  }
}

/** Copies the store in dataDir, with its photos, to FILE; refuses an existing FILE unless force. */
export function backupStore(
  dataDir: string,
  file: string,
  opts: {
    force?: boolean;
    /** Called between the copy's steps with the time the last took (a backup beside serve rests). */
    rest?: (tookMs: number) => void;
  } = {},
): BackupReport {
  const source = storePath(dataDir);
  if (!existsSync(source)) throw new BackupError(`no store at ${source}`);
  const target = resolve(file);
  if (target === source) throw new BackupError("the backup cannot be the store itself");
  if (existsSync(target) && !opts.force)
    throw new BackupError(`${target} exists; use --force to overwrite it`);
  const partial = join(dirname(target), `.${basename(target)}.partial-${process.pid}`);
  rmSync(partial, { force: true });
  removeAbandonedPartials(target);
  const rest = opts.rest ?? (() => {});
  try {
    copyStorePaced(source, partial, rest);
  } catch (e) {
    rmSync(partial, { force: true });
    throw new BackupError(`backup failed: ${(e as Error).message}`);
  }
  // The store's part is checked before the photos are added: the check reads every page, and the
  // photos (most of a backup's bytes) are checked by their hashes when they are brought back.
  let checked: StoreFileCheck;
  try {
    checked = checkStoreFile(partial);
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  }
  let carried: { copied: number; missing: number };
  try {
    const copy = new Database(partial, { readwrite: true });
    try {
      carried = carryPhotos(copy, partial, dataDir, rest);
    } finally {
      copy.close(false);
    }
  } catch (e) {
    rmSync(partial, { force: true });
    throw new BackupError(`backup failed copying the photos: ${(e as Error).message}`);
  }
  try {
    const check = {
      ...checked,
      bytes: statSync(partial).size,
      photos: carried.copied,
      photosMissing: carried.missing,
    };
    // Token hashes and plates are inside: readable by the service user only.
    chmodSync(partial, 0o600);
    syncFile(partial);
    if (opts.force) renameSync(partial, target);
    else {
      // link() fails if FILE appeared meanwhile: never clobber what we did not mean to.
      linkSync(partial, target);
      rmSync(partial);
    }
    syncDir(dirname(target));
    return check;
  } catch (e) {
    rmSync(partial, { force: true });
    if (e instanceof BackupError) throw e;
    if ((e as { code?: string }).code === "EEXIST")
      throw new BackupError(`${target} exists; use --force to overwrite it`);
    throw e;
  }
}

/**
 * The unfinished copies of FILE that backups killed while they wrote them left (`.FILE.partial-PID`,
 * as big as the store): a living process's are left alone.
 */
function removeAbandonedPartials(target: string): void {
  const prefix = `.${basename(target)}.partial-`;
  for (const name of readdirSync(dirname(target))) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (Number.isInteger(pid) && pid > 0 && !processAlive(pid))
      rmSync(join(dirname(target), name), { force: true });
  }
}

function stamp(now: number): string {
  return new Date(now)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/**
 * Puts a checked copy of FILE in place as the store of dataDir, the photos it carries written
 * into the data folder first (so the restored store names no missing photo). The caller holds
 * the serve lock. The old store (with its -wal and -shm, if any) is renamed aside, never deleted;
 * photo files already in the folder stay.
 */
export function restoreStore(
  dataDir: string,
  file: string,
  now: number = Date.now(),
): { check: StoreFileCheck; asideAs: string | null; photos: number; copies: SettledCopy[] } {
  const source = resolve(file);
  const check = checkStoreFile(source);
  const target = storePath(dataDir);
  if (source === target) throw new BackupError("the file to restore is the store itself");
  const copies = settleUncheckedCopies(dataDir);

  const incoming = `${target}.restoring-${process.pid}`;
  rmSync(incoming, { force: true });
  // A copy through SQLite, not a byte copy: FILE may itself have a -wal beside it.
  const from = new Database(source, { readonly: true });
  try {
    from.query("VACUUM INTO ?").run(incoming);
  } finally {
    from.close(false);
  }
  let photos: number;
  try {
    checkStoreFile(incoming);
    const copy = new Database(incoming, { readwrite: true });
    try {
      photos = bringBackPhotos(copy, dataDir, source);
    } finally {
      copy.close(false);
    }
  } catch (e) {
    rmSync(incoming, { force: true });
    throw e;
  }
  chmodSync(incoming, 0o600);
  syncFile(incoming);

  let asideAs: string | null = null;
  if (existsSync(target)) {
    // Fold the WAL into the old file first, so the aside copy is one self-contained file.
    try {
      const old = new Database(target, { readwrite: true });
      try {
        old.run("PRAGMA wal_checkpoint(TRUNCATE)");
      } finally {
        old.close(false);
      }
    } catch {
      // A damaged old store is still moved aside below, with whatever WAL it has.
    }
    asideAs = join(dirname(target), `${ASIDE_PREFIX}${stamp(now)}`);
    renameSync(target, asideAs);
    for (const suffix of ["-wal", "-shm"])
      if (existsSync(target + suffix)) renameSync(target + suffix, asideAs + suffix);
  }
  renameSync(incoming, target);
  if (asideAs) dropOlderAsides(target, asideAs);
  syncDir(dirname(target));
  return { check, asideAs, photos, copies };
}

/** A copy taken before an upgrade that a restore found unchecked: kept under its name, or deleted as damaged. */
export type SettledCopy = { kept: string } | { deleted: string; why: string };

/**
 * Checks and names the copies taken before an upgrade that serve had not checked yet, before a
 * restore replaces the store: an unchecked copy of an upgrade from version N is deleted as "never
 * made" when the store is found at N (upgrade.ts's removeCopiesOfUpgradesNotMade), which a
 * restored store of version N would be, while the copy holds the store before that upgrade. A copy
 * that cannot be checked stops the restore, with nothing changed.
 */
function settleUncheckedCopies(dataDir: string): SettledCopy[] {
  const settled: SettledCopy[] = [];
  for (const copy of uncheckedCopies(dataDir)) {
    try {
      settled.push({ kept: keepCheckedCopy(copy) });
    } catch (e) {
      if (!(e instanceof CopyDamaged))
        throw new BackupError(
          `the copy of the store taken before an upgrade (${copy}) is not checked yet and could not be checked now: ${(e as Error).message}`,
        );
      settled.push({ deleted: copy, why: e.message });
    }
  }
  return settled;
}

/**
 * One copy set aside by a restore is kept, the one just made: each is a whole store, and a box
 * restored a few times had its card filled by them. The one before is what a technician may
 * want back; older ones never were.
 */
function dropOlderAsides(target: string, kept: string): void {
  const dir = dirname(target);
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(ASIDE_PREFIX)) continue;
    const base = name.replace(/-(wal|shm)$/, "");
    if (join(dir, base) !== kept) rmSync(join(dir, name), { force: true });
  }
}

export { STORE_FILE };
