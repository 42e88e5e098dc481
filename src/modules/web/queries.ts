import type { Store } from "../../store/db.ts";

/**
 * The operator console's reads of tickets, ticket events and lookup records. Kept together here
 * until those tables have their repositories (src/platform/store/), where these move as they are.
 */

export interface TicketSearch {
  plateNorm?: string;
  zone?: number;
  status?: "running" | "stopped" | "canceled";
  from?: number;
  to?: number;
  /** Keyset position: tickets strictly after this one in the order (start_at DESC, ticket_id DESC). */
  after?: { startAt: number; ticketId: string };
  limit: number;
}

export interface TicketRow {
  ticketId: string;
  status: string;
  zone: number;
  parkingLotId: number | null;
  plate: string;
  startAt: number;
  endAt: number | null;
  updatedAt: number;
}

export interface LookupRow {
  id: number;
  at: number;
  credential: string;
  by: string;
  query: string;
  results: number;
}

export function searchTickets(store: Store, s: TicketSearch): TicketRow[] {
  const where: string[] = [];
  const args: (string | number)[] = [];
  const arg = (v: string | number) => {
    args.push(v);
    return `?${args.length}`;
  };
  if (s.plateNorm !== undefined) where.push(`plate_norm = ${arg(s.plateNorm)}`);
  if (s.zone !== undefined) where.push(`zone = ${arg(s.zone)}`);
  if (s.status !== undefined) where.push(`status = ${arg(s.status)}`);
  // A ticket matches a time range when its stay overlaps it.
  if (s.to !== undefined) where.push(`start_at < ${arg(s.to)}`);
  if (s.from !== undefined) where.push(`(end_at IS NULL OR end_at > ${arg(s.from)})`);
  if (s.after) {
    const at = arg(s.after.startAt);
    where.push(`(start_at < ${at} OR (start_at = ${at} AND ticket_id < ${arg(s.after.ticketId)}))`);
  }
  const sql = `SELECT ticket_id AS ticketId, status, zone, parking_lot_id AS parkingLotId, plate,
      start_at AS startAt, end_at AS endAt, updated_at AS updatedAt FROM tickets
    ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
    ORDER BY start_at DESC, ticket_id DESC LIMIT ${arg(s.limit)}`;
  return store.sqlite.prepare<TicketRow, (string | number)[]>(sql).all(...args);
}

/** Lookup records newest first, `before` an id (exclusive). */
export function lookupPage(store: Store, before: number | undefined, limit: number): LookupRow[] {
  return before === undefined
    ? store.sqlite
        .prepare<LookupRow, [number]>(
          "SELECT id, at, credential, by, query, results FROM permit_lookups ORDER BY id DESC LIMIT ?1",
        )
        .all(limit)
    : store.sqlite
        .prepare<LookupRow, [number, number]>(
          `SELECT id, at, credential, by, query, results FROM permit_lookups WHERE id < ?1
           ORDER BY id DESC LIMIT ?2`,
        )
        .all(before, limit);
}

export interface EventFigures {
  lastMinute: number;
  lastHour: number;
  /** The last event of each credential that sent one in the last week. */
  terminals: { credential: string; lastAt: number; events: number }[];
}

/** Ticket event figures, from the index on received_at (a week of events at most is read). */
export function eventFigures(store: Store, now: number): EventFigures {
  const count = store.sqlite.prepare<{ n: number }, [number]>(
    "SELECT count(*) AS n FROM ticket_events WHERE received_at > ?1",
  );
  const terminals = store.sqlite
    .prepare<{ credential: string; lastAt: number; events: number }, [number]>(
      `SELECT credential, max(received_at) AS lastAt, count(*) AS events FROM ticket_events
       WHERE received_at > ?1 GROUP BY credential ORDER BY lastAt DESC LIMIT 100`,
    )
    .all(now - 7 * 86_400_000);
  return {
    lastMinute: count.get(now - 60_000)!.n,
    lastHour: count.get(now - 3_600_000)!.n,
    terminals,
  };
}
