/**
 * What happens when a binary opens a store another release wrote. An older store is copied
 * aside whole (and verified) before its schema moves; a store that a newer binary has migrated
 * is refused, since this binary does not know what those migrations changed and would write
 * rows the newer code misreads (no downgrade: run the newer binary, or restore a backup).
 */
import { Database } from "bun:sqlite";
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statfsSync,
  statSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import type { MigrationMeta } from "drizzle-orm/migrator";
import type { Db } from "./db.ts";
import { DataFolderError, processAlive, STORE_FILE } from "./lock.ts";
import { applyMigrations, MIGRATIONS } from "./migrations.ts";

/** Folder inside the data folder that holds the copies taken before a schema upgrade. */
export const UPGRADE_BACKUP_DIR = "backups";
/** How many pre-upgrade copies are kept; older ones are deleted after a new one is verified. */
export const UPGRADE_BACKUPS_KEPT = 3;
const BACKUP_PREFIX = "parkd-before-schema-";

export interface SchemaState {
  /** Migrations recorded in the store (0: a new, empty store). */
  applied: number;
  /** This binary's migrations the store has not had yet, in order. */
  pending: MigrationMeta[];
  /** Migrations recorded in the store that this binary does not know (a newer binary's). */
  unknown: number;
}

/** A schema upgrade an opening made: from and to which version, and the copy taken first. */
export interface StoreUpgrade {
  from: number;
  to: number;
  /** The copy taken first, by the name it has once checked. */
  backup: string;
  /** The copy is written but not checked yet: it is `.NAME.unchecked` until keepCheckedCopy. */
  unchecked: boolean;
}

export class StoreTooNewError extends Error {
  constructor(
    readonly path: string,
    readonly applied: number,
    readonly known: number,
  ) {
    super(
      `store ${path} was upgraded by a newer parkd (schema version ${applied}, ${applied - known > 0 ? applied - known : "some"} migration(s) this binary does not know; this binary's schema version is ${known}). Downgrading is not supported: run the newer parkd again, or restore a backup taken before the upgrade with 'parkd restore FILE' (the copies taken before each upgrade are in ${join(path, "..", UPGRADE_BACKUP_DIR)}). Nothing was changed`,
    );
  }
}

function migrationRows(sqlite: Database): number[] {
  const table = sqlite
    .query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get();
  if (!table) return [];
  return (sqlite.query("SELECT created_at AS at FROM __drizzle_migrations").all() as { at: number }[]).map(
    (r) => Number(r.at),
  );
}

/** Compares the migrations a store records with the ones this binary carries. Reads only. */
export function schemaState(sqlite: Database, known: MigrationMeta[]): SchemaState {
  const applied = migrationRows(sqlite);
  const knownAt = new Set(known.map((m) => m.folderMillis));
  const unknown = applied.filter((at) => !knownAt.has(at)).length;
  // The migrator applies what is newer than the last one recorded, and so does this count.
  const last = applied.length ? Math.max(...applied) : Number.NEGATIVE_INFINITY;
  return { applied: applied.length, pending: known.filter((m) => m.folderMillis > last), unknown };
}

function stamp(now: number): string {
  return new Date(now)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

function syncPath(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } catch {
    // Some filesystems cannot fsync a directory; the file itself is synced already.
  } finally {
    closeSync(fd);
  }
}

const mb = (bytes: number) => Math.ceil(bytes / 1048576);

/**
 * The disk an upgrade takes at its peak, beyond the store itself: the copy (as big as the store)
 * and, while the migrations run, the write-ahead log of every table and index they rebuild, which
 * is then checkpointed into the store while the log still holds it. Measured: a 0.1.0 store of
 * 163 MB peaked at 440 MB in all; a 0.2.0 store of 387 MB at 1.3 GB. 1.5 times the store for a
 * rebuild covers both; migrations that only add a table or a column write next to nothing.
 */
export function upgradeSpace(
  storeBytes: number,
  pending: readonly MigrationMeta[],
): { copy: number; rewrite: number; total: number } {
  const rebuilds = pending.some((m) =>
    m.sql.some((stmt) => /\bINSERT INTO\s+`?__new_|\bCREATE\s+(UNIQUE\s+)?INDEX\b/i.test(stmt)),
  );
  const copy = storeBytes;
  const rewrite = rebuilds ? Math.ceil(storeBytes * 1.5) : Math.ceil(storeBytes * 0.1);
  return { copy, rewrite, total: copy + rewrite + 16 * 1048576 };
}

function pendingOf(sqlite: Database): MigrationMeta[] {
  return schemaState(sqlite, MIGRATIONS).pending;
}

function sizeOr0(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The pre-upgrade copies in dataDir, oldest first. */
export function upgradeBackups(dataDir: string): string[] {
  const dir = join(dataDir, UPGRADE_BACKUP_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.startsWith(BACKUP_PREFIX) && f.endsWith(".db"))
    .sort((a, b) => a.slice(-20).localeCompare(b.slice(-20)))
    .map((f) => join(dir, f));
}

/** A copy written whole before an upgrade whose check was left for after the upgrade. */
const UNCHECKED = ".unchecked";
/** Only the names copyBeforeUpgrade gives: another file that looks like one is not touched. */
const UNCHECKED_NAME = /^\.parkd-before-schema-\d+-from-\d+-\d{8}T\d{6}Z\.db\.unchecked$/;

/**
 * Copies the open store to backups/parkd-before-schema-<to>-from-<from>-<UTC stamp>.db with
 * VACUUM INTO (one read transaction: the copy is whole), checks the copy, syncs it and only
 * then gives it its name; then deletes all but the newest UPGRADE_BACKUPS_KEPT copies. Refuses
 * (DataFolderError, nothing changed) when the disk has no room for the copy.
 */
export function backupBeforeUpgrade(
  sqlite: Database,
  storeFile: string,
  dataDir: string,
  from: number,
  to: number,
  now: number = Date.now(),
): string {
  const unchecked = copyBeforeUpgrade(sqlite, storeFile, dataDir, from, to, now);
  try {
    return keepCheckedCopy(unchecked);
  } catch (e) {
    // Nothing is migrated without a checked copy: the unchecked one is not left behind either.
    rmSync(unchecked, { force: true });
    throw new DataFolderError(
      `could not copy the store to ${dirname(unchecked)} before upgrading its schema from version ${from} to ${to}: ${(e as Error).message}. Nothing was changed`,
    );
  }
}

/**
 * The copy's bytes, written whole (VACUUM INTO) under a name that says it is not checked yet:
 * `.NAME.unchecked`, synced. Checking a copy of a large store is most of an upgrade's time on a
 * small box (an integrity check of every index), and the check need not come before the
 * migrations: they are one transaction, so a failure while they run leaves the store as it was
 * and the copy is not needed. serve therefore checks it after it is answering (keepCheckedCopy,
 * on a thread of low priority); `parkd migrate` before it returns.
 */
export function copyBeforeUpgrade(
  sqlite: Database,
  storeFile: string,
  dataDir: string,
  from: number,
  to: number,
  now: number = Date.now(),
): string {
  const dir = join(dataDir, UPGRADE_BACKUP_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Before the space is counted: what they hold is room for this copy.
  removeAbandonedCopies(dir);
  removeCopiesOfUpgradesNotMade(dataDir, from);
  const storeBytes = sizeOr0(storeFile) + sizeOr0(`${storeFile}-wal`);
  const needed = upgradeSpace(storeBytes, pendingOf(sqlite));
  const fs = statfsSync(dir);
  const free = fs.bavail * fs.bsize;
  if (free < needed.total)
    throw new DataFolderError(
      `not enough free space in ${dataDir} to upgrade the store's schema from version ${from} to ${to}: ${mb(free)} MB free, about ${mb(needed.total)} MB needed (a copy of the store, ${mb(needed.copy)} MB, kept in ${dir}; then ${mb(needed.rewrite)} MB while the upgrade rewrites its tables and indexes, and a margin). Free some space and start again. Nothing was changed`,
    );
  const name = `${BACKUP_PREFIX}${to}-from-${from}-${stamp(now)}.db`;
  const partial = join(dir, `.${name}.partial-${process.pid}`);
  const unchecked = join(dir, `.${name}${UNCHECKED}`);
  try {
    sqlite.query("VACUUM INTO ?").run(partial);
    // On the disk before the migrations commit (VACUUM INTO does not sync its file): after a
    // power cut once they have, this copy is the only way back.
    chmodSync(partial, 0o600);
    syncPath(partial);
    renameSync(partial, unchecked);
    syncPath(dir);
  } catch (e) {
    rmSync(partial, { force: true });
    throw new DataFolderError(
      `could not copy the store to ${dir} before upgrading its schema from version ${from} to ${to}: ${(e as Error).message}. Nothing was changed`,
    );
  }
  return unchecked;
}

/** The name a copy gets once it is checked: backups/NAME for backups/.NAME.unchecked. */
export function checkedName(unchecked: string): string {
  return join(dirname(unchecked), basename(unchecked).slice(1, -UNCHECKED.length));
}

/**
 * Checks a copy taken before an upgrade and gives it its name (synced), then deletes all but
 * the newest UPGRADE_BACKUPS_KEPT copies; returns the name. A copy that fails its check is
 * deleted (it could not bring the store back) and the error says why.
 */
export function keepCheckedCopy(unchecked: string): string {
  const target = checkedName(unchecked);
  try {
    verifyCopy(unchecked);
  } catch (e) {
    // Only a copy shown to be damaged goes; one that could not be looked at (locked, no memory,
    // no permission) stays unchecked for the next serve.
    if (e instanceof CopyDamaged) rmSync(unchecked, { force: true });
    throw e;
  }
  // Its bytes and mode were synced before the migrations ran (copyBeforeUpgrade): the name is what is left.
  renameSync(unchecked, target);
  syncPath(dirname(target));
  const dataDir = dirname(dirname(target));
  for (const old of upgradeBackups(dataDir).slice(0, -UPGRADE_BACKUPS_KEPT)) rmSync(old, { force: true });
  return target;
}

/**
 * Unchecked copies taken before an upgrade from `from` while the store is still at `from`: that
 * upgrade never committed (stopped, killed, failed), so the store itself is what they hold, or
 * newer. An unchecked copy of an upgrade that did commit is the only copy of the store before it,
 * and is kept for its check.
 */
export function removeCopiesOfUpgradesNotMade(dataDir: string, from: number): void {
  const copies = uncheckedCopies(dataDir).filter((c) => basename(c).includes(`-from-${from}-`));
  if (copies.length === 0 || storeSchemaIn(dataDir) !== from) return;
  for (const copy of copies) rmSync(copy, { force: true });
}

/** How many migrations the store in dataDir records, read on a connection of its own; null: unreadable. */
function storeSchemaIn(dataDir: string): number | null {
  let db: Database | undefined;
  try {
    db = new Database(join(dataDir, STORE_FILE), { readonly: true });
    return schemaState(db, MIGRATIONS).applied;
  } catch {
    return null;
  } finally {
    db?.close(false);
  }
}

/** Copies taken before an upgrade that are not checked yet (this serve's, or a killed one's). */
export function uncheckedCopies(dataDir: string): string[] {
  const dir = join(dataDir, UPGRADE_BACKUP_DIR);
  try {
    return readdirSync(dir)
      .filter((f) => UNCHECKED_NAME.test(f))
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}

/**
 * Copies a process that was killed while it wrote them left behind (`.NAME.partial-PID` and its
 * journal): never a whole copy, and as big as the store. A living process's are left alone.
 */
function removeAbandonedCopies(dir: string): void {
  for (const f of readdirSync(dir)) {
    const m = /^\.parkd-before-schema-.*\.partial-(\d+)(?:-journal)?$/.exec(f);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || !processAlive(pid)) rmSync(join(dir, f), { force: true });
  }
}

/** A copy its check showed to be damaged (not one that could not be checked). */
export class CopyDamaged extends Error {}

const DAMAGED_CODES = /^SQLITE_(CORRUPT|NOTADB)/;

/**
 * Opens the copy read-only and runs integrity_check on it; throws CopyDamaged when it is not
 * whole, and whatever else kept the check from running as it is.
 */
function verifyCopy(file: string): void {
  let rows: { integrity_check: string }[];
  let copy: Database | undefined;
  try {
    copy = new Database(file, { readonly: true });
    rows = copy.query("PRAGMA integrity_check").all() as { integrity_check: string }[];
  } catch (e) {
    if (DAMAGED_CODES.test(String((e as { code?: unknown }).code ?? "")))
      throw new CopyDamaged(`the copy is not a whole store: ${(e as Error).message}`);
    throw e;
  } finally {
    copy?.close(false);
  }
  if (rows.length !== 1 || rows[0]!.integrity_check !== "ok")
    throw new CopyDamaged(
      `the copy failed its integrity check: ${rows.map((r) => r.integrity_check).join("; ")}`,
    );
}

/**
 * Brings the open store's schema up to this binary's: refuses a newer store (StoreTooNewError,
 * nothing changed); copies an older one aside first (a new, empty store has nothing to lose),
 * checked before the migrations or, with `checkCopyLater`, left for the caller to check
 * (copyBeforeUpgrade says why); then applies what is pending in one transaction. Returns what it
 * upgraded, if anything.
 */
export function upgradeSchema(
  sqlite: Database,
  db: Db,
  storeFile: string,
  dataDir: string,
  opts: { checkCopyLater?: boolean } = {},
): StoreUpgrade | null {
  const state = schemaState(sqlite, MIGRATIONS);
  if (state.unknown > 0) throw new StoreTooNewError(storeFile, state.applied, MIGRATIONS.length);
  let upgrade: StoreUpgrade | null = null;
  let unchecked: string | null = null;
  if (state.applied > 0 && state.pending.length > 0) {
    const to = state.applied + state.pending.length;
    const from = state.applied;
    if (opts.checkCopyLater) {
      unchecked = copyBeforeUpgrade(sqlite, storeFile, dataDir, from, to);
      upgrade = { from, to, backup: checkedName(unchecked), unchecked: true };
    } else
      upgrade = {
        from,
        to,
        backup: backupBeforeUpgrade(sqlite, storeFile, dataDir, from, to),
        unchecked: false,
      };
  }
  try {
    applyMigrations(db);
  } catch (e) {
    if (!upgrade) throw e;
    // The migrations are one transaction: the store is as it was. A copy not checked yet is not
    // kept: the store it would bring back is the one there now, and its bytes may be the room
    // the upgrade lacked.
    if (unchecked) rmSync(unchecked, { force: true });
    const cause = (e as { cause?: unknown }).cause ?? e;
    const code = String((cause as { code?: unknown })?.code ?? (e as { code?: unknown }).code ?? "");
    const full = code.startsWith("SQLITE_FULL") || code === "ENOSPC";
    const copy = unchecked ? "" : ` and its copy is at ${upgrade.backup}`;
    throw new DataFolderError(
      `upgrading the store's schema from version ${upgrade.from} to ${upgrade.to} failed: ${full ? `the disk holding ${dataDir} is full` : (cause as Error).message}. The store is as it was (the upgrade is one transaction)${copy}; ${full ? "free some space and start again" : "start again, and report this if it happens again"}`,
      { cause },
    );
  }
  return upgrade;
}
