import { Database, type Statement } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import type { MigrationMeta } from "drizzle-orm/migrator";
import { configureConnection } from "./connection.ts";
import { CredentialRecords } from "./credentials.ts";
import { LivePermits } from "./live-permits.ts";
import { LookupRecords } from "./lookups.ts";
import { LotRecords } from "./lots.ts";
import { embeddedMigrations } from "./migrations.macro.ts" with { type: "macro" };
import { PermitRecords } from "./permits.ts";
import { StoreProbe } from "./probe.ts";
import * as schema from "./schema/index.ts";
import { TicketRecords } from "./tickets.ts";
import { ZoneVersions } from "./zone-versions.ts";

export { commitRelaxed, isStoreUnavailable } from "./connection.ts";

export type Db = BunSQLiteDatabase<typeof schema>;

/**
 * The open store: the connection, and one repository per table group, each the only place that
 * holds SQL for its tables. Repositories are made on first use, so a CLI command prepares only
 * the statements it needs.
 */
export class Store {
  private repos: {
    tickets?: TicketRecords;
    permits?: PermitRecords;
    lots?: LotRecords;
    credentials?: CredentialRecords;
    lookups?: LookupRecords;
    probe?: StoreProbe;
    zoneVersions?: ZoneVersions;
    live?: LivePermits;
  } = {};
  private readonly dataVersionQuery: Statement<{ data_version: number }, []>;
  private readonly totalChangesQuery: Statement<{ n: number }, []>;

  constructor(
    /** Absolute path of the SQLite file. */
    readonly path: string,
    readonly dataDir: string,
    readonly sqlite: Database,
    readonly db: Db,
  ) {
    this.dataVersionQuery = sqlite.prepare("PRAGMA data_version");
    this.totalChangesQuery = sqlite.prepare("SELECT total_changes() AS n");
  }

  get tickets(): TicketRecords {
    this.repos.tickets ??= new TicketRecords(this.sqlite);
    return this.repos.tickets;
  }
  get permits(): PermitRecords {
    this.repos.permits ??= new PermitRecords(this.sqlite, this.db);
    return this.repos.permits;
  }
  get lots(): LotRecords {
    this.repos.lots ??= new LotRecords(this.sqlite, this.db);
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
  get probe(): StoreProbe {
    this.repos.probe ??= new StoreProbe(this.sqlite);
    return this.repos.probe;
  }
  get zoneVersions(): ZoneVersions {
    this.repos.zoneVersions ??= new ZoneVersions(this.sqlite);
    return this.repos.zoneVersions;
  }

  /** What a plate lookup can return, held in memory and kept current by the repositories' writes. */
  get live(): LivePermits {
    this.repos.live ??= new LivePermits(this.tickets, this.permits, this);
    return this.repos.live;
  }

  /** Moves when another connection (a CLI command while serve runs) commits. */
  dataVersion(): number {
    return this.dataVersionQuery.get()!.data_version;
  }

  /**
   * Rows written on this connection since it opened, triggers included (rolled back ones too):
   * a fraction of a µs to ask, where data_version costs several.
   */
  totalChanges(): number {
    return this.totalChangesQuery.get()!.n;
  }

  /** `fn` as one transaction (a nested call is a savepoint); `.immediate` takes the write lock first. */
  transaction<A extends unknown[], T>(fn: (...args: A) => T) {
    return this.sqlite.transaction(fn);
  }

  close(): void {
    this.sqlite.close(false);
  }
}

export const STORE_FILE = "parkd.db";
const migrations: MigrationMeta[] = embeddedMigrations();

export function storePath(dataDir: string): string {
  return join(resolve(dataDir), STORE_FILE);
}

/**
 * Opens (creating if needed) the store in dataDir and brings its schema up to date.
 * WAL with synchronous=FULL: a commit is on disk before we answer, so an acknowledged
 * event survives a power cut.
 */
export function openStore(dataDir: string, opts: { migrate?: boolean } = {}): Store {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, STORE_FILE);
  const sqlite = new Database(path, { create: true, strict: true });
  configureConnection(sqlite);
  const db = drizzle({ client: sqlite, schema });
  if (opts.migrate !== false) applyMigrations(db);
  return new Store(path, dir, sqlite, db);
}

/** An in-memory store for tests: same schema, same pragmas where they apply. */
export function openMemoryStore(): Store {
  const sqlite = new Database(":memory:", { strict: true });
  configureConnection(sqlite);
  const db = drizzle({ client: sqlite, schema });
  applyMigrations(db);
  return new Store(":memory:", ":memory:", sqlite, db);
}

interface Migrator {
  dialect: { migrate(m: MigrationMeta[], session: unknown, config: { migrationsFolder: string }): void };
  session: unknown;
}

export function applyMigrations(db: Db): void {
  const m = db as unknown as Migrator;
  m.dialect.migrate(migrations, m.session, { migrationsFolder: "(embedded)" });
}

/** Number of migrations this build knows; the store's schema version once migrated. */
export const SCHEMA_VERSION = migrations.length;

export function appliedSchemaVersion(sqlite: Database): number {
  try {
    const row = sqlite.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number } | null;
    return row?.n ?? 0;
  } catch {
    return 0;
  }
}
