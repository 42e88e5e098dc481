import type { TicketStatus } from "../../../domain/tickets/rules.ts";
import type { tickets } from "../schema/index.ts";

/** The shapes TicketRecords (tickets.ts) reads and writes. */

/** ticket_id, zone, lot, lot_unknown, start, end, plate, plate_norm, amount, vat, currency, status, now. */
export type TicketRow = [
  string,
  number,
  number | null,
  number,
  number,
  number | null,
  string,
  string,
  number | null,
  number | null,
  string | null,
  TicketStatus,
  number,
];

export type StoredTicket = typeof tickets.$inferSelect;

export interface StoredTicketEvent {
  seq: number;
  eventType: string;
  receivedAt: number;
  credential: string;
  rawBody: string;
  /** Bytes of the body as sent when rawBody holds only its known fields. */
  bodyCutFrom: number | null;
  outcome: "applied" | "repeat";
}

/** One event as the intake appends it. */
export interface NewTicketEvent {
  ticketId: string;
  eventType: string;
  receivedAt: number;
  credential: string;
  rawBody: string;
  bodyCutFrom: number | null;
  canonical: string;
  outcome: "applied" | "repeat";
}

/** An event as the office gets it (sync): the log row with its ticket. */
export interface SyncedEvent extends StoredTicketEvent {
  ticketId: string;
}

/** A ticket as the office gets it: the whole row, and the seq of its newest event. */
export interface SyncedTicket extends StoredTicket {
  lastSeq: number;
}

/** What the attendant lookups read of a ticket. */
export type ListedTicket = Pick<
  StoredTicket,
  "ticketId" | "zone" | "parkingLotId" | "startAt" | "endAt" | "plate" | "plateNorm" | "status" | "updatedAt"
>;
