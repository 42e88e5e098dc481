import type { Database, Statement } from "bun:sqlite";
import type { RevenueTicket } from "../../../domain/reports/revenue.ts";
import { columnList } from "../columns.ts";
import { tickets } from "../schema/index.ts";

/**
 * The reports' reads of `tickets` (beside TicketRecords, the tables' owner folder): every ticket's
 * cost for building the revenue book afresh, and the stays that overlap a time range for occupancy.
 * Hand SQL: occupancy must read covering indexes alone (the plan tests check OCCUPANCY_SQL) over
 * up to a million tickets, and the revenue pass iterates every ticket one row at a time.
 */

/** A stay as occupancy counts it (canceled tickets left out). */
export interface Stay {
  startAt: number;
  endAt: number | null;
  parkingLotId: number | null;
  zone: number;
}

const DAY = 86_400_000;
const STAY = `SELECT ${columnList(tickets, ["startAt", "endAt", "parkingLotId", "zone"])} FROM tickets`;

/**
 * Both read an index alone (tickets_start and the partial tickets_long_stay cover every column):
 * the tickets that started in the range or the day before, and the few longer stays (or open-ended
 * ones) that started earlier. ?1 from, ?2 to. Exported for the query-plan test.
 */
export const OCCUPANCY_SQL = {
  recentStays: `${STAY} WHERE start_at >= ?1 - ${DAY} AND start_at < ?2 AND status <> 'canceled'
    AND (end_at IS NULL OR end_at > ?1)`,
  longStays: `${STAY} WHERE (end_at IS NULL OR end_at - start_at > ${DAY}) AND start_at < ?1 - ${DAY}
    AND status <> 'canceled' AND (end_at IS NULL OR end_at > ?1)`,
} as const;

const COST_COLUMNS = columnList(tickets, [
  "status",
  "startAt",
  "parkingLotId",
  "zone",
  "amountInclVat",
  "vatRate",
  "currencyCode",
] satisfies (keyof RevenueTicket)[]);

export class TicketReportRecords {
  private readonly recent: Statement<Stay, [number, number]>;
  private readonly long: Statement<Stay, [number]>;

  constructor(private readonly sqlite: Database) {
    this.recent = sqlite.prepare(OCCUPANCY_SQL.recentStays);
    this.long = sqlite.prepare(OCCUPANCY_SQL.longStays);
  }

  /** Tickets not canceled whose stay overlaps [from, to): started before `to`, not ended by `from`. */
  staysOverlapping(from: number, to: number): Stay[] {
    const rows = this.recent.all(from, to);
    for (const s of this.long.all(from)) rows.push(s);
    return rows;
  }

  /** Every ticket as the revenue rule reads it, one at a time (a full pass; building the book). */
  *costs(): Generator<RevenueTicket> {
    yield* this.sqlite
      .query<RevenueTicket, []>(
        `SELECT ${COST_COLUMNS} FROM tickets WHERE amount_incl_vat IS NOT NULL AND status <> 'canceled'`,
      )
      .iterate();
  }
}
