import type { Database, Statement } from "bun:sqlite";
import {
  type RevenueEntry,
  type RevenueGroup,
  type RevenueTicket,
  ticketRevenue,
} from "../../domain/reports/revenue.ts";
import { columnList, insertColumns } from "./columns.ts";
import { revenueDays } from "./schema/index.ts";

/**
 * The one owner of `revenue_days` and `revenue_basis`: the revenue book, booked by the intake in
 * the transaction that writes each ticket (revenueChange), read by the reports by day range.
 */

const GROUP_COLUMNS: Record<RevenueGroup, string> = {
  day: "day",
  lot: "lot_id",
  zone: "zone",
  vat: "vat_rate",
};

/** A row of the book: an entry with "no lot" as 0 and "no rate" as -1 (they are key columns). */
type BookRow = Omit<RevenueEntry, "lotId" | "vatRate"> & { lotId: number; vatRate: number };

const BOOK_KEYS = [
  "day",
  "lotId",
  "zone",
  "vatRate",
  "currency",
  "tickets",
  "gross",
  "vat",
] as const satisfies readonly (keyof BookRow)[];

export class RevenueBook {
  private readonly upsert: Statement<void, [BookRow]>;
  private readonly range: Statement<RevenueEntry & { lotId: number; vatRate: number }, [string, string]>;
  private readonly basis: Statement<{ timezone: string; currency: string }, []>;
  /** The basis this process checked last; the book is built again when it changes. */
  private checked: string | null = null;
  private readonly grouped = new Map<
    string,
    Statement<RevenueEntry & { lotId: number; vatRate: number }, [string, string]>
  >();

  constructor(
    private readonly sqlite: Database,
    /** Every ticket's cost, for building the book afresh. */
    private readonly tickets: () => Iterable<RevenueTicket>,
  ) {
    this.upsert = sqlite.prepare(
      `INSERT INTO revenue_days ${insertColumns(revenueDays, BOOK_KEYS)}
       ON CONFLICT (day, lot_id, zone, vat_rate, currency) DO UPDATE SET
         tickets = tickets + excluded.tickets, gross = gross + excluded.gross, vat = vat + excluded.vat`,
    );
    // On the primary key: a range of days reads only those days' rows.
    this.range = sqlite.prepare(
      `SELECT ${columnList(revenueDays, BOOK_KEYS)} FROM revenue_days WHERE day >= ?1 AND day <= ?2`,
    );
    this.basis = sqlite.prepare("SELECT timezone, currency FROM revenue_basis WHERE id = 1");
  }

  /** Adds signed entries (revenueChange) to the book, inside the caller's transaction. */
  book(entries: readonly RevenueEntry[]): void {
    for (const e of entries) this.upsert.run({ ...e, lotId: e.lotId ?? 0, vatRate: e.vatRate ?? -1 });
  }

  /** The book's entries for site-local days from `from` to `to` (YYYY-MM-DD, both included). */
  days(from: string, to: string): RevenueEntry[] {
    return this.mapped(this.range.all(from, to));
  }

  /**
   * The book summed by SQLite over the chosen dimensions and currency (a month on the bench store
   * is some 30 000 rows: summed in JS they took longer than the whole answer may). Dimensions not
   * chosen come back as day "", lot null, zone 0 and rate null; groupRevenue leaves them out.
   */
  sums(from: string, to: string, by: readonly RevenueGroup[]): RevenueEntry[] {
    const key = by.join(",");
    let q = this.grouped.get(key);
    if (!q) {
      const cols = by.map((g) => GROUP_COLUMNS[g]);
      q = this.sqlite.prepare(
        `SELECT ${by.includes("day") ? "day" : "'' AS day"}, ${by.includes("lot") ? "lot_id" : "0"} AS lotId,
           ${by.includes("zone") ? "zone" : "0 AS zone"}, ${by.includes("vat") ? "vat_rate" : "-1"} AS vatRate,
           currency, sum(tickets) AS tickets, sum(gross) AS gross, sum(vat) AS vat
         FROM revenue_days WHERE day >= ?1 AND day <= ?2 GROUP BY ${[...cols, "currency"].join(", ")}`,
      );
      this.grouped.set(key, q);
    }
    return this.mapped(q.all(from, to));
  }

  private mapped(rows: (RevenueEntry & { lotId: number | null; vatRate: number | null })[]): RevenueEntry[] {
    for (const r of rows) {
      if (r.lotId === 0) r.lotId = null;
      if (r.vatRate === -1) r.vatRate = null;
    }
    return rows;
  }

  /**
   * Makes sure the book was computed under this time zone and currency; if not (a store from
   * before the book, or the site's settings changed), builds it again from the tickets held, in
   * one transaction. Days whose tickets retention already deleted are then gone from the book.
   * Returns how many tickets with a cost it counted when it built the book, else null.
   */
  ensureBasis(timezone: string, currency: string, now: number): number | null {
    const key = `${timezone}\n${currency}`;
    if (this.checked === key) return null;
    const held = this.basis.get();
    if (held && held.timezone === timezone && held.currency === currency) {
      this.checked = key;
      return null;
    }
    let counted = 0;
    this.sqlite.transaction(() => {
      this.sqlite.run("DELETE FROM revenue_days");
      const sums = new Map<string, RevenueEntry>();
      for (const t of this.tickets()) {
        const e = ticketRevenue(t, timezone, currency);
        if (!e) continue;
        counted++;
        const k = `${e.day}|${e.lotId}|${e.zone}|${e.vatRate}|${e.currency}`;
        const sum = sums.get(k);
        if (sum) {
          sum.tickets += 1;
          sum.gross += e.gross;
          sum.vat += e.vat;
        } else sums.set(k, e);
      }
      this.book([...sums.values()]);
      this.sqlite.run(
        `INSERT INTO revenue_basis (id, timezone, currency, built_at) VALUES (1, ?1, ?2, ?3)
         ON CONFLICT (id) DO UPDATE SET timezone = excluded.timezone, currency = excluded.currency,
           built_at = excluded.built_at`,
        [timezone, currency, now],
      );
    })();
    this.checked = key;
    return counted;
  }
}
