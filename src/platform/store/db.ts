import { Database, type Statement } from "bun:sqlite";
import { existsSync, mkdirSync, statfsSync } from "node:fs";
import { join, resolve } from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import type { DiskRoom } from "../../domain/disk-room.ts";
import { photoHashesAside } from "./aside.ts";
import { ChangeRecords } from "./changes.ts";
import {
  configureConnection,
  isReadOnlyConnection,
  isStoreUnavailable,
  restoreSideFilePermissions,
  WalSync,
  withoutSync,
} from "./connection.ts";
import { CredentialRecords } from "./credentials.ts";
import { DataFolderError, folderTrouble, STORE_FILE, StoreMissingError } from "./lock.ts";
import { LookupRecords } from "./lookups.ts";
import { LotRecords } from "./lots.ts";
import { appliedSchemaVersion, applyMigrations } from "./migrations.ts";
import { NoticeRecords } from "./notices.ts";
import { ObservationRecords } from "./observations.ts";
import { PermitRecords } from "./permits.ts";
import { DiskPhotoFiles, MemoryPhotoFiles, type PhotoFiles } from "./photos.ts";
import { StoreProbe } from "./probe.ts";
import { ReportRecords } from "./reports.ts";
import * as schema from "./schema/index.ts";
import { BrowserSessionRecords } from "./sessions.ts";
import { SyncCursors } from "./sync-cursors.ts";
import { TicketRecords } from "./tickets/records.ts";
import { TicketSearchRecords } from "./tickets/search.ts";
import { TicketSyncRecords } from "./tickets/sync.ts";
import { type StoreUpgrade, upgradeSchema } from "./upgrade.ts";
import { WrittenRows } from "./written.ts";

export { commitRelaxed, isStoreUnavailable } from "./connection.ts";
export { appliedSchemaVersion, applyMigrations, SCHEMA_VERSION } from "./migrations.ts";
export { StoreTooNewError, type StoreUpgrade } from "./upgrade.ts";

export type Db = BunSQLiteDatabase<typeof schema>;

/**
 * The open store: the connection, and one repository per table group, each the only place that
 * holds SQL for its tables. Repositories are made on first use, so a CLI command prepares only
 * the statements it needs.
 */
export class Store {
  private conn: { sqlite: Database; db: Db };
  /** Counts reopenings, so that dataVersion() never repeats across connections. */
  private epoch = 0;
  private readonly reopenListeners: (() => void)[] = [];
  private repos: {
    tickets?: TicketRecords;
    ticketSearch?: TicketSearchRecords;
    ticketSync?: TicketSyncRecords;
    reports?: ReportRecords;
    permits?: PermitRecords;
    lots?: LotRecords;
    credentials?: CredentialRecords;
    lookups?: LookupRecords;
    changes?: ChangeRecords;
    probe?: StoreProbe;
    syncCursors?: SyncCursors;
    browserSessions?: BrowserSessionRecords;
    notices?: NoticeRecords;
    observations?: ObservationRecords;
  } = {};
  private photoFiles?: PhotoFiles;
  private dataVersionQuery: Statement<{ data_version: number }, []>;
  /**
   * The connection was opened read-only (SQLite's fallback when the file was write-protected):
   * it stays so for life, whatever happens to the file, so recoverWrites() replaces it.
   */
  private stuckReadOnly: boolean;
  private lastRecovery = 0;
  /** The latest write transaction failed because the store could not take it (full, read-only). */
  private failing = false;
  private readonly wal: WalSync;
  /** What this process's repositories wrote, for the readers that keep copies (see WrittenRows). */
  readonly written = new WrittenRows(() => this.dataVersion());
  /** Set when opening the store upgraded its schema (after a copy of it was taken). */
  upgrade: StoreUpgrade | null = null;
  /** Opened on a full disk, holding the store alone until it is closed (openStore's aloneWhenFull). */
  heldAlone = false;

  constructor(
    /** Absolute path of the SQLite file. */
    readonly path: string,
    readonly dataDir: string,
    sqlite: Database,
    db: Db,
  ) {
    this.conn = { sqlite, db };
    this.dataVersionQuery = sqlite.prepare("PRAGMA data_version");
    this.stuckReadOnly = path !== ":memory:" && isReadOnlyConnection(sqlite);
    this.wal = new WalSync(path === ":memory:" ? null : `${path}-wal`);
  }

  get sqlite(): Database {
    return this.conn.sqlite;
  }
  get db(): Db {
    return this.conn.db;
  }

  /** A transaction is open on the connection: what it wrote could still be rolled back. */
  get inTransaction(): boolean {
    return this.conn.sqlite.inTransaction;
  }

  /** How many of the migrations this store has applied (0 for an empty file). */
  schemaVersion(): number {
    return appliedSchemaVersion(this.conn.sqlite);
  }

  /** The connection cannot write and will not by itself (see recoverWrites). */
  get readOnly(): boolean {
    return this.stuckReadOnly;
  }

  /**
   * The latest write transaction (transaction()) was refused by the store: the disk is full or
   * read-only, as far as the writes that matter know. A later successful one, or noteWrite(true)
   * after a probe as large as a request, clears it.
   */
  get writesFailing(): boolean {
    return this.failing;
  }

  noteWrite(ok: boolean): void {
    this.failing = !ok;
  }

  /** `fn` runs after the store has moved to a new connection (the store thread follows it). */
  onReopen(fn: () => void): void {
    this.reopenListeners.push(fn);
  }

  /**
   * A store opened while its file was write-protected keeps a read-only connection, and SQLite
   * made its -wal and -shm files with the database file's permissions, so even a new connection
   * could not write once the file is writable again: every write would stay 503 until a restart.
   * This gives the side files the database file's permissions back and moves to a new connection
   * once that one can write. Cheap when there is nothing to recover; tries at most every `everyMs`.
   */
  recoverWrites(now = Date.now(), everyMs = 2_000): boolean {
    if (!this.stuckReadOnly || now - this.lastRecovery < everyMs) return false;
    this.lastRecovery = now;
    restoreSideFilePermissions(this.path);
    let fresh: Database;
    try {
      fresh = new Database(this.path, { strict: true });
    } catch {
      return false;
    }
    let writable = false;
    try {
      configureConnection(fresh);
      writable = !isReadOnlyConnection(fresh);
    } catch {}
    if (!writable) {
      fresh.close(false);
      return false;
    }
    const old = this.conn.sqlite;
    this.conn = { sqlite: fresh, db: drizzle({ client: fresh, schema }) };
    this.repos = {};
    this.epoch++;
    this.dataVersionQuery = fresh.prepare("PRAGMA data_version");
    this.stuckReadOnly = false;
    old.close(false);
    for (const fn of this.reopenListeners) fn();
    return true;
  }

  get tickets(): TicketRecords {
    this.repos.tickets ??= new TicketRecords(this.sqlite, this.db, this.written);
    return this.repos.tickets;
  }
  /** The console's ticket search and counts (the other owner of tickets and ticket_events). */
  get ticketSearch(): TicketSearchRecords {
    this.repos.ticketSearch ??= new TicketSearchRecords(this.db);
    return this.repos.ticketSearch;
  }
  /** The office sync's reads of the tickets and their log (the third owner of both tables). */
  get ticketSync(): TicketSyncRecords {
    this.repos.ticketSync ??= new TicketSyncRecords(this.sqlite);
    return this.repos.ticketSync;
  }
  /** The revenue book, and the reports' reads of tickets (docs/reports.md). */
  get reports(): ReportRecords {
    this.repos.reports ??= new ReportRecords(this.sqlite, this.db);
    return this.repos.reports;
  }
  get permits(): PermitRecords {
    this.repos.permits ??= new PermitRecords(this.sqlite, this.db, this.written);
    return this.repos.permits;
  }
  get lots(): LotRecords {
    this.repos.lots ??= new LotRecords(this.sqlite, this.db, this.written);
    return this.repos.lots;
  }
  get credentials(): CredentialRecords {
    this.repos.credentials ??= new CredentialRecords(this.sqlite, this.db);
    return this.repos.credentials;
  }
  get lookups(): LookupRecords {
    this.repos.lookups ??= new LookupRecords(this.sqlite);
    return this.repos.lookups;
  }
  get changes(): ChangeRecords {
    this.repos.changes ??= new ChangeRecords(this.sqlite);
    return this.repos.changes;
  }
  get probe(): StoreProbe {
    this.repos.probe ??= new StoreProbe(this.sqlite);
    return this.repos.probe;
  }
  get syncCursors(): SyncCursors {
    this.repos.syncCursors ??= new SyncCursors(this.sqlite, this.db);
    return this.repos.syncCursors;
  }

  /** The web app's sign-in sessions (a restart keeps them). */
  get browserSessions(): BrowserSessionRecords {
    this.repos.browserSessions ??= new BrowserSessionRecords(this.sqlite, this.db);
    return this.repos.browserSessions;
  }

  /** Control notices, their photos' records and the reasons and amounts they are issued under. */
  get notices(): NoticeRecords {
    this.repos.notices ??= new NoticeRecords(this.sqlite, this.db);
    return this.repos.notices;
  }

  /** Timed observations: the cars attendants marked in zones with a time limit. */
  get observations(): ObservationRecords {
    this.repos.observations ??= new ObservationRecords(this.db, this.written);
    return this.repos.observations;
  }

  /** The notices' photo files, in the data folder beside the store (in memory for a memory store). */
  get photos(): PhotoFiles {
    this.photoFiles ??=
      this.dataDir === ":memory:"
        ? new MemoryPhotoFiles()
        : new DiskPhotoFiles(this.dataDir, () => this.reserveBytes);
    return this.photoFiles;
  }

  /**
   * What the disk holding the store keeps free for ticket events (serve sets it from
   * --disk-reserve-mb or the disk's size): photos are refused before they would take it.
   */
  reserveBytes = 0;

  /** The disk's free space and size, and the pages the store reuses before it grows; null in memory. */
  room(): DiskRoom | null {
    if (this.dataDir === ":memory:") return null;
    const fs = statfsSync(this.dataDir);
    const pages = this.sqlite.query("PRAGMA freelist_count").get() as { freelist_count: number };
    const size = this.sqlite.query("PRAGMA page_size").get() as { page_size: number };
    return {
      freeBytes: fs.bavail * fs.bsize,
      reusableBytes: pages.freelist_count * size.page_size,
      sizeBytes: fs.blocks * fs.bsize,
    };
  }

  /**
   * Every photo hash a store in this data folder names: this store's notices' and those of the
   * store the latest restore set aside, which may be restored back (aside.ts); null when that one
   * cannot be read.
   */
  photoHashesNamed(): Set<string> | null {
    const named = new Set(this.notices.photoHashes());
    if (this.dataDir === ":memory:") return named;
    const aside = photoHashesAside(this.dataDir);
    if (aside === null) return null;
    for (const h of aside) named.add(h);
    return named;
  }

  /** Another place for the photos (tests: a disk that fills up). */
  usePhotoFiles(files: PhotoFiles): void {
    this.photoFiles = files;
  }

  /** Moves when another connection (a CLI command while serve runs) commits, or the store reopens. */
  dataVersion(): number {
    return this.epoch * 1_000_000_000 + this.dataVersionQuery.get()!.data_version;
  }

  /**
   * Runs `commit` (a transaction) without waiting for the disk at its commit: for a writer that
   * answers nobody before `synced()` resolves (the intake's groups), so that the event loop serves
   * other requests while the disk syncs. The connection is back to synchronous=FULL after it.
   */
  unsynced<T>(commit: () => T): T {
    return withoutSync(this.sqlite, commit);
  }

  /** Resolves once every commit made before the call is on the disk (see WalSync). */
  synced(): Promise<void> {
    return this.wal.synced();
  }

  /**
   * `fn` as one transaction (a nested call is a savepoint); `.immediate` takes the write lock
   * first. Bound to the connection of the moment it runs, so it survives recoverWrites().
   */
  transaction<A extends unknown[], T>(fn: (...args: A) => T) {
    let bound: { sqlite: Database; tx: ReturnType<Database["transaction"]> } | undefined;
    const current = () => {
      if (bound?.sqlite !== this.sqlite) bound = { sqlite: this.sqlite, tx: this.sqlite.transaction(fn) };
      return bound.tx as unknown as ((...args: A) => T) &
        Record<"deferred" | "immediate" | "exclusive", (...args: A) => T>;
    };
    // The outcome of each outermost transaction is what /readyz reports (writesFailing).
    const noted =
      (run: (...args: A) => T) =>
      (...args: A): T => {
        try {
          const result = run(...args);
          if (!this.sqlite.inTransaction) this.failing = false;
          return result;
        } catch (e) {
          if (isStoreUnavailable(e)) this.failing = true;
          throw e;
        }
      };
    return Object.assign(
      noted((...args) => current()(...args)),
      {
        deferred: noted((...args) => current().deferred(...args)),
        immediate: noted((...args) => current().immediate(...args)),
        exclusive: noted((...args) => current().exclusive(...args)),
      },
    );
  }

  close(): void {
    this.sqlite.close(false);
  }
}

export { STORE_FILE, StoreMissingError };

export function storePath(dataDir: string): string {
  return join(resolve(dataDir), STORE_FILE);
}

/**
 * Opens the store in dataDir and brings its schema up to date. Only `serve`, `migrate` and
 * `restore` create a missing store (`create`, the default); every other command passes
 * `create: false`, so a mistyped --data-dir fails with StoreMissingError instead of writing a
 * token into a fresh, empty store nobody serves. WAL with synchronous=FULL: a commit is on disk
 * before we answer, so an acknowledged event survives a power cut.
 */
export function openStore(
  dataDir: string,
  opts: {
    migrate?: boolean;
    create?: boolean;
    /**
     * On a full disk, hold the store alone (serve): SQLite's shared-memory file cannot grow
     * there, so the connection keeps that index in its own memory. Writes resume by themselves
     * once space returns; other processes (token, backup, doctor) wait until serve restarts.
     */
    aloneWhenFull?: boolean;
    /** The copy taken before an upgrade is checked by the caller afterwards (serve). */
    checkCopyLater?: boolean;
  } = {},
): Store {
  const dir = resolve(dataDir);
  const path = join(dir, STORE_FILE);
  if (opts.create === false && !existsSync(path)) throw new StoreMissingError(dir);
  let sqlite: Database | undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    sqlite = new Database(path, { create: opts.create !== false, strict: true });
    let alone = false;
    try {
      configureConnection(sqlite);
    } catch (e) {
      if (!(opts.aloneWhenFull && existsSync(path) && diskFull(dir) && isStoreUnavailable(e))) throw e;
      sqlite.close(false);
      sqlite = new Database(path, { strict: true });
      sqlite.run("PRAGMA locking_mode = EXCLUSIVE");
      configureConnection(sqlite);
      alone = true;
    }
    const db = drizzle({ client: sqlite, schema });
    const upgrade =
      opts.migrate !== false
        ? upgradeSchema(sqlite, db, path, dir, { checkCopyLater: opts.checkCopyLater })
        : null;
    const store = new Store(path, dir, sqlite, db);
    store.upgrade = upgrade;
    store.heldAlone = alone;
    return store;
  } catch (e) {
    sqlite?.close(false);
    // Said in words already (an upgrade that could not finish).
    if (e instanceof DataFolderError) throw e;
    // A folder or disk that cannot take the store is named as such (read-only, full, no permission).
    const cause = (e as { cause?: unknown }).cause ?? e;
    const code = String((e as { code?: unknown }).code ?? (cause as { code?: unknown })?.code ?? "");
    if (isStoreUnavailable(e) || isStoreUnavailable(cause) || /^E(ROFS|ACCES|PERM|NOSPC)$/.test(code))
      throw folderTrouble(dir, cause);
    throw e;
  }
}

/** No space left for an unprivileged writer on the disk holding `dir`. */
function diskFull(dir: string): boolean {
  try {
    const fs = statfsSync(dir);
    return fs.bavail === 0 || fs.ffree === 0;
  } catch {
    return false;
  }
}

/** An in-memory store for tests: same schema, same pragmas where they apply. */
export function openMemoryStore(): Store {
  const sqlite = new Database(":memory:", { strict: true });
  configureConnection(sqlite);
  const db = drizzle({ client: sqlite, schema });
  applyMigrations(db);
  return new Store(":memory:", ":memory:", sqlite, db);
}
