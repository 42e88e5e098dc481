import type { Database, Statement } from "bun:sqlite";
import type { ListedPermit, PermitRecords } from "./permits.ts";
import type { LiveCursor, TicketRecords } from "./tickets/records.ts";
import type { ListedTicket } from "./tickets/rows.ts";

/** How far the clock moves on before entries that can no longer be listed are swept out. */
const SWEEP_MS = 60_000;
/** Past this many tickets written since the last answer, reading the whole set again is cheaper. */
const MAX_REREAD = 20_000;

/** What LivePermits asks of the connection (the Store). */
export interface Connection {
  dataVersion(): number;
  totalChanges(): number;
}

export interface LiveOptions {
  /** Tickets read per turn of the event loop while the set is (re)built. */
  slice?: number;
  /** Another process's commits are looked for at most this often (ms, monotonic); 0: every answer. */
  versionCheckMs?: number;
}

export interface PlateEntries {
  tickets: ListedTicket[];
  permits: ListedPermit[];
}

interface Build {
  horizon: number;
  version: number;
  after: LiveCursor | null;
}

/**
 * The tickets and operator permits a plate lookup can return, copied into two small temporary
 * tables of the connection (LiveCopy, in memory or the temp file, never in the store): every one
 * not canceled that is open-ended or ends after the horizon, started or not. That is about a day
 * of tickets out of the 90 kept, so a lookup reads a table of 36 000 rows that takes no lock,
 * instead of two indexed queries on the plate's whole history in the store. `forPlate` answers exactly what `TicketRecords.listedForPlate`
 * and `PermitRecords.listedForPlate` answer (test/platform/store/live-permits.test.ts checks it
 * on random writes, builds and clock moves):
 * - Writes on this connection, by whatever code: temporary triggers note the id of every ticket
 *   and permit written (WriteNotes); each is read again before the next answer (the notes are
 *   looked at only when the connection's total_changes moved). A write rolled back takes its
 *   note back; `serve` also reads the notes every second so they do not pile up.
 * - Another process's commit (a CLI command on the same store) moves `PRAGMA data_version`,
 *   looked at no more than every `versionCheckMs` (a 100 ms: the pragma costs a few µs, more than
 *   the rest of the lookup); the set is then built again.
 * - Time: entries that ended before the horizon are swept out as the clock moves on; a clock set
 *   back before the horizon builds the set again.
 * Building reads the set a slice per turn of the event loop (on the 1M-ticket bench store it is
 * about 36 000 rows scattered over the file, a few hundred ms in all), so it never holds up
 * requests; until it is done, lookups are answered by the queries themselves.
 */
export class LivePermits {
  private readonly copy: LiveCopy;
  /** Rows ending at or before the horizon are not held; null while not built. */
  private horizon: number | null = null;
  private dataVersion = -1;
  private versionCheckedAt = Number.NEGATIVE_INFINITY;
  /** total_changes when the notes were last taken: unchanged, there are none to take. */
  private changesSeen = -1;
  private building: Build | null = null;
  private readonly slice: number;
  private readonly versionCheckMs: number;

  constructor(
    private readonly tickets: TicketRecords,
    private readonly permits: PermitRecords,
    private readonly connection: Connection,
    sqlite: Database,
    opts: LiveOptions = {},
  ) {
    this.copy = new LiveCopy(sqlite);
    this.slice = opts.slice ?? 500;
    this.versionCheckMs = opts.versionCheckMs ?? 100;
    // From now on every write is noted (the first take sets the notes up).
    tickets.takeWritten();
    permits.takeWritten();
  }

  /**
   * As TicketRecords.listedForPlate and PermitRecords.listedForPlate: started by `now`, not
   * canceled, open-ended or ending after `cutoff`.
   */
  forPlate(plateNorm: string, now: number, cutoff: number): PlateEntries {
    if (!this.update(cutoff))
      return {
        tickets: this.tickets.listedForPlate(plateNorm, now, cutoff),
        permits: this.permits.listedForPlate(plateNorm, now, cutoff),
      };
    return this.copy.forPlate(plateNorm, now, cutoff);
  }

  /** How many tickets and permits are held (for tests and the bench). */
  get size(): number {
    return this.copy.size();
  }

  /** True when the set is built and current for answers with this cutoff; else starts building it. */
  update(cutoff: number): boolean {
    const at = performance.now();
    if (at - this.versionCheckedAt >= this.versionCheckMs) {
      this.versionCheckedAt = at;
      const version = this.connection.dataVersion();
      if (version !== this.dataVersion) {
        this.dataVersion = version;
        this.horizon = null;
      }
    }
    if (this.horizon !== null && cutoff < this.horizon) this.horizon = null;
    if (this.horizon === null) {
      // A build that started before what made this one needed is started over.
      if (this.building?.version !== this.dataVersion || this.building.horizon > cutoff) this.build(cutoff);
      return false;
    }
    const changes = this.connection.totalChanges();
    if (changes === this.changesSeen) {
      if (cutoff - this.horizon >= SWEEP_MS) this.sweep(cutoff);
      return true;
    }
    this.changesSeen = changes;
    const tickets = this.tickets.takeWritten();
    const permits = this.permits.takeWritten();
    if (tickets.length > MAX_REREAD) {
      this.horizon = null;
      this.build(cutoff);
      return false;
    }
    for (const id of tickets) this.rereadTicket(id);
    for (const id of permits) this.rereadPermit(id);
    if (cutoff - this.horizon >= SWEEP_MS) this.sweep(cutoff);
    return true;
  }

  /** Starts reading the whole set afresh, a slice per turn of the event loop. */
  private build(horizon: number): void {
    const build: Build = { horizon, version: this.dataVersion, after: null };
    this.building = build;
    this.copy.clear();
    // Whatever was written before now is in what is read from now on; later writes leave notes.
    this.tickets.takeWritten();
    this.permits.takeWritten();
    for (const p of this.permits.live(horizon)) this.copy.putPermit(p);
    const step = () => {
      if (this.building !== build) return;
      let slice: ReturnType<TicketRecords["live"]>;
      try {
        slice = this.tickets.live(horizon, this.slice, build.after);
      } catch {
        // The connection closed under the build (shutdown, or Store.recoverWrites moved to a new
        // one, which has a set of its own): the build is dropped; a later update starts another.
        this.building = null;
        return;
      }
      for (const t of slice.rows) this.copy.putTicket(t);
      build.after = slice.next;
      if (slice.next) {
        setImmediate(step);
        return;
      }
      this.building = null;
      this.horizon = horizon;
    };
    step();
  }

  private rereadTicket(id: string): void {
    this.copy.dropTicket(id);
    const t = this.tickets.listed(id);
    if (t && t.status !== "canceled" && this.holds(t.endAt)) this.copy.putTicket(t);
  }

  private rereadPermit(id: number): void {
    this.copy.dropPermit(id);
    const p = this.permits.listed(id);
    if (p && this.holds(p.endAt)) this.copy.putPermit(p);
  }

  private holds(endAt: number | null): boolean {
    return endAt === null || endAt > this.horizon!;
  }

  /** Drops what ended at or before the new horizon: no later answer (cutoff ≥ horizon) lists it. */
  private sweep(horizon: number): void {
    this.horizon = horizon;
    this.copy.dropEnded(horizon);
  }
}

const TICKETS = "parkd_live_tickets";
const PERMITS = "parkd_live_permits";
const TICKET_COLUMNS = `ticket_id AS ticketId, zone, parking_lot_id AS parkingLotId, start_at AS startAt,
  end_at AS endAt, plate, plate_norm AS plateNorm, status, updated_at AS updatedAt`;
const PERMIT_COLUMNS =
  "id, zone, start_at AS startAt, end_at AS endAt, plate, plate_norm AS plateNorm, note, days";
const COUNTS = "plate_norm = ?1 AND start_at <= ?2 AND (end_at IS NULL OR end_at > ?3)";

/**
 * The set itself, in two temporary tables of the connection: outside the JavaScript heap (held
 * there it grew the heap by 18-22 MB, and the process's peak size by about 50 MB under load),
 * and a temporary table needs none of the locks a read of the store takes.
 */
class LiveCopy {
  private readonly ticketsFor: Statement<ListedTicket, [string, number, number]>;
  private readonly permitsFor: Statement<ListedPermit, [string, number, number]>;
  private readonly putT: Statement<void, (string | number | null)[]>;
  private readonly putP: Statement<void, (string | number | null)[]>;
  private readonly dropT: Statement<void, [string]>;
  private readonly dropP: Statement<void, [number]>;
  private readonly endedT: Statement<void, [number]>;
  private readonly endedP: Statement<void, [number]>;
  private readonly count: Statement<{ n: number }, []>;

  constructor(private readonly sqlite: Database) {
    sqlite.run(`CREATE TEMP TABLE IF NOT EXISTS ${TICKETS} (ticket_id TEXT PRIMARY KEY, zone INTEGER,
      parking_lot_id INTEGER, start_at INTEGER, end_at INTEGER, plate TEXT, plate_norm TEXT, status TEXT,
      updated_at INTEGER)`);
    sqlite.run(`CREATE INDEX IF NOT EXISTS temp.${TICKETS}_plate ON ${TICKETS} (plate_norm)`);
    sqlite.run(`CREATE INDEX IF NOT EXISTS temp.${TICKETS}_end ON ${TICKETS} (end_at)`);
    sqlite.run(`CREATE TEMP TABLE IF NOT EXISTS ${PERMITS} (id INTEGER PRIMARY KEY, zone INTEGER,
      start_at INTEGER, end_at INTEGER, plate TEXT, plate_norm TEXT, note TEXT, days TEXT)`);
    sqlite.run(`CREATE INDEX IF NOT EXISTS temp.${PERMITS}_plate ON ${PERMITS} (plate_norm)`);
    this.ticketsFor = sqlite.prepare(`SELECT ${TICKET_COLUMNS} FROM temp.${TICKETS} WHERE ${COUNTS}`);
    this.permitsFor = sqlite.prepare(`SELECT ${PERMIT_COLUMNS} FROM temp.${PERMITS} WHERE ${COUNTS}`);
    this.putT = sqlite.prepare(`INSERT OR REPLACE INTO temp.${TICKETS} (ticket_id, zone, parking_lot_id,
      start_at, end_at, plate, plate_norm, status, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.putP = sqlite.prepare(`INSERT OR REPLACE INTO temp.${PERMITS} (id, zone, start_at, end_at, plate,
      plate_norm, note, days) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    this.dropT = sqlite.prepare(`DELETE FROM temp.${TICKETS} WHERE ticket_id = ?1`);
    this.dropP = sqlite.prepare(`DELETE FROM temp.${PERMITS} WHERE id = ?1`);
    this.endedT = sqlite.prepare(`DELETE FROM temp.${TICKETS} WHERE end_at <= ?1`);
    this.endedP = sqlite.prepare(`DELETE FROM temp.${PERMITS} WHERE end_at <= ?1`);
    this.count = sqlite.prepare(
      `SELECT (SELECT count(*) FROM temp.${TICKETS}) + (SELECT count(*) FROM temp.${PERMITS}) AS n`,
    );
  }

  forPlate(plateNorm: string, now: number, cutoff: number): PlateEntries {
    return {
      tickets: this.ticketsFor.all(plateNorm, now, cutoff),
      permits: this.permitsFor.all(plateNorm, now, cutoff),
    };
  }

  putTicket(t: ListedTicket): void {
    this.putT.run(
      t.ticketId,
      t.zone,
      t.parkingLotId,
      t.startAt,
      t.endAt,
      t.plate,
      t.plateNorm,
      t.status,
      t.updatedAt,
    );
  }

  putPermit(p: ListedPermit): void {
    this.putP.run(p.id, p.zone, p.startAt, p.endAt, p.plate, p.plateNorm, p.note, p.days);
  }

  dropTicket(id: string): void {
    this.dropT.run(id);
  }

  dropPermit(id: number): void {
    this.dropP.run(id);
  }

  dropEnded(horizon: number): void {
    this.endedT.run(horizon);
    this.endedP.run(horizon);
  }

  clear(): void {
    this.sqlite.run(`DELETE FROM temp.${TICKETS}`);
    this.sqlite.run(`DELETE FROM temp.${PERMITS}`);
  }

  size(): number {
    return this.count.get()!.n;
  }
}
