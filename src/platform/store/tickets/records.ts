import type { Database, Statement } from "bun:sqlite";
import { createHash } from "node:crypto";
import { and, asc, eq, gt } from "drizzle-orm";
import type { TicketState } from "../../../domain/tickets/rules.ts";
import { insertColumns, setColumns } from "../columns.ts";
import type { Db } from "../db.ts";
import { ticketEvents, tickets } from "../schema/index.ts";
import type { WrittenRows } from "../written.ts";
import {
  LISTED_TICKET_COLUMNS,
  type ListedTicket,
  NEW_EVENT_KEYS,
  type NewTicketEvent,
  type StoredTicket,
  type StoredTicketEvent,
  TICKET_STATE_COLUMNS,
  type TicketRow,
  WRITTEN_TICKET_KEYS,
} from "./rows.ts";

/**
 * The intake's and the attendant lookups' statements on `tickets` and `ticket_events` (the
 * console's search is search.ts, the sync's reads sync.ts, the reports' reports.ts). Prepared by
 * hand: the intake and the plate and zone lookups run them for every request, and rows come back
 * as plain objects without a mapping layer. Their column lists come from the drizzle schema
 * (rows.ts, insertColumns, setColumns); rows are written from named objects, never positional tuples.
 * The operator's view of one ticket is drizzle's builder.
 */

/**
 * What the log keeps of an event's canonical form: the first 16 bytes of its SHA-256, base64url
 * (22 characters, about 55 bytes an event fewer than the form itself). It is only ever compared,
 * to tell a retry from a new event; events logged before it hold the form itself, which the retry
 * check also compares.
 */
export function canonicalDigest(canonical: string): string {
  return createHash("sha256").update(canonical).digest().subarray(0, 16).toString("base64url");
}

/** Where the lookups' read model has got to in reading the tickets. */
export type LiveCursor = { endAt: number; rid: number };

const LISTED = `SELECT ${LISTED_TICKET_COLUMNS} FROM tickets`;

/**
 * The attendant's queries, each served from an index: by plate on (plate_norm, ...), by zone on
 * (zone, end_at) as two range scans (ended after the cutoff, and open-ended), because an OR of
 * the two would scan the zone's whole history. By plate: ?1 plate, ?2 now, ?3 cutoff. By zone:
 * ?1 zone, ?2 cutoff (the open-ended ones take the zone alone); those also return tickets that
 * start later, so the zone answers know when they will next change. Exported for the query-plan test.
 */
/** Every ticket held, over the narrowest index; `serve` counts it on the store thread at start. */
export const TICKET_COUNT_SQL = "SELECT count(*) AS n FROM tickets";

/** Each sender's newest event: a walk over the distinct senders of ticket_events_credential. */
export const LAST_EVENT_BY_SENDER_SQL = `WITH RECURSIVE senders(credential) AS (
           SELECT min(credential) FROM ticket_events
           UNION ALL
           SELECT (SELECT min(credential) FROM ticket_events WHERE credential > senders.credential)
           FROM senders WHERE senders.credential IS NOT NULL)
         SELECT credential,
                (SELECT max(received_at) FROM ticket_events e WHERE e.credential = senders.credential) AS at
         FROM senders WHERE credential IS NOT NULL`;

export const TICKET_LOOKUP_SQL = {
  ticketsByPlate: `${LISTED} WHERE plate_norm = ?1 AND start_at <= ?2 AND status <> 'canceled'
    AND (end_at IS NULL OR end_at > ?3)`,
  ticketsInZoneEnding: `${LISTED} WHERE zone = ?1 AND end_at > ?2 AND status <> 'canceled'`,
  ticketsInZoneOpen: `${LISTED} WHERE zone = ?1 AND end_at IS NULL AND status <> 'canceled'`,
  // The lookups' read model: ending after ?1 (its horizon), ?4 at a time in (end_at, rowid) order after (?2, ?3).
  ticketsLiveEnding: `${LISTED.replace("SELECT", "SELECT rowid AS rid,")} WHERE end_at > ?1
    AND (end_at, rowid) > (?2, ?3) AND status <> 'canceled' ORDER BY end_at, rowid LIMIT ?4`,
  ticketsLiveOpen: `${LISTED} WHERE end_at IS NULL AND status <> 'canceled'`,
  ticketListed: `${LISTED} WHERE ticket_id = ?1`,
  // The zones whose tickets ended after ?1 or run on: one probe of (zone, end_at) per zone, each
  // zone found from the last by the same index, so the cost is the number of zones, not of tickets.
  zonesSince: `WITH RECURSIVE z(zone) AS (
      SELECT min(zone) FROM tickets
      UNION ALL SELECT (SELECT min(zone) FROM tickets WHERE zone > z.zone) FROM z WHERE z.zone IS NOT NULL)
    SELECT zone FROM z WHERE zone IS NOT NULL AND (
      EXISTS (SELECT 1 FROM tickets t WHERE t.zone = z.zone AND t.end_at > ?1)
      OR EXISTS (SELECT 1 FROM tickets t WHERE t.zone = z.zone AND t.end_at IS NULL))`,
} as const;

/**
 * When a ticket "ended", for retention: canceled at canceled_at whatever its end_at; otherwise at
 * end_at; a ticket with no end_at is running and never ends here.
 */
const endedBefore = (cutoff: string) => `(
  (status = 'canceled' AND COALESCE(canceled_at, updated_at) < ${cutoff})
  OR (status <> 'canceled' AND end_at IS NOT NULL AND end_at < ${cutoff})
)`;

export class TicketRecords {
  private readonly current: Statement<TicketState, [string]>;
  private readonly insertRow: Statement<void, [TicketRow]>;
  private readonly replaceRow: Statement<void, [TicketRow]>;
  private readonly moveRow: Statement<
    void,
    [{ ticketId: string; plate: string; plateNorm: string; at: number }]
  >;
  private readonly cancelRow: Statement<void, [string, number]>;
  private readonly appendRow: Statement<void, [NewTicketEvent]>;
  private readonly firstApplied: Statement<{ rawBody: string }, [string]>;
  private readonly appliedEqual: Statement<{ one: number }, [string, string, string]>;
  private readonly eventsOf: Statement<{ n: number }, [string]>;
  private readonly byPlate: Statement<ListedTicket, [string, number, number]>;
  private readonly inZoneEnding: Statement<ListedTicket, [number, number]>;
  private readonly inZoneOpen: Statement<ListedTicket, [number]>;
  private readonly rowidRange: Statement<{ lo: number | null; hi: number | null }, []>;
  private readonly endedInWindow: Statement<{ ticketId: string }, [number, number, number]>;
  private readonly deleteEnded: Statement<void, [string, number]>;
  private readonly deleteEvents: Statement<void, [string]>;
  private readonly countEnded: Statement<{ n: number }, [number]>;
  private readonly countAll: Statement<{ n: number }, []>;
  private readonly countEndedEvents: Statement<{ n: number }, [number]>;
  private readonly liveEndingRows: Statement<ListedTicket & LiveCursor, number[]>;
  private readonly liveOpenRows: Statement<ListedTicket, []>;
  private readonly listedOne: Statement<ListedTicket, [string]>;
  private readonly zonesSinceRows: Statement<{ zone: number }, [number]>;
  constructor(
    private readonly sqlite: Database,
    private readonly db: Db,
    private readonly written: WrittenRows,
  ) {
    const s = sqlite;
    this.current = s.prepare(`SELECT ${TICKET_STATE_COLUMNS} FROM tickets WHERE ticket_id = ?1`);
    // Prepared once, with the schema's column names: the intake writes one of these per event.
    this.insertRow = s.prepare(
      `INSERT INTO tickets ${insertColumns(tickets, [...WRITTEN_TICKET_KEYS, "createdAt", "updatedAt"], {
        createdAt: "at",
        updatedAt: "at",
      })}`,
    );
    const replaced = WRITTEN_TICKET_KEYS.filter((k) => k !== "ticketId");
    this.replaceRow = s.prepare(
      `UPDATE tickets SET ${setColumns(tickets, [...replaced, "updatedAt"], { updatedAt: "at" })}
       WHERE ticket_id = $ticketId`,
    );
    this.moveRow = s.prepare(
      "UPDATE tickets SET plate = $plate, plate_norm = $plateNorm, updated_at = $at WHERE ticket_id = $ticketId",
    );
    this.cancelRow = s.prepare(
      "UPDATE tickets SET status = 'canceled', canceled_at = ?2, updated_at = ?2 WHERE ticket_id = ?1",
    );
    this.appendRow = s.prepare(`INSERT INTO ticket_events ${insertColumns(ticketEvents, NEW_EVENT_KEYS)}`);
    // Both run on the (ticket_id, seq) index: at most MAX_EVENTS_PER_TICKET entries per ticket.
    this.appliedEqual = s.prepare(
      `SELECT 1 AS one FROM ticket_events
       WHERE ticket_id = ?1 AND outcome = 'applied' AND canonical IN (?2, ?3) LIMIT 1`,
    );
    this.eventsOf = s.prepare("SELECT count(*) AS n FROM ticket_events WHERE ticket_id = ?1");
    this.firstApplied = s.prepare(
      `SELECT raw_body AS rawBody FROM ticket_events
       WHERE ticket_id = ?1 AND outcome = 'applied' ORDER BY seq LIMIT 1`,
    );
    this.byPlate = s.prepare(TICKET_LOOKUP_SQL.ticketsByPlate);
    this.inZoneEnding = s.prepare(TICKET_LOOKUP_SQL.ticketsInZoneEnding);
    this.inZoneOpen = s.prepare(TICKET_LOOKUP_SQL.ticketsInZoneOpen);
    // Two subqueries: min and max together in one SELECT scan the whole table (52 ms on 1M rows).
    this.rowidRange = s.prepare(
      "SELECT (SELECT min(rowid) FROM tickets) AS lo, (SELECT max(rowid) FROM tickets) AS hi",
    );
    // A window of rowids keeps each retention step bounded however large the table is.
    this.endedInWindow = s.prepare(
      `SELECT ticket_id AS ticketId FROM tickets WHERE rowid > ?1 AND rowid <= ?2 AND ${endedBefore("?3")}`,
    );
    this.deleteEnded = s.prepare(`DELETE FROM tickets WHERE ticket_id = ?1 AND ${endedBefore("?2")}`);
    this.deleteEvents = s.prepare("DELETE FROM ticket_events WHERE ticket_id = ?1");
    this.countEnded = s.prepare(`SELECT count(*) AS n FROM tickets WHERE ${endedBefore("?1")}`);
    this.countEndedEvents = s.prepare(
      `SELECT count(*) AS n FROM ticket_events WHERE ticket_id IN (SELECT ticket_id FROM tickets WHERE ${endedBefore("?1")})`,
    );
    this.countAll = s.prepare(TICKET_COUNT_SQL);
    this.liveEndingRows = s.prepare(TICKET_LOOKUP_SQL.ticketsLiveEnding);
    this.liveOpenRows = s.prepare(TICKET_LOOKUP_SQL.ticketsLiveOpen);
    this.listedOne = s.prepare(TICKET_LOOKUP_SQL.ticketListed);
    this.zonesSinceRows = s.prepare(TICKET_LOOKUP_SQL.zonesSince);
  }

  /** The zones with a ticket (canceled or not) that ended after `since` or has not ended. */
  zonesSince(since: number): number[] {
    return this.zonesSinceRows.all(since).map((r) => r.zone);
  }

  // Intake: one event's read and writes, inside the caller's transaction.

  state(ticketId: string): TicketState | null {
    return this.current.get(ticketId);
  }

  insert(row: TicketRow): void {
    this.insertRow.run(row);
    this.written.ticket(row.ticketId);
  }

  replace(row: TicketRow): void {
    this.replaceRow.run(row);
    this.written.ticket(row.ticketId);
  }

  move(ticketId: string, plate: string, plateNorm: string, now: number): void {
    this.moveRow.run({ ticketId, plate, plateNorm, at: now });
    this.written.ticket(ticketId);
  }

  cancel(ticketId: string, now: number): void {
    this.cancelRow.run(ticketId, now);
    this.written.ticket(ticketId);
  }

  /** Logs the event; its canonical form (when it has one) is kept as its digest. */
  appendEvent(e: NewTicketEvent): void {
    this.appendRow.run(e.canonical ? { ...e, canonical: canonicalDigest(e.canonical) } : e);
  }

  /** An event with this canonical form was applied to the ticket before (logged as its digest, or whole before digests). */
  appliedBefore(ticketId: string, canonical: string): boolean {
    return this.appliedEqual.get(ticketId, canonicalDigest(canonical), canonical) !== null;
  }

  eventCount(ticketId: string): number {
    return this.eventsOf.get(ticketId)?.n ?? 0;
  }

  /** The raw body of the event that created the ticket. */
  createdBody(ticketId: string): string | null {
    return this.firstApplied.get(ticketId)?.rawBody ?? null;
  }

  // The operator's view.

  get(ticketId: string): StoredTicket | null {
    return this.db.select().from(tickets).where(eq(tickets.ticketId, ticketId)).get() ?? null;
  }

  /** Up to `limit` events after seq `afterSeq` (0: from the first), oldest first. */
  events(ticketId: string, afterSeq = 0, limit = Number.MAX_SAFE_INTEGER): StoredTicketEvent[] {
    const e = ticketEvents;
    return this.db
      .select({
        seq: e.seq,
        eventType: e.eventType,
        receivedAt: e.receivedAt,
        credential: e.credential,
        rawBody: e.rawBody,
        bodyCutFrom: e.bodyCutFrom,
        outcome: e.outcome,
      } satisfies Record<keyof StoredTicketEvent, unknown>)
      .from(e)
      .where(and(eq(e.ticketId, ticketId), gt(e.seq, afterSeq)))
      .orderBy(asc(e.seq))
      .limit(limit)
      .all();
  }

  // The attendant's lookups.

  listedForPlate(plateNorm: string, now: number, cutoff: number): ListedTicket[] {
    return this.byPlate.all(plateNorm, now, cutoff);
  }

  /**
   * What the lookups' read model holds, a slice at a time (ticketsLiveEnding, and the open-ended ones with the
   * first slice); `next` is null after the last slice.
   */
  live(
    horizon: number,
    limit: number,
    after: LiveCursor | null,
  ): { rows: ListedTicket[]; next: LiveCursor | null } {
    const found = this.liveEndingRows.all(horizon, after?.endAt ?? horizon, after?.rid ?? 0, limit);
    const rows = after === null ? this.liveOpenRows.all() : [];
    // The rows keep their rid: copying 36 000 of them without it costs more memory than it saves.
    for (const t of found) rows.push(t);
    const last = found[found.length - 1];
    return { rows, next: found.length < limit || !last ? null : { endAt: last.endAt!, rid: last.rid } };
  }

  /** One ticket as the lookups read it, canceled or not. */
  listed(ticketId: string): ListedTicket | null {
    return this.listedOne.get(ticketId);
  }

  /** Tickets of a zone that end after the cutoff or not at all, started or not. */
  listedInZone(zone: number, cutoff: number): ListedTicket[] {
    const rows = this.inZoneEnding.all(zone, cutoff);
    for (const t of this.inZoneOpen.all(zone)) rows.push(t);
    return rows;
  }

  // Retention.

  rowids(): { lo: number; hi: number } {
    const r = this.rowidRange.get();
    return { lo: r?.lo ?? 1, hi: r?.hi ?? 0 };
  }

  /**
   * Deletes the tickets with rowid in (from, to] that ended before the cutoff, with their events,
   * in one transaction. Each delete re-checks the ending: an event may have revived the ticket.
   */
  purgeWindow(from: number, to: number, cutoff: number): { tickets: number; events: number } {
    const out = { tickets: 0, events: 0 };
    // Immediate: the write lock is taken (waiting out the busy timeout) before the read. A
    // deferred transaction that reads first cannot wait for it when another process (serve's
    // intake) commits in between: SQLite answers SQLITE_BUSY at once.
    this.sqlite
      .transaction(() => {
        for (const { ticketId } of this.endedInWindow.all(from, to, cutoff)) {
          const gone = this.deleteEnded.run(ticketId, cutoff).changes;
          if (gone === 0) continue;
          this.written.ticket(ticketId);
          out.tickets += gone;
          out.events += this.deleteEvents.run(ticketId).changes;
        }
      })
      .immediate();
    return out;
  }

  countEndedBefore(cutoff: number): { tickets: number; events: number } {
    return {
      tickets: this.countEnded.get(cutoff)?.n ?? 0,
      events: this.countEndedEvents.get(cutoff)?.n ?? 0,
    };
  }

  /** Every ticket held: the same text `serve` counts on the store's thread at start. */
  count(): number {
    return this.countAll.get()!.n;
  }

  /**
   * Tickets whose end is open or after `now`, read from the end_at index alone: under a
   * millisecond at 1,000,000 tickets, where also reading status and start from the table took
   * 70 ms of a scrape (bench/scrape.ts). A canceled ticket counts until its end.
   */
  countNotEnded(now: number): number {
    return (
      this.sqlite
        .query<{ n: number }, [number]>(
          `SELECT (SELECT count(*) FROM tickets WHERE end_at > ?1) +
                  (SELECT count(*) FROM tickets WHERE end_at IS NULL) AS n`,
        )
        .get(now)?.n ?? 0
    );
  }

  /** Each credential's newest receive time among the latest `limit` events (bounded at any size). */
  /**
   * Each sender's newest event, exact at any size: one index seek per sender
   * (ticket_events_credential) instead of sorting the newest events, which took 60-150 ms of
   * every start at a million tickets.
   */
  lastEventByCredential(): { credential: string; at: number }[] {
    return this.sqlite.query<{ credential: string; at: number }, []>(LAST_EVENT_BY_SENDER_SQL).all();
  }
}
