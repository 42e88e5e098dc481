import type { Database, Statement } from "bun:sqlite";
import { and, eq, gte, lte, type SQL, sql, sum } from "drizzle-orm";
import {
  type RevenueEntry,
  type RevenueGroup,
  type RevenueTicket,
  ticketRevenue,
} from "../../domain/reports/revenue.ts";
import { insertColumns } from "./columns.ts";
import type { Db } from "./db.ts";
import { revenueBasis, revenueDays } from "./schema/index.ts";

/**
 * The one owner of `revenue_days` and `revenue_basis`: the revenue book, booked by the intake in
 * the transaction that writes each ticket (revenueChange), read by the reports by day range.
 * The booking is prepared by hand (the intake runs it in every ticket's transaction); the reports'
 * reads and the rebuild are drizzle's builder.
 */

/** Each dimension's column, and what stands for it when the book is not grouped by it. */
const GROUP_COLUMNS = {
  day: [revenueDays.day, sql<string>`''`],
  lot: [revenueDays.lotId, sql<number>`0`],
  zone: [revenueDays.zone, sql<number>`0`],
  vat: [revenueDays.vatRate, sql<number>`-1`],
} satisfies Record<RevenueGroup, [unknown, SQL]>;

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
  /** The basis this process checked last; the book is built again when it changes. */
  private checked: string | null = null;

  constructor(
    private readonly sqlite: Database,
    private readonly db: Db,
    /** Every ticket's cost, for building the book afresh. */
    private readonly tickets: () => Iterable<RevenueTicket>,
  ) {
    this.upsert = sqlite.prepare(
      `INSERT INTO revenue_days ${insertColumns(revenueDays, BOOK_KEYS)}
       ON CONFLICT (day, lot_id, zone, vat_rate, currency) DO UPDATE SET
         tickets = tickets + excluded.tickets, gross = gross + excluded.gross, vat = vat + excluded.vat`,
    );
  }

  /** Adds signed entries (revenueChange) to the book, inside the caller's transaction. */
  book(entries: readonly RevenueEntry[]): void {
    for (const e of entries) this.upsert.run({ ...e, lotId: e.lotId ?? 0, vatRate: e.vatRate ?? -1 });
  }

  /** The book's entries for site-local days from `from` to `to` (YYYY-MM-DD, both included). */
  days(from: string, to: string): RevenueEntry[] {
    const d = revenueDays;
    // On the primary key: a range of days reads only those days' rows.
    return this.mapped(
      this.db
        .select({
          day: d.day,
          lotId: d.lotId,
          zone: d.zone,
          vatRate: d.vatRate,
          currency: d.currency,
          tickets: d.tickets,
          gross: d.gross,
          vat: d.vat,
        })
        .from(d)
        .where(inDays(from, to))
        .all(),
    );
  }

  /**
   * The book summed by SQLite over the chosen dimensions and currency (a month on the bench store
   * is some 30 000 rows: summed in JS they took longer than the whole answer may). Dimensions not
   * chosen come back as day "", lot null, zone 0 and rate null; groupRevenue leaves them out.
   */
  sums(from: string, to: string, by: readonly RevenueGroup[]): RevenueEntry[] {
    const [day, lotId, zone, vatRate] = (["day", "lot", "zone", "vat"] as const).map(
      (g) => GROUP_COLUMNS[g][by.includes(g) ? 0 : 1],
    );
    const d = revenueDays;
    return this.mapped(
      this.db
        .select({
          day: day as SQL<string>,
          lotId: lotId as SQL<number>,
          zone: zone as SQL<number>,
          vatRate: vatRate as SQL<number>,
          currency: d.currency,
          tickets: sum(d.tickets).mapWith(Number),
          gross: sum(d.gross).mapWith(Number),
          vat: sum(d.vat).mapWith(Number),
        })
        .from(d)
        .where(inDays(from, to))
        .groupBy(...by.map((g) => GROUP_COLUMNS[g][0]), d.currency)
        .all(),
    );
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
    const held = this.db
      .select({ timezone: revenueBasis.timezone, currency: revenueBasis.currency })
      .from(revenueBasis)
      .where(eq(revenueBasis.id, 1))
      .get();
    if (held && held.timezone === timezone && held.currency === currency) {
      this.checked = key;
      return null;
    }
    let counted = 0;
    this.sqlite.transaction(() => {
      this.db.delete(revenueDays).run();
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
      const basis = { timezone, currency, builtAt: now };
      this.db
        .insert(revenueBasis)
        .values({ id: 1, ...basis })
        .onConflictDoUpdate({ target: revenueBasis.id, set: basis })
        .run();
    })();
    this.checked = key;
    return counted;
  }
}

const inDays = (from: string, to: string) => and(gte(revenueDays.day, from), lte(revenueDays.day, to));

/**
 * Whether the book was built under this time zone and currency, read on a connection of its own
 * (serve asks before it opens the store, to know whether building it is a step to show).
 * A store from before the book has no table yet: not built.
 */
export function revenueBookBuiltFor(sqlite: Database, timezone: string, currency: string): boolean {
  try {
    const held = sqlite.query("SELECT timezone, currency FROM revenue_basis WHERE id = 1").get() as {
      timezone: string;
      currency: string;
    } | null;
    return held !== null && held.timezone === timezone && held.currency === currency;
  } catch {
    return false;
  }
}
