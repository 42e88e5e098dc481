import type { TicketStatus } from "../../domain/tickets/rules.ts";
import type { StoredTicket } from "./tickets.ts";

/** Shapes of the console's ticket search and event figures (the SQL is in tickets.ts). */
export interface TicketSearch {
  plateNorm?: string;
  zone?: number;
  status?: TicketStatus;
  from?: number;
  to?: number;
  after?: { startAt: number; ticketId: string };
  limit: number;
}

export type TicketSummaryRow = Pick<
  StoredTicket,
  "ticketId" | "status" | "zone" | "parkingLotId" | "plate" | "startAt" | "endAt" | "updatedAt"
>;

export interface SenderFigure {
  credential: string;
  lastAt: number;
  events: number;
}
