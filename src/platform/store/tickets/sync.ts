import type { Database } from "bun:sqlite";
import { columnList } from "../columns.ts";
import { ticketEvents } from "../schema/index.ts";
import {
  STORED_EVENT_COLUMNS,
  type StoredTicket,
  type SyncedEvent,
  type SyncedTicket,
  TICKET_COLUMNS,
} from "./rows.ts";

/**
 * The sync's reads of `tickets` and `ticket_events` (the event log in seq order after a cursor,
 * tickets as they stand) and its one write, the log's sequence after a restore. Kept beside
 * TicketRecords (tickets.ts) as the console's search is, so that neither file outgrows the size
 * the layout allows; the three are the tables' only owners. Prepared by hand: these are the
 * sync's bulk paths, thousands of rows a round, read as plain objects without a mapping layer.
 */
export class TicketSyncRecords {
  constructor(private readonly sqlite: Database) {}

  eventsAfter(seq: number, limit: number): SyncedEvent[] {
    const q = `SELECT ${STORED_EVENT_COLUMNS}, ${columnList(ticketEvents, ["ticketId"])}
      FROM ticket_events WHERE seq > ?1 ORDER BY seq LIMIT ?2`;
    return this.sqlite.query<SyncedEvent, [number, number]>(q).all(seq, limit);
  }

  /** The ticket with the seq of its newest event; null when retention removed it. */
  synced(ticketId: string): SyncedTicket | null {
    const row = this.sqlite
      .query<StoredTicket & { lastSeq: number }, [string]>(
        `SELECT ${TICKET_COLUMNS},
           (SELECT max(seq) FROM ticket_events e WHERE e.ticket_id = t.ticket_id) AS lastSeq
         FROM tickets t WHERE ticket_id = ?1`,
      )
      .get(ticketId);
    return row ? { ...row, lotUnknown: Boolean(row.lotUnknown) } : null;
  }

  /** Events after the cursor, and when the oldest of them arrived. */
  eventsPending(afterSeq: number): { count: number; oldestReceivedAt: number | null } {
    const q = "SELECT count(*) AS n, min(received_at) AS oldest FROM ticket_events WHERE seq > ?1";
    const r = this.sqlite.query<{ n: number; oldest: number | null }, [number]>(q).get(afterSeq)!;
    return { count: r.n, oldestReceivedAt: r.oldest };
  }

  /** The highest seq ever handed out, deleted events included (AUTOINCREMENT keeps it). */
  lastSeq(): number {
    const q = `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'ticket_events'), 0),
      coalesce((SELECT max(seq) FROM ticket_events), 0)) AS seq`;
    return this.sqlite.query<{ seq: number }, []>(q).get()!.seq;
  }

  /** New events get seqs above `seq` (after a restore, the office holds seqs handed out again). */
  continueAfter(seq: number): void {
    this.sqlite.transaction(() => {
      this.sqlite.run("DELETE FROM sqlite_sequence WHERE name = 'ticket_events' AND seq < ?1", [seq]);
      this.sqlite.run(
        `INSERT INTO sqlite_sequence (name, seq) SELECT 'ticket_events', ?1 WHERE changes() > 0
           OR NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'ticket_events')`,
        [seq],
      );
    })();
  }
}
