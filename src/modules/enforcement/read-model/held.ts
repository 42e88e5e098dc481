import type { TicketStatus } from "../../../domain/tickets/rules.ts";
import type { ListedPermit } from "../../../platform/store/permits.ts";
import type { ListedTicket } from "../../../platform/store/tickets/rows.ts";

/** What a plate holds right now (entries not started or ended before the cutoff left out). */
export interface PlateEntries {
  tickets: ListedTicket[];
  permits: ListedPermit[];
}

/**
 * The set itself, in the JavaScript heap: a plate's entries by its normalized plate, a zone's by
 * its zone (what zone answers are built from), and each entry by its id for the rereads and the
 * sweeps. Reading two indexed tables per lookup (even
 * temporary ones) cost more than the rest of the lookup; a map costs a fraction of a microsecond.
 */
export class LiveCopy {
  /** A plate's entries: one entry alone (most plates), or several in an array. */
  private readonly byPlate = new Map<string, Entry | Entry[]>();
  private readonly tickets = new Map<string, ListedTicket>();
  private readonly permits = new Map<number, ListedPermit>();
  private readonly office = new Map<number, ListedPermit>();
  private readonly byZone = new Map<number, Set<Entry>>();

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

  /**
   * As TicketRecords.listedInZone and PermitRecords.listedInZone: the zone's entries, started
   * or not, that end after the cutoff or not at all.
   */
  inZone(zone: number, cutoff: number): PlateEntries {
    const found: PlateEntries = { tickets: [], permits: [] };
    for (const e of this.byZone.get(zone) ?? []) {
      if (e.endAt !== null && e.endAt <= cutoff) continue;
      if (isTicket(e)) found.tickets.push(e);
      else found.permits.push(e);
    }
    return found;
  }

  /** As inZone, for one plate's entries only. */
  plateInZone(plateNorm: string, zone: number, cutoff: number): PlateEntries {
    const found: PlateEntries = { tickets: [], permits: [] };
    const held = this.byPlate.get(plateNorm);
    if (held === undefined) return found;
    for (const e of Array.isArray(held) ? held : [held]) {
      if (e.zone !== zone || (e.endAt !== null && e.endAt <= cutoff)) continue;
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

  /** The ticket held under this id, if any. */
  ticket(id: string): ListedTicket | undefined {
    return this.tickets.get(id);
  }

  permit(id: number, office: boolean): ListedPermit | undefined {
    return (office ? this.office : this.permits).get(id);
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
    this.byZone.clear();
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
    let zone = this.byZone.get(e.zone);
    if (!zone) {
      zone = new Set();
      this.byZone.set(e.zone, zone);
    }
    zone.add(e);
    const held = this.byPlate.get(e.plateNorm);
    if (held === undefined) this.byPlate.set(e.plateNorm, e);
    else if (Array.isArray(held)) held.push(e);
    else this.byPlate.set(e.plateNorm, [held, e]);
  }

  private drop<Id>(ids: Map<Id, Entry>, id: Id): void {
    const e = ids.get(id);
    if (e === undefined) return;
    ids.delete(id);
    const zone = this.byZone.get(e.zone)!;
    zone.delete(e);
    if (zone.size === 0) this.byZone.delete(e.zone);
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
