import type { Database, Statement } from "bun:sqlite";
import type { Store } from "../../store/db.ts";
import type { PermitWindow } from "../../store/schema/permits.ts";

/**
 * Everything the sync reads from and writes to the box's own store, in one place. The rows are
 * plain objects typed as the tables hold them; instants are epoch ms.
 */

export interface EventRow {
  seq: number;
  ticketId: string;
  eventType: string;
  receivedAt: number;
  credential: string;
  rawBody: string;
  outcome: string;
}

export interface TicketRow {
  ticketId: string;
  zone: number;
  parkingLotId: number | null;
  lotUnknown: number;
  startAt: number;
  endAt: number | null;
  plate: string;
  plateNorm: string;
  amountInclVat: number | null;
  vatRate: number | null;
  currencyCode: string | null;
  status: string;
  createdAt: number;
  updatedAt: number;
  canceledAt: number | null;
  /** The seq of the ticket's newest event: the state includes everything up to it. */
  lastSeq: number;
}

export interface LotRow {
  id: number;
  name: string;
  numberOfSpaces: number;
  zoneNumber: number;
  maxTime: number;
  maxFee: number;
  active: number;
  fees: string;
  variableFees: string;
  openingHours: string;
  locations: string;
  createdAt: number;
  updatedAt: number;
  updatedBy: string;
}

export interface LookupRow {
  id: number;
  at: number;
  credential: string;
  by: string;
  query: string;
  results: number;
}

export interface CentralPermitRow {
  id: number;
  plate: string;
  plateNorm: string;
  zone: number;
  startAt: number;
  endAt: number | null;
  note: string;
  days: PermitWindow[] | null;
}

export type Stream = "events" | "lookups" | "lots" | "permits";

/** One push's worth of local rows, read in one snapshot. */
export interface LocalBatch {
  events: EventRow[];
  tickets: TicketRow[];
  lookups: LookupRow[];
  /** Every lot, when they changed since the last push (by fingerprint); else null. */
  lots: { rows: LotRow[]; fingerprint: string } | null;
}

const TICKET_COLUMNS = `t.ticket_id AS ticketId, t.zone, t.parking_lot_id AS parkingLotId,
  t.lot_unknown AS lotUnknown, t.start_at AS startAt, t.end_at AS endAt, t.plate, t.plate_norm AS plateNorm,
  t.amount_incl_vat AS amountInclVat, t.vat_rate AS vatRate, t.currency_code AS currencyCode, t.status,
  t.created_at AS createdAt, t.updated_at AS updatedAt, t.canceled_at AS canceledAt`;

export class SyncLocal {
  private readonly sqlite: Database;
  private readonly q: {
    cursor: Statement<{ value: string }, [string]>;
    setCursor: Statement<unknown, [string, string, number]>;
    eventsAfter: Statement<EventRow, [number, number]>;
    ticket: Statement<TicketRow, [string]>;
    lookupsAfter: Statement<LookupRow, [number, number]>;
    lotsFingerprint: Statement<{ f: string }, []>;
    lots: Statement<LotRow, []>;
    pending: Statement<{ n: number; oldest: number | null }, [number]>;
    centralPermits: Statement<{ n: number }, []>;
    upsertPermit: Statement<
      unknown,
      [number, string, string, number, number, number | null, string, string | null, number]
    >;
    deletePermit: Statement<unknown, [number]>;
    deleteEndedPermits: Statement<unknown, [number]>;
  };

  constructor(store: Store) {
    const s = store.sqlite;
    this.sqlite = s;
    this.q = {
      cursor: s.prepare("SELECT value FROM sync_cursors WHERE stream = ?1"),
      setCursor: s.prepare(
        `INSERT INTO sync_cursors (stream, value, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (stream) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      ),
      eventsAfter: s.prepare(
        `SELECT seq, ticket_id AS ticketId, event_type AS eventType, received_at AS receivedAt, credential,
           raw_body AS rawBody, outcome FROM ticket_events WHERE seq > ?1 ORDER BY seq LIMIT ?2`,
      ),
      // The ticket with the seq of its newest event (the index on (ticket_id, seq) gives it).
      ticket: s.prepare(
        `SELECT ${TICKET_COLUMNS}, (SELECT max(seq) FROM ticket_events e WHERE e.ticket_id = t.ticket_id) AS lastSeq
         FROM tickets t WHERE t.ticket_id = ?1`,
      ),
      lookupsAfter: s.prepare(
        "SELECT id, at, credential, by, query, results FROM permit_lookups WHERE id > ?1 ORDER BY id LIMIT ?2",
      ),
      // Any insert, update or delete moves one of these: count and id sum for adds and deletes,
      // the sum of updated_at for edits (every write sets it to the clock).
      lotsFingerprint: s.prepare(
        `SELECT count(*) || ':' || coalesce(sum(id), 0) || ':' || coalesce(sum(updated_at), 0) || ':' ||
           coalesce(max(updated_at), 0) AS f FROM parking_lots`,
      ),
      lots: s.prepare(
        `SELECT id, name, number_of_spaces AS numberOfSpaces, zone_number AS zoneNumber, max_time AS maxTime,
           max_fee AS maxFee, active, parking_lot_fee AS fees, variable_fees AS variableFees,
           parking_lot_open AS openingHours, parking_lot_location AS locations, created_at AS createdAt,
           updated_at AS updatedAt, updated_by AS updatedBy FROM parking_lots ORDER BY id`,
      ),
      pending: s.prepare(
        "SELECT count(*) AS n, min(received_at) AS oldest FROM ticket_events WHERE seq > ?1",
      ),
      centralPermits: s.prepare("SELECT count(*) AS n FROM central_permits"),
      upsertPermit: s.prepare(
        `INSERT INTO central_permits (id, plate, plate_norm, zone, start_at, end_at, note, days, pulled_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT (id) DO UPDATE SET plate = excluded.plate, plate_norm = excluded.plate_norm,
           zone = excluded.zone, start_at = excluded.start_at, end_at = excluded.end_at, note = excluded.note,
           days = excluded.days, pulled_at = excluded.pulled_at`,
      ),
      deletePermit: s.prepare("DELETE FROM central_permits WHERE id = ?1"),
      deleteEndedPermits: s.prepare("DELETE FROM central_permits WHERE end_at IS NOT NULL AND end_at < ?1"),
    };
  }

  cursor(stream: Stream): string | undefined {
    return this.q.cursor.get(stream)?.value;
  }

  /** A number cursor (events, lookups); 0 before the first push. */
  position(stream: "events" | "lookups"): number {
    const v = this.cursor(stream);
    return v === undefined ? 0 : Number(v);
  }

  /** Stores the cursors of one push together, so a restart resumes from all or none of them. */
  setCursors(values: Partial<Record<Stream, string>>, now: number): void {
    this.sqlite.transaction(() => {
      for (const [stream, value] of Object.entries(values))
        if (value !== undefined) this.q.setCursor.run(stream, value, now);
    })();
  }

  /**
   * The next events after the cursor with the current state of the tickets they touch, the next
   * lookup records, and the lots if they changed: all from one snapshot, so a ticket's state is
   * never older than the events sent with it.
   */
  batch(limit: number): LocalBatch {
    return this.sqlite.transaction((): LocalBatch => {
      const events = this.q.eventsAfter.all(this.position("events"), limit);
      const tickets: TicketRow[] = [];
      const seen = new Set<string>();
      for (const e of events) {
        if (seen.has(e.ticketId)) continue;
        seen.add(e.ticketId);
        // Gone when retention deleted it after its events were read: nothing left to describe.
        const t = this.q.ticket.get(e.ticketId);
        if (t) tickets.push(t);
      }
      const lookups = this.q.lookupsAfter.all(this.position("lookups"), limit);
      const fingerprint = this.q.lotsFingerprint.get()!.f;
      const lots = fingerprint === this.cursor("lots") ? null : { rows: this.q.lots.all(), fingerprint };
      return { events, tickets, lookups, lots };
    })();
  }

  /** Events the office does not have yet, and when the oldest of them arrived. */
  pending(): { events: number; oldestReceivedAt: number | null } {
    const r = this.q.pending.get(this.position("events"))!;
    return { events: r.n, oldestReceivedAt: r.oldest };
  }

  centralPermitCount(): number {
    return this.q.centralPermits.get()!.n;
  }

  /**
   * Applies one pull: permits valid here are stored, the rest (changed to other sites, deleted,
   * ended long ago) removed, and the horizon saved, in one transaction.
   */
  applyPull(
    keep: CentralPermitRow[],
    drop: number[],
    horizon: string,
    endedBefore: number,
    now: number,
  ): void {
    this.sqlite.transaction(() => {
      for (const p of keep)
        this.q.upsertPermit.run(
          p.id,
          p.plate,
          p.plateNorm,
          p.zone,
          p.startAt,
          p.endAt,
          p.note,
          p.days === null ? null : JSON.stringify(p.days),
          now,
        );
      for (const id of drop) this.q.deletePermit.run(id);
      this.q.deleteEndedPermits.run(endedBefore);
      this.q.setCursor.run("permits", horizon, now);
    })();
  }
}
