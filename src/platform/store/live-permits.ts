import type { ListedPermit, PermitRecords } from "./permits.ts";
import type { ListedTicket } from "./ticket-rows.ts";
import type { LiveCursor, TicketRecords } from "./tickets.ts";

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

type Held = ListedTicket | ListedPermit;
const isTicket = (h: Held): h is ListedTicket => "ticketId" in h;

interface Build {
  horizon: number;
  version: number;
  after: LiveCursor | null;
}

/**
 * The tickets and operator permits a plate lookup can return, held in memory by normalized plate:
 * every one not canceled that is open-ended or ends after the horizon, started or not. That is
 * about a day of tickets out of the 90 kept, so a lookup is a map read instead of two indexed
 * queries on the whole history. `forPlate` answers exactly what `TicketRecords.listedForPlate`
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
  /** A plate's tickets and permits in one array (a permit has an `id`, a ticket a `ticketId`). */
  private readonly plates = new Map<string, Held[]>();
  /** Where each held ticket / permit is, to take it out when it changes. */
  private readonly ticketPlates = new Map<string, string>();
  private readonly permitPlates = new Map<number, string>();
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
    const held = this.plates.get(plateNorm);
    const out: PlateEntries = { tickets: [], permits: [] };
    if (!held) return out;
    for (const h of held) {
      if (h.startAt > now || (h.endAt !== null && h.endAt <= cutoff)) continue;
      if (isTicket(h)) out.tickets.push(h);
      else out.permits.push(h);
    }
    return out;
  }

  /** How many tickets and permits are held (for tests and the bench). */
  get size(): number {
    return this.ticketPlates.size + this.permitPlates.size;
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
    this.plates.clear();
    this.ticketPlates.clear();
    this.permitPlates.clear();
    // Whatever was written before now is in what is read from now on; later writes leave notes.
    this.tickets.takeWritten();
    this.permits.takeWritten();
    for (const p of this.permits.live(horizon)) this.addPermit(p);
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
      for (const t of slice.rows) this.addTicket(t);
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
    this.removeTicket(id);
    const t = this.tickets.listed(id);
    if (t && t.status !== "canceled" && this.holds(t.endAt)) this.addTicket(t);
  }

  private rereadPermit(id: number): void {
    this.removePermit(id);
    const p = this.permits.listed(id);
    if (p && this.holds(p.endAt)) this.addPermit(p);
  }

  private holds(endAt: number | null): boolean {
    return endAt === null || endAt > this.horizon!;
  }

  /** Drops what ended at or before the new horizon: no later answer (cutoff ≥ horizon) lists it. */
  private sweep(horizon: number): void {
    this.horizon = horizon;
    for (const [plate, held] of this.plates) {
      const kept = held.filter((h) => {
        if (this.holds(h.endAt)) return true;
        if (isTicket(h)) this.ticketPlates.delete(h.ticketId);
        else this.permitPlates.delete(h.id);
        return false;
      });
      if (kept.length === 0) this.plates.delete(plate);
      else if (kept.length < held.length) this.plates.set(plate, kept);
    }
  }

  private hold(plateNorm: string, h: Held): void {
    const held = this.plates.get(plateNorm);
    if (held) held.push(h);
    else this.plates.set(plateNorm, [h]);
  }

  private release(plateNorm: string, gone: (h: Held) => boolean): void {
    const held = this.plates.get(plateNorm)!;
    const kept = held.filter((h) => !gone(h));
    if (kept.length === 0) this.plates.delete(plateNorm);
    else this.plates.set(plateNorm, kept);
  }

  // A ticket written while the set is built may be read twice (in two slices): once is kept.
  private addTicket(t: ListedTicket): void {
    this.removeTicket(t.ticketId);
    this.hold(t.plateNorm, t);
    this.ticketPlates.set(t.ticketId, t.plateNorm);
  }

  private addPermit(p: ListedPermit): void {
    this.removePermit(p.id);
    this.hold(p.plateNorm, p);
    this.permitPlates.set(p.id, p.plateNorm);
  }

  private removeTicket(id: string): void {
    const plate = this.ticketPlates.get(id);
    if (plate === undefined) return;
    this.ticketPlates.delete(id);
    this.release(plate, (h) => isTicket(h) && h.ticketId === id);
  }

  private removePermit(id: number): void {
    const plate = this.permitPlates.get(id);
    if (plate === undefined) return;
    this.permitPlates.delete(id);
    this.release(plate, (h) => !isTicket(h) && h.id === id);
  }
}
