import type { TicketStatus } from "../../domain/tickets/rules.ts";
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
 * The tickets and permits (the site's own and the office's) a plate lookup can return, held in
 * memory (LiveCopy): every one not canceled that is open-ended or ends after the horizon, started
 * or not. That is about a day of tickets out of the 90 kept (some 31 000 on the 1M-ticket bench
 * store, about 13 MB of heap), so a lookup reads a map instead of three indexed queries on the
 * plate's whole history. `forPlate` answers exactly what `TicketRecords.listedForPlate`,
 * `PermitRecords.listedForPlate` and `PermitRecords.officeForPlate` answer
 * (test/platform/store/live-permits.test.ts checks it on random writes, builds and clock moves):
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
 * about 31 000 rows scattered over the file, a few hundred ms in all), so it never holds up
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
    opts: LiveOptions = {},
  ) {
    this.copy = new LiveCopy();
    this.slice = opts.slice ?? 500;
    this.versionCheckMs = opts.versionCheckMs ?? 100;
    // From now on every write is noted (the first take sets the notes up).
    this.takeAllWritten();
  }

  /**
   * As TicketRecords.listedForPlate, and PermitRecords.listedForPlate with officeForPlate:
   * started by `now`, not canceled, open-ended or ending after `cutoff`.
   */
  forPlate(plateNorm: string, now: number, cutoff: number): PlateEntries {
    if (!this.update(cutoff)) {
      const permits = this.permits.listedForPlate(plateNorm, now, cutoff);
      for (const p of this.permits.officeForPlate(plateNorm, now, cutoff)) permits.push(p);
      return { tickets: this.tickets.listedForPlate(plateNorm, now, cutoff), permits };
    }
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
    const office = this.permits.takeOfficeWritten();
    if (tickets.length > MAX_REREAD) {
      this.horizon = null;
      this.build(cutoff);
      return false;
    }
    for (const id of tickets) this.rereadTicket(id);
    for (const id of permits) this.rereadPermit(id, false);
    for (const id of office) this.rereadPermit(id, true);
    if (cutoff - this.horizon >= SWEEP_MS) this.sweep(cutoff);
    return true;
  }

  /** Starts reading the whole set afresh, a slice per turn of the event loop. */
  private build(horizon: number): void {
    const build: Build = { horizon, version: this.dataVersion, after: null };
    this.building = build;
    this.copy.clear();
    // Whatever was written before now is in what is read from now on; later writes leave notes.
    this.takeAllWritten();
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

  private rereadPermit(id: number, office: boolean): void {
    this.copy.dropPermit(id, office);
    const p = office ? this.permits.officeListed(id) : this.permits.listed(id);
    if (p && this.holds(p.endAt)) this.copy.putPermit(p);
  }

  private takeAllWritten(): void {
    this.tickets.takeWritten();
    this.permits.takeWritten();
    this.permits.takeOfficeWritten();
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

/**
 * The set itself, in the JavaScript heap: a plate's entries by its normalized plate, and each
 * entry by its id for the rereads and the sweeps. Reading two indexed tables per lookup (even
 * temporary ones) cost more than the rest of the lookup; a map costs a fraction of a microsecond.
 */
class LiveCopy {
  /** A plate's entries: one entry alone (most plates), or several in an array. */
  private readonly byPlate = new Map<string, Entry | Entry[]>();
  private readonly tickets = new Map<string, ListedTicket>();
  private readonly permits = new Map<number, ListedPermit>();
  private readonly office = new Map<number, ListedPermit>();

  forPlate(plateNorm: string, now: number, cutoff: number): PlateEntries {
    const found: PlateEntries = { tickets: [], permits: [] };
    const held = this.byPlate.get(plateNorm);
    if (held === undefined) return found;
    for (const e of Array.isArray(held) ? held : [held]) {
      if (e.startAt > now || (e.endAt !== null && e.endAt <= cutoff)) continue;
      if (isTicket(e)) found.tickets.push(e);
      else found.permits.push(e);
    }
    return found;
  }

  putTicket(t: ListedTicket): void {
    this.dropTicket(t.ticketId);
    const plateNorm = this.sharedPlate(t.plateNorm);
    // A row as read carries its rowid too, and strings of its own: only what answers need is
    // kept, and the plate's strings are shared (the set is ~31 000 entries, all in the heap).
    const held: ListedTicket = {
      ticketId: t.ticketId,
      zone: t.zone,
      parkingLotId: t.parkingLotId,
      startAt: t.startAt,
      endAt: t.endAt,
      plate: t.plate === plateNorm ? plateNorm : t.plate,
      plateNorm,
      status: STATUSES.get(t.status) ?? t.status,
      updatedAt: t.updatedAt,
    };
    this.tickets.set(held.ticketId, held);
    this.add(held);
  }

  putPermit(p: ListedPermit): void {
    const ids = p.office ? this.office : this.permits;
    this.drop(ids, p.id);
    ids.set(p.id, p);
    this.add(p);
  }

  dropTicket(id: string): void {
    this.drop(this.tickets, id);
  }

  dropPermit(id: number, office: boolean): void {
    this.drop(office ? this.office : this.permits, id);
  }

  dropEnded(horizon: number): void {
    for (const ids of [this.tickets, this.permits, this.office] as Map<string | number, Entry>[])
      for (const [id, e] of ids) if (e.endAt !== null && e.endAt <= horizon) this.drop(ids, id);
  }

  clear(): void {
    this.byPlate.clear();
    this.tickets.clear();
    this.permits.clear();
    this.office.clear();
  }

  size(): number {
    return this.tickets.size + this.permits.size + this.office.size;
  }

  /** The plate string already held for this plate, if any. */
  private sharedPlate(plateNorm: string): string {
    const held = this.byPlate.get(plateNorm);
    if (held === undefined) return plateNorm;
    return (Array.isArray(held) ? held[0]! : held).plateNorm;
  }

  private add(e: Entry): void {
    const held = this.byPlate.get(e.plateNorm);
    if (held === undefined) this.byPlate.set(e.plateNorm, e);
    else if (Array.isArray(held)) held.push(e);
    else this.byPlate.set(e.plateNorm, [held, e]);
  }

  private drop<Id>(ids: Map<Id, Entry>, id: Id): void {
    const e = ids.get(id);
    if (e === undefined) return;
    ids.delete(id);
    const held = this.byPlate.get(e.plateNorm)!;
    if (!Array.isArray(held)) this.byPlate.delete(e.plateNorm);
    else {
      held.splice(held.indexOf(e), 1);
      if (held.length === 1) this.byPlate.set(e.plateNorm, held[0]!);
    }
  }
}

/** Ticket statuses as one string each, not one per row read. */
const STATUSES = new Map<string, TicketStatus>(
  (["running", "stopped", "canceled"] as const).map((s) => [s, s]),
);

type Entry = ListedTicket | ListedPermit;

function isTicket(e: Entry): e is ListedTicket {
  return (e as ListedTicket).ticketId !== undefined;
}
