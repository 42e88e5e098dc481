import type { ListedPermit, PermitRecords } from "./permits.ts";
import type { ListedTicket, TicketRecords } from "./tickets.ts";

/** How far the clock moves on before entries that can no longer be listed are swept out. */
const SWEEP_MS = 60_000;
/** Past this many tickets written since the last answer, reading the whole set again is cheaper. */
const MAX_REREAD = 20_000;

export interface PlateEntries {
  tickets: ListedTicket[];
  permits: ListedPermit[];
}

/**
 * The tickets and operator permits a plate lookup can return, held in memory by normalized plate:
 * every one not canceled that is open-ended or ends after the horizon (started or not). That is
 * about a day of tickets out of the 90 kept, so a lookup is a map read instead of two indexed
 * queries on the whole history. It answers exactly what `TicketRecords.listedForPlate` and
 * `PermitRecords.listedForPlate` answer (test/platform/store/live-permits.test.ts checks it on
 * random writes and clock moves):
 * - Writes on this connection, by whatever code: temporary triggers note the id of every ticket
 *   and permit written (TicketRecords/PermitRecords.watchWrites); each is read again from the
 *   store before the next answer. A write rolled back takes its note back; `serve` also reads
 *   the notes every second, so they do not pile up while nobody looks a plate up.
 * - Writes by another process (a CLI command on the same store): `PRAGMA data_version` moves and
 *   the whole set is read again (about 30 000 rows on a busy site: tens of ms).
 * - Time: entries that ended before the horizon are swept out as the clock moves on; a clock set
 *   back before the horizon rebuilds the set.
 * It is built on the first lookup (`serve` builds it right after start).
 */
export class LivePermits {
  private readonly plates = new Map<string, PlateEntries>();
  /** Where each held ticket / permit is, to take it out when it changes. */
  private readonly ticketPlates = new Map<string, string>();
  private readonly permitPlates = new Map<number, string>();
  /** Rows ending at or before the horizon are not held; null until built (or after an overflow). */
  private horizon: number | null = null;
  private dataVersion = -1;

  constructor(
    private readonly tickets: TicketRecords,
    private readonly permits: PermitRecords,
    private readonly currentDataVersion: () => number,
  ) {
    tickets.watchWrites();
    permits.watchWrites();
  }

  /**
   * As TicketRecords.listedForPlate and PermitRecords.listedForPlate: started by `now`, not
   * canceled, open-ended or ending after `cutoff`.
   */
  forPlate(plateNorm: string, now: number, cutoff: number): PlateEntries {
    this.update(cutoff);
    const held = this.plates.get(plateNorm);
    const out: PlateEntries = { tickets: [], permits: [] };
    if (!held) return out;
    for (const t of held.tickets)
      if (t.startAt <= now && (t.endAt === null || t.endAt > cutoff)) out.tickets.push(t);
    for (const p of held.permits)
      if (p.startAt <= now && (p.endAt === null || p.endAt > cutoff)) out.permits.push(p);
    return out;
  }

  /** How many tickets and permits are held (for tests and the bench). */
  get size(): number {
    return this.ticketPlates.size + this.permitPlates.size;
  }

  /** Brings the set up to date for answers with this cutoff. */
  update(cutoff: number): void {
    const version = this.currentDataVersion();
    if (this.horizon === null || version !== this.dataVersion || cutoff < this.horizon) {
      this.rebuild(cutoff, version);
      return;
    }
    this.readWritten(cutoff, version);
    if (cutoff - this.horizon >= SWEEP_MS) this.sweep(cutoff);
  }

  private rebuild(horizon: number, version: number): void {
    this.plates.clear();
    this.ticketPlates.clear();
    this.permitPlates.clear();
    // What was written before is in what is read now.
    this.tickets.takeWritten();
    this.permits.takeWritten();
    this.horizon = horizon;
    this.dataVersion = version;
    for (const t of this.tickets.live(horizon)) this.addTicket(t);
    for (const p of this.permits.live(horizon)) this.addPermit(p);
  }

  /** Reads again what this connection wrote since the last answer. */
  private readWritten(cutoff: number, version: number): void {
    const tickets = this.tickets.takeWritten();
    const permits = this.permits.takeWritten();
    if (tickets.length > MAX_REREAD) {
      this.rebuild(cutoff, version);
      return;
    }
    for (const id of tickets) {
      this.removeTicket(id);
      const t = this.tickets.listed(id);
      if (t && t.status !== "canceled" && this.holds(t.endAt)) this.addTicket(t);
    }
    for (const id of permits) {
      this.removePermit(id);
      const p = this.permits.listed(id);
      if (p && this.holds(p.endAt)) this.addPermit(p);
    }
  }

  private holds(endAt: number | null): boolean {
    return endAt === null || endAt > this.horizon!;
  }

  /** Drops what ended at or before the new horizon: no later answer (cutoff ≥ horizon) lists it. */
  private sweep(horizon: number): void {
    this.horizon = horizon;
    for (const [plate, held] of this.plates) {
      held.tickets = held.tickets.filter((t) => {
        if (this.holds(t.endAt)) return true;
        this.ticketPlates.delete(t.ticketId);
        return false;
      });
      held.permits = held.permits.filter((p) => {
        if (this.holds(p.endAt)) return true;
        this.permitPlates.delete(p.id);
        return false;
      });
      if (held.tickets.length === 0 && held.permits.length === 0) this.plates.delete(plate);
    }
  }

  private entriesOf(plateNorm: string): PlateEntries {
    let held = this.plates.get(plateNorm);
    if (!held) {
      held = { tickets: [], permits: [] };
      this.plates.set(plateNorm, held);
    }
    return held;
  }

  private addTicket(t: ListedTicket): void {
    this.entriesOf(t.plateNorm).tickets.push(t);
    this.ticketPlates.set(t.ticketId, t.plateNorm);
  }

  private addPermit(p: ListedPermit): void {
    this.entriesOf(p.plateNorm).permits.push(p);
    this.permitPlates.set(p.id, p.plateNorm);
  }

  private removeTicket(id: string): void {
    const plate = this.ticketPlates.get(id);
    if (plate === undefined) return;
    this.ticketPlates.delete(id);
    const held = this.plates.get(plate)!;
    held.tickets = held.tickets.filter((t) => t.ticketId !== id);
    if (held.tickets.length === 0 && held.permits.length === 0) this.plates.delete(plate);
  }

  private removePermit(id: number): void {
    const plate = this.permitPlates.get(id);
    if (plate === undefined) return;
    this.permitPlates.delete(id);
    const held = this.plates.get(plate)!;
    held.permits = held.permits.filter((p) => p.id !== id);
    if (held.tickets.length === 0 && held.permits.length === 0) this.plates.delete(plate);
  }
}
