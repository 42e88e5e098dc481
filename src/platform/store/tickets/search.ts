import { and, count, eq, gt, isNull, lt, max, or, type SQL, sql } from "drizzle-orm";
import type { TicketStatus } from "../../../domain/tickets/rules.ts";
import { TICKET_STATE_SQL, type TicketState } from "../../../domain/tickets/state.ts";
import { ROWID } from "../columns.ts";
import type { Db } from "../db.ts";
import { keysetPage, type SortColumn, type SortedKeyset, type SortValue, sortedBy } from "../keyset.ts";
import { ticketEvents, tickets } from "../schema/index.ts";
import type { StoredTicket } from "./rows.ts";

/**
 * The operator console's reads of `tickets` and `ticket_events`: search and recent counts, through
 * drizzle's builder (asked for by hand from the console, not per request). Kept beside
 * TicketRecords (records.ts), which writes those tables and serves the hot reads, so that neither
 * file outgrows the size the layout allows; the two are the tables' only owners.
 */

/**
 * The orders the console can list tickets in, each served by an index the intake keeps anyway
 * (no index was added for sorting, so taking events costs what it did): start by tickets_start,
 * end by tickets_end, plate by tickets_plate_norm, zone (then end) by tickets_zone_time, ticket id
 * by the primary key. The stored status is a filter, not an order: the state the console shows
 * is read from the clock as well (ticket-state.ts).
 */
export const TICKET_ORDERS = {
  start_at: [tickets.startAt],
  end_at: [tickets.endAt],
  registration_number: [tickets.plateNorm],
  zone: [tickets.zone, tickets.endAt],
  ticket_id: [tickets.ticketId],
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

const SUMMARY = {
  ticketId: tickets.ticketId,
  status: tickets.status,
  zone: tickets.zone,
  parkingLotId: tickets.parkingLotId,
  plate: tickets.plate,
  plateNorm: tickets.plateNorm,
  startAt: tickets.startAt,
  endAt: tickets.endAt,
  updatedAt: tickets.updatedAt,
  amountInclVat: tickets.amountInclVat,
  currencyCode: tickets.currencyCode,
  position: ROWID,
};

/** The state rule's SQL (written once, beside the rule it mirrors) with `now` bound for `$now`. */
function stateTerm(state: TicketState, now: number): SQL {
  return sql`(${sql.join(
    TICKET_STATE_SQL[state].split("$now").map((part) => sql.raw(part)),
    sql`${now}`,
  )})`;
}

/** The filters of a search, ANDed; undefined when there are none. */
export function ticketFilter(q: Omit<TicketSearch, "order" | "descending" | "limit">): SQL | undefined {
  return and(
    q.plateNorm === undefined ? undefined : eq(tickets.plateNorm, q.plateNorm),
    q.zone === undefined ? undefined : eq(tickets.zone, q.zone),
    q.status === undefined ? undefined : eq(tickets.status, q.status),
    q.state === undefined ? undefined : stateTerm(q.state.state, q.state.now),
    q.to === undefined ? undefined : lt(tickets.startAt, q.to),
    q.from === undefined ? undefined : or(isNull(tickets.endAt), gt(tickets.endAt, q.from)),
  );
}

const keysetOf = (q: TicketSearch): SortedKeyset =>
  sortedBy({
    key: TICKET_ORDERS[q.order],
    tie: ROWID,
    descending: q.descending,
    after: q.after,
  });

function pageQuery(db: Db, q: TicketSearch, k: SortedKeyset, where: SQL | undefined, limit: number) {
  return db
    .select(SUMMARY)
    .from(tickets)
    .where(and(ticketFilter(q), where))
    .orderBy(...k.order)
    .limit(limit);
}

/** The statements a page of the search takes, in order (the plan tests read their SQL). */
export function ticketPageQueries(db: Db, q: TicketSearch) {
  const k = keysetOf(q);
  return k.parts.map((where) => pageQuery(db, q, k, where, q.limit + 1));
}

export class TicketSearchRecords {
  constructor(private readonly db: Db) {}

  /** A page in the order asked for (ties by the order the box stored them); the filters given, ANDed. */
  search(q: TicketSearch): { rows: TicketSummaryRow[]; next: SortValue[] | null } {
    const k = keysetOf(q);
    return keysetPage(k, q.limit, SUMMARY, (where, limit) => pageQuery(this.db, q, k, where, limit).all());
  }

  /** How many tickets the search finds in all (its filters; order and paging aside). */
  count(q: Omit<TicketSearch, "order" | "descending" | "limit" | "after">): number {
    return this.db.select({ n: count() }).from(tickets).where(ticketFilter(q)).get()!.n;
  }

  /** How many events were received after `since` (index on received_at). */
  eventsSince(since: number): number {
    return this.db.select({ n: count() }).from(ticketEvents).where(gt(ticketEvents.receivedAt, since)).get()!
      .n;
  }

  /** When `credential` (a credentialLabel) last sent an accepted event; null if never (index on credential, received_at). */
  lastEventBy(credential: string): number | null {
    return (
      this.db
        .select({ at: max(ticketEvents.receivedAt) })
        .from(ticketEvents)
        .where(eq(ticketEvents.credential, credential))
        .get()?.at ?? null
    );
  }
}
