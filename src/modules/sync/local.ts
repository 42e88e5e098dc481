import type { StoredLookup } from "../../platform/store/lookups.ts";
import type { StoredLot } from "../../platform/store/lots.ts";
import type { SyncedNotice, SyncedPhoto } from "../../platform/store/notices.ts";
import type { StoredObservation } from "../../platform/store/observations.ts";
import type { OfficePermit } from "../../platform/store/permits.ts";
import type { CountedStream, SyncStream } from "../../platform/store/sync-cursors.ts";
import type { SyncedEvent, SyncedTicket } from "../../platform/store/tickets/rows.ts";
import type { SyncStore } from "./deps.ts";

/** One push's worth of local rows, read in one snapshot. */
export interface LocalBatch {
  events: SyncedEvent[];
  tickets: SyncedTicket[];
  lookups: StoredLookup[];
  /** Every lot, when they changed since the last push (by fingerprint); else null. */
  lots: { rows: StoredLot[]; fingerprint: string } | null;
  /** Notices issued, voided or given a photo since the last push, each with its photos' records. */
  notices: SyncedNotice[];
  observations: StoredObservation[];
  /** The cursors the batch follows: the office must hold the rows at or below them already. */
  after: Record<CountedStream, number>;
}

/** Where the photo files stand: the last (notice sync_seq, hash) the office took. */
export interface PhotoCursor {
  seq: number;
  hash: string;
}

export function parsePhotoCursor(value: string | undefined): PhotoCursor {
  const at = value?.indexOf(":") ?? -1;
  if (value === undefined || at < 0) return { seq: 0, hash: "" };
  return { seq: Number(value.slice(0, at)) || 0, hash: value.slice(at + 1) };
}

export const photoCursorValue = (c: PhotoCursor) => `${c.seq}:${c.hash}`;

/** The numbers a store hands out that the office keeps (a notice's number is printed on it). */
export interface LocalIds {
  events: number;
  lookups: number;
  notices: number;
  noticeNumber: number;
  observations: number;
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

  position(stream: CountedStream): number {
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
      const after = {
        events: s.syncCursors.position("events"),
        lookups: s.syncCursors.position("lookups"),
        notices: s.syncCursors.position("notices"),
        observations: s.syncCursors.position("observations"),
      };
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
      const notices = s.notices.syncAfter(after.notices, limit);
      const observations = s.observations.after(after.observations, limit);
      return { events, tickets, lookups, lots, notices, observations, after };
    })();
  }

  /** The photos the office may take next: of notices it holds already, after the photo cursor. */
  photoCandidates(limit: number): SyncedPhoto[] {
    const s = this.store;
    return s.transaction(() =>
      s.notices.photosAfter(
        parsePhotoCursor(s.syncCursors.get("photos")),
        s.syncCursors.position("notices"),
        limit,
      ),
    )();
  }

  /** A photo's file; null when retention removed it since its record was read. */
  photoFile(hash: string): Uint8Array | null {
    return this.store.photos.read(hash);
  }

  /** The highest of each number this store ever handed out. */
  lastIds(): LocalIds {
    const notices = this.store.notices.lastIds();
    return {
      events: this.store.ticketSync.lastSeq(),
      lookups: this.store.lookups.lastId(),
      notices: notices.sync,
      noticeNumber: notices.number,
      observations: this.store.observations.lastId(),
    };
  }

  /** New rows are numbered after these (see reconcile). */
  continueAfter(ids: LocalIds): void {
    this.store.ticketSync.continueAfter(ids.events);
    this.store.lookups.continueAfter(ids.lookups);
    this.store.notices.continueAfter({ number: ids.noticeNumber, sync: ids.notices });
    this.store.observations.continueAfter(ids.observations);
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
