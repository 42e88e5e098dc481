import type { Database } from "bun:sqlite";
import type { TicketStatus } from "../../../domain/tickets/rules.ts";
import { TICKET_STATE_SQL, type TicketState } from "../../../domain/tickets/state.ts";
import { columnList } from "../columns.ts";
import { tickets } from "../schema/index.ts";
import { equalTo, type PageSpec, type SortColumn, type SortValue, sortedPage } from "../sorted-page.ts";
import type { StoredTicket } from "./rows.ts";

/**
 * The operator console's reads of `tickets` and `ticket_events`: search and recent counts. Kept
 * beside TicketRecords (tickets.ts), which writes those tables and serves the hot reads, so that
 * neither file outgrows the size the layout allows; the two are the tables' only owners.
 */

/**
 * The orders the console can list tickets in, each served by an index the intake keeps anyway
 * (no index was added for sorting, so taking events costs what it did): start by tickets_start,
 * end by tickets_end, plate by tickets_plate_norm, zone (then end) by tickets_zone_time, ticket id
 * by the primary key. The stored status is a filter, not an order: the state the console shows
 * is read from the clock as well (ticket-state.ts).
 */
export const TICKET_ORDERS = {
  start_at: [{ column: "start_at", field: "startAt" }],
  end_at: [{ column: "end_at", field: "endAt", nullable: true }],
  registration_number: [{ column: "plate_norm", field: "plateNorm", text: true }],
  zone: [
    { column: "zone", field: "zone" },
    { column: "end_at", field: "endAt", nullable: true },
  ],
  ticket_id: [{ column: "ticket_id", field: "ticketId", text: true }],
} satisfies Record<string, SortColumn[]>;

export type TicketOrder = keyof typeof TICKET_ORDERS;

export interface TicketSearch {
  plateNorm?: string;
  zone?: number;
  status?: TicketStatus;
  /** The state the console shows (active, not started, ended, canceled) at `now`. */
  state?: { state: TicketState; now: number };
  /** A range keeps the tickets whose stay overlaps it. */
  from?: number;
  to?: number;
  order: TicketOrder;
  descending: boolean;
  /** The previous page's last position (keyset paging), as `next` handed it out. */
  after?: SortValue[];
  limit: number;
}

export type TicketSummaryRow = Pick<
  StoredTicket,
  | "ticketId"
  | "status"
  | "zone"
  | "parkingLotId"
  | "plate"
  | "startAt"
  | "endAt"
  | "updatedAt"
  | "amountInclVat"
  | "currencyCode"
> & { plateNorm: string; position: number };

const SUMMARY = `SELECT ${columnList(tickets, [
  "ticketId",
  "status",
  "zone",
  "parkingLotId",
  "plate",
  "plateNorm",
  "startAt",
  "endAt",
  "updatedAt",
  "amountInclVat",
  "currencyCode",
])}, rowid AS position FROM tickets`;

/** The filters of a search as SQL terms with named parameters. */
export function ticketFilter(
  q: Omit<TicketSearch, "order" | "descending" | "limit">,
): Pick<PageSpec, "where" | "params"> {
  const { where, params } = equalTo({ plate_norm: q.plateNorm, zone: q.zone, status: q.status });
  if (q.state !== undefined) {
    where.push(`(${TICKET_STATE_SQL[q.state.state]})`);
    params.now = q.state.now;
  }
  if (q.to !== undefined) {
    where.push("start_at < $to");
    params.to = q.to;
  }
  if (q.from !== undefined) {
    where.push("(end_at IS NULL OR end_at > $from)");
    params.from = q.from;
  }
  return { where, params };
}

/** The search as one page's spec (the plan tests read the SQL it makes). */
export function ticketPageSpec(q: TicketSearch): PageSpec {
  return {
    select: SUMMARY,
    ...ticketFilter(q),
    key: TICKET_ORDERS[q.order],
    descending: q.descending,
    after: q.after,
    limit: q.limit,
  };
}

export class TicketSearchRecords {
  constructor(private readonly sqlite: Database) {}

  /** A page in the order asked for (ties by the order the box stored them); the filters given, ANDed. */
  search(q: TicketSearch): { rows: TicketSummaryRow[]; next: SortValue[] | null } {
    return sortedPage(this.sqlite, ticketPageSpec(q));
  }

  /** How many tickets the search finds in all (its filters; order and paging aside). */
  count(q: Omit<TicketSearch, "order" | "descending" | "limit" | "after">): number {
    const { where, params } = ticketFilter(q);
    return this.sqlite
      .prepare<{ n: number }, [Record<string, string | number>]>(
        `SELECT count(*) AS n FROM tickets${where.length ? ` WHERE ${where.join(" AND ")}` : ""}`,
      )
      .get(params)!.n;
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
