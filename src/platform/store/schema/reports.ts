import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Revenue booked per site-local day, lot, zone, VAT rate and currency (src/domain/reports/revenue.ts),
 * kept up to date by the intake in the transaction that writes the ticket. Key columns are never
 * null, so that an upsert finds its row: lot_id 0 is "no lot" (lot ids start at 1), vat_rate -1
 * "no rate sent". Rows outlive the tickets' retention: a day's figures stay when its tickets go.
 */
export const revenueDays = sqliteTable(
  "revenue_days",
  {
    day: text().notNull(),
    lotId: integer("lot_id").notNull(),
    zone: integer().notNull(),
    vatRate: integer("vat_rate").notNull(),
    currency: text().notNull(),
    tickets: integer().notNull(),
    /** Öre incl. VAT. */
    gross: integer().notNull(),
    /** Öre, the sum of each ticket's VAT. */
    vat: integer().notNull(),
  },
  // Day and currency lead, so a report's range and its usual grouping follow the key. The
  // migration makes the table WITHOUT ROWID (drizzle-kit cannot say so): the rows live in the key's
  // b-tree, and a month of them is read in order instead of looked up one by one (a 30-day report
  // on the bench store: about 100 ms of CPU with a rowid table).
  (t) => [primaryKey({ columns: [t.day, t.currency, t.lotId, t.zone, t.vatRate] })],
);

/**
 * What the booked revenue was computed under (the site's time zone and currency): when either
 * changes, or the row is missing (a store from before revenue was booked), the book is built
 * again from the tickets.
 */
export const revenueBasis = sqliteTable("revenue_basis", {
  id: integer().primaryKey(),
  timezone: text().notNull(),
  currency: text().notNull(),
  builtAt: integer("built_at").notNull(),
});
