import type { StoredLookup } from "../../platform/store/lookups.ts";
import type { StoredLot } from "../../platform/store/lots.ts";
import type { OfficePermit } from "../../platform/store/permits.ts";
import type { SyncStream } from "../../platform/store/sync-cursors.ts";
import type { SyncedEvent, SyncedTicket } from "../../platform/store/tickets/rows.ts";
import type { SyncStore } from "./deps.ts";

/** One push's worth of local rows, read in one snapshot. */
export interface LocalBatch {
  events: SyncedEvent[];
  tickets: SyncedTicket[];
  lookups: StoredLookup[];
  /** Every lot, when they changed since the last push (by fingerprint); else null. */
  lots: { rows: StoredLot[]; fingerprint: string } | null;
  /** The cursors the batch follows: the office must hold the rows at or below them already. */
  after: { events: number; lookups: number };
}

/** What the sync reads from and writes to the box's own store, through its repositories. */
export class SyncLocal {
  constructor(private readonly store: SyncStore) {}

  cursor(stream: SyncStream): string | undefined {
    return this.store.syncCursors.get(stream);
  }

  /** This store's id at the office, made on first use; it travels with backups and restores. */
  boxId(now: number): string {
    let id = this.store.syncCursors.get("box");
    if (!id) {
      id = crypto.randomUUID();
      this.store.syncCursors.set({ box: id }, now);
    }
    return id;
  }

  position(stream: "events" | "lookups"): number {
    return this.store.syncCursors.position(stream);
  }

  /** Stores the cursors of one push together, so a restart resumes from all or none of them. */
  setCursors(values: Partial<Record<SyncStream, string>>, now: number): void {
    this.store.syncCursors.set(values, now);
  }

  /**
   * The next events after the cursor with the current state of the tickets they touch, the next
   * lookup records, and the lots if they changed: all from one snapshot, so a ticket's state is
   * never older than the events sent with it.
   */
  batch(limit: number): LocalBatch {
    const s = this.store;
    return s.transaction((): LocalBatch => {
      const after = { events: s.syncCursors.position("events"), lookups: s.syncCursors.position("lookups") };
      const events = s.ticketSync.eventsAfter(after.events, limit);
      const tickets: SyncedTicket[] = [];
      const seen = new Set<string>();
      for (const e of events) {
        if (seen.has(e.ticketId)) continue;
        seen.add(e.ticketId);
        // Null when retention deleted it after its events were read: nothing left to describe.
        const t = s.ticketSync.synced(e.ticketId);
        if (t) tickets.push(t);
      }
      const lookups = s.lookups.after(after.lookups, limit);
      const fingerprint = s.lots.fingerprint();
      const lots = fingerprint === s.syncCursors.get("lots") ? null : { rows: s.lots.rows(), fingerprint };
      return { events, tickets, lookups, lots, after };
    })();
  }

  /** The highest event seq and lookup id this store ever handed out. */
  lastIds(): { events: number; lookups: number } {
    return { events: this.store.ticketSync.lastSeq(), lookups: this.store.lookups.lastId() };
  }

  /** New events and lookup records are numbered after these (see CentralSync.reconcile). */
  continueAfter(ids: { events: number; lookups: number }): void {
    this.store.ticketSync.continueAfter(ids.events);
    this.store.lookups.continueAfter(ids.lookups);
  }

  /** Events the office does not have yet, and when the oldest of them arrived. */
  pending(): { events: number; oldestReceivedAt: number | null } {
    const r = this.store.ticketSync.eventsPending(this.position("events"));
    return { events: r.count, oldestReceivedAt: r.oldestReceivedAt };
  }

  centralPermitCount(): number {
    return this.store.permits.officeCount();
  }

  /** Applies one pull and saves its horizon, in one transaction. */
  applyPull(keep: OfficePermit[], drop: number[], horizon: string, endedBefore: number, now: number): void {
    this.store.transaction(() => {
      this.store.permits.applyOfficePull(keep, drop, endedBefore, now);
      this.store.syncCursors.set({ permits: horizon }, now);
    })();
  }
}
