import type { Database } from "bun:sqlite";
import type { Db } from "./db.ts";
import { RevenueBook } from "./revenue.ts";
import { TicketReportRecords } from "./tickets/reports.ts";

/** What the reports read and keep: the revenue book, and their reads of the tickets. */
export class ReportRecords {
  readonly revenue: RevenueBook;
  readonly tickets: TicketReportRecords;

  constructor(sqlite: Database, db: Db) {
    this.tickets = new TicketReportRecords(sqlite);
    this.revenue = new RevenueBook(sqlite, db, () => this.tickets.costs());
  }
}
