import type { Database } from "bun:sqlite";
import type { TicketStatus } from "../../../domain/tickets/rules.ts";
import type { StoredTicket } from "./rows.ts";

/**
 * The operator console's reads of `tickets` and `ticket_events`: search and recent counts. Kept
 * beside TicketRecords (tickets.ts), which writes those tables and serves the hot reads, so that
 * neither file outgrows the size the layout allows; the two are the tables' only owners.
 */

export interface TicketSearch {
  plateNorm?: string;
  zone?: number;
  status?: TicketStatus;
  /** A range keeps the tickets whose stay overlaps it. */
  from?: number;
  to?: number;
  /** The last row of the previous page (keyset paging). */
  after?: { startAt: number; ticketId: string };
  limit: number;
}

export type TicketSummaryRow = Pick<
  StoredTicket,
  "ticketId" | "status" | "zone" | "parkingLotId" | "plate" | "startAt" | "endAt" | "updatedAt"
>;

export class TicketSearchRecords {
  constructor(private readonly sqlite: Database) {}

  /** Newest start first (ties by ticket id); the filters given, ANDed. */
  search(q: TicketSearch): TicketSummaryRow[] {
    const where: string[] = [];
    const args: (string | number)[] = [];
    const arg = (v: string | number) => `?${args.push(v)}`;
    const equal = { plate_norm: q.plateNorm, zone: q.zone, status: q.status };
    for (const [column, v] of Object.entries(equal)) if (v !== undefined) where.push(`${column} = ${arg(v)}`);
    if (q.to !== undefined) where.push(`start_at < ${arg(q.to)}`);
    if (q.from !== undefined) where.push(`(end_at IS NULL OR end_at > ${arg(q.from)})`);
    if (q.after) where.push(`(start_at, ticket_id) < (${arg(q.after.startAt)}, ${arg(q.after.ticketId)})`);
    const sql = `SELECT ticket_id AS ticketId, status, zone, parking_lot_id AS parkingLotId, plate,
      start_at AS startAt, end_at AS endAt, updated_at AS updatedAt FROM tickets
      ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
      ORDER BY start_at DESC, ticket_id DESC LIMIT ${arg(q.limit)}`;
    // Not cached: the filters make a handful of shapes, asked for by hand from the console.
    return this.sqlite.prepare<TicketSummaryRow, (string | number)[]>(sql).all(...args);
  }

  /** How many events were received after `since` (index on received_at). */
  eventsSince(since: number): number {
    return this.sqlite
      .query<{ n: number }, [number]>("SELECT count(*) AS n FROM ticket_events WHERE received_at > ?1")
      .get(since)!.n;
  }

  /** When `credential` (a credentialLabel) last sent an accepted event; null if never (index on credential, received_at). */
  lastEventBy(credential: string): number | null {
    return (
      this.sqlite
        .query<{ at: number | null }, [string]>(
          "SELECT max(received_at) AS at FROM ticket_events WHERE credential = ?1",
        )
        .get(credential)?.at ?? null
    );
  }
}
