import { type Problem, refuse } from "../errors.ts";

/**
 * What each ticket event does to a stored ticket, without I/O: the service reads the ticket,
 * asks `decide`, and writes what it answers in the same transaction as the event itself.
 */

/** Everything a create/update event says about a ticket. Instants are epoch ms UTC. */
export interface TicketFacts {
  zone: number;
  parkingLotId: number | null;
  startAt: number;
  endAt: number | null;
  /** As sent. */
  plate: string;
  plateNorm: string;
  amountInclVat: number | null;
  vatRate: number | null;
  currencyCode: string | null;
}

export type TicketStatus = "running" | "stopped" | "canceled";

export interface TicketState extends TicketFacts {
  ticketId: string;
  status: TicketStatus;
}

export type TicketEvent =
  | {
      type: "TicketCreated" | "CreateOrUpdate" | "TicketUpdated" | "TicketStopped";
      ticketId: string;
      facts: TicketFacts;
    }
  | { type: "TicketMoved"; ticketId: string; from: string; fromNorm: string; to: string; toNorm: string }
  | { type: "TicketCanceled"; ticketId: string };

export type Decision =
  /** A new ticket from the event's facts. */
  | { kind: "create"; facts: TicketFacts }
  /** Replace the ticket's facts; status as given. */
  | { kind: "replace"; facts: TicketFacts; status: TicketStatus }
  | { kind: "move"; plate: string; plateNorm: string }
  | { kind: "cancel" }
  /** A retry: record the event, change nothing. */
  | { kind: "repeat" }
  | { kind: "reject"; error: Problem };

export function sameFacts(a: TicketFacts, b: TicketFacts): boolean {
  return (
    a.zone === b.zone &&
    a.parkingLotId === b.parkingLotId &&
    a.startAt === b.startAt &&
    a.endAt === b.endAt &&
    a.plate === b.plate &&
    a.amountInclVat === b.amountInclVat &&
    a.vatRate === b.vatRate &&
    a.currencyCode === b.currencyCode
  );
}

/**
 * What an event says, as one string: its type and the facts it carries, read (dates as instants,
 * numbers as numbers, plates as sent), so formatting, key order, digit strings against numbers and
 * unknown fields do not matter. Two sends of one event are equal here; the service records it
 * with every event, and an event equal to one already applied to its ticket is a retry.
 */
export function canonicalEvent(e: TicketEvent): string {
  switch (e.type) {
    case "TicketMoved":
      return JSON.stringify([e.type, e.from, e.to]);
    case "TicketCanceled":
      return JSON.stringify([e.type]);
    default: {
      const f = e.facts;
      return JSON.stringify([
        e.type,
        f.zone,
        f.parkingLotId,
        f.startAt,
        f.endAt,
        f.plate,
        f.amountInclVat,
        f.vatRate,
        f.currencyCode,
      ]);
    }
  }
}

/**
 * The most events one ticket may have. Every accepted event is kept with its body, so without a
 * bound one credential could grow one ticket's history without end; a real ticket has a handful.
 */
export const MAX_EVENTS_PER_TICKET = 1000;

export const eventLimitReached = (ticketId: string) =>
  refuse(
    "ticket-event-limit",
    `Ticket "${ticketId}" already has ${MAX_EVENTS_PER_TICKET} events, the most one ticket may have; nothing was stored`,
  );

const notFound = (ticketId: string, type: string) =>
  refuse("ticket-not-found", `${type} needs an existing ticket; no ticket has ticketId "${ticketId}"`);

const canceled = (ticketId: string, type: string) =>
  refuse("ticket-canceled", `Ticket "${ticketId}" is canceled; ${type} cannot change it`);

/**
 * The contract's event rules. `created` gives the facts the ticket was first created with; it is
 * asked only when a TicketCreated differs from the current state, so that a late retry of the
 * original create (after an update) is still recognised as a retry rather than a conflict.
 * `appliedBefore` tells whether an event canonically equal to this one (canonicalEvent) was
 * already applied to the ticket: then it is a late retry, and applying it again would undo what
 * came after it (Created, Stopped, Moved A→B, and the Stopped resent would make the plate A again).
 */
export function decide(
  current: TicketState | null,
  event: TicketEvent,
  created: () => TicketFacts | null = () => null,
  appliedBefore: () => boolean = () => false,
): Decision {
  if (current && appliedBefore()) return { kind: "repeat" };
  switch (event.type) {
    case "TicketCreated": {
      if (!current) return { kind: "create", facts: event.facts };
      if (sameFacts(current, event.facts)) return { kind: "repeat" };
      const original = created();
      if (original && sameFacts(original, event.facts)) return { kind: "repeat" };
      return {
        kind: "reject",
        error: refuse(
          "ticket-exists",
          `Ticket "${event.ticketId}" already exists with different content; send TicketUpdated to change it`,
        ),
      };
    }
    case "CreateOrUpdate":
    case "TicketUpdated":
    case "TicketStopped": {
      if (!current) {
        if (event.type === "CreateOrUpdate") return { kind: "create", facts: event.facts };
        return { kind: "reject", error: notFound(event.ticketId, event.type) };
      }
      if (current.status === "canceled")
        return { kind: "reject", error: canceled(event.ticketId, event.type) };
      const status = event.type === "TicketStopped" ? "stopped" : current.status;
      if (status === current.status && sameFacts(current, event.facts)) return { kind: "repeat" };
      return { kind: "replace", facts: event.facts, status };
    }
    case "TicketMoved": {
      if (!current) return { kind: "reject", error: notFound(event.ticketId, event.type) };
      // The plate already is the new one: this move was applied before (a retry).
      if (event.toNorm === current.plateNorm && event.fromNorm !== current.plateNorm)
        return { kind: "repeat" };
      if (event.fromNorm !== current.plateNorm)
        return {
          kind: "reject",
          error: refuse(
            "plate-mismatch",
            `fromLicenseNumber does not match the license number of ticket "${event.ticketId}"`,
          ),
        };
      if (event.to === current.plate) return { kind: "repeat" };
      if (current.status === "canceled")
        return { kind: "reject", error: canceled(event.ticketId, event.type) };
      return { kind: "move", plate: event.to, plateNorm: event.toNorm };
    }
    case "TicketCanceled": {
      if (!current) return { kind: "reject", error: notFound(event.ticketId, event.type) };
      if (current.status === "canceled") return { kind: "repeat" };
      return { kind: "cancel" };
    }
  }
}
