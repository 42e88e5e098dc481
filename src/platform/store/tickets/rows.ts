import type { TicketStatus } from "../../../domain/tickets/rules.ts";
import { columnList } from "../columns.ts";
import { ticketEvents, tickets } from "../schema/index.ts";

/** The shapes TicketRecords (tickets.ts) reads and writes. */

/** Every column of a ticket, as StoredTicket has them. */
export const TICKET_COLUMNS = columnList(tickets);

/** The columns the intake writes from an event (created_at and updated_at are bound to `at`). */
export const WRITTEN_TICKET_KEYS = [
  "ticketId",
  "zone",
  "parkingLotId",
  "lotUnknown",
  "startAt",
  "endAt",
  "plate",
  "plateNorm",
  "amountInclVat",
  "vatRate",
  "currencyCode",
  "status",
] as const satisfies readonly (keyof typeof tickets.$inferInsert)[];

/** A ticket as the event rules read it (TicketState): what the intake writes, but the lot flag. */
export const TICKET_STATE_COLUMNS = columnList(
  tickets,
  WRITTEN_TICKET_KEYS.filter((k) => k !== "lotUnknown"),
);

/** A ticket as the lookups list it (ListedTicket). */
export const LISTED_TICKET_COLUMNS = columnList(tickets, [
  "ticketId",
  "zone",
  "parkingLotId",
  "startAt",
  "endAt",
  "plate",
  "plateNorm",
  "status",
  "updatedAt",
]);

/**
 * A ticket as the intake writes it, named as the schema names its columns (drizzle's insert
 * type), with `at`, the instant of the write (created_at of a new row, updated_at always).
 */
export type TicketRow = Required<
  Pick<typeof tickets.$inferInsert, Exclude<(typeof WRITTEN_TICKET_KEYS)[number], "status">>
> & { status: TicketStatus; at: number };

export type StoredTicket = typeof tickets.$inferSelect;

type TicketEventColumns = typeof ticketEvents.$inferSelect;

const STORED_EVENT_KEYS = [
  "seq",
  "eventType",
  "receivedAt",
  "credential",
  "rawBody",
  "bodyCutFrom",
  "outcome",
] as const satisfies readonly (keyof TicketEventColumns)[];

/** An event as the operator's view reads it: one list makes both the type and the statement's columns. */
export type StoredTicketEvent = Pick<TicketEventColumns, (typeof STORED_EVENT_KEYS)[number]>;
export const STORED_EVENT_COLUMNS = columnList(ticketEvents, STORED_EVENT_KEYS);

export const NEW_EVENT_KEYS = [
  "ticketId",
  "eventType",
  "receivedAt",
  "credential",
  "rawBody",
  "bodyCutFrom",
  "canonical",
  "outcome",
] as const satisfies readonly (keyof TicketEventColumns)[];

/** One event as the intake appends it (every key is a named parameter of the INSERT). */
export type NewTicketEvent = Pick<TicketEventColumns, (typeof NEW_EVENT_KEYS)[number]>;

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
