import type { ApiContract, OperationContract } from "../../platform/http/api-contract.ts";
import { type EventType, TicketEventBodies, TicketEventBody } from "./model.ts";

/** The interface's own intake examples, one per eventType. */
const cost = (amountInclVat: number | string) => ({ amountInclVat, vatRate: 25, currencyCode: "SEK" });
const ticket = {
  ticketId: "100234",
  zoneCode: "1234",
  parkingLotId: "12",
  startDate: "2026-06-15T10:00:00+02:00",
};
export const EVENT_EXAMPLES: Record<EventType, Record<string, unknown>> = {
  TicketCreated: {
    eventType: "TicketCreated",
    ...ticket,
    endDate: "2026-06-15T12:00:00+02:00",
    licenseNumber: "ABC123",
    ticketCost: cost(4000),
  },
  TicketUpdated: {
    eventType: "TicketUpdated",
    ...ticket,
    endDate: "2026-06-15T13:00:00+02:00",
    licenseNumber: "ABC123",
    ticketCost: cost(6000),
  },
  TicketStopped: {
    eventType: "TicketStopped",
    ...ticket,
    endDate: "2026-06-15T11:30:00+02:00",
    licenseNumber: "ABC123",
    ticketCost: cost(3000),
  },
  TicketMoved: {
    eventType: "TicketMoved",
    ticketId: "100234",
    fromLicenseNumber: "ABC123",
    toLicenseNumber: "XYZ789",
  },
  TicketCanceled: { eventType: "TicketCanceled", ticketId: "100234" },
  CreateOrUpdate: {
    eventType: "CreateOrUpdate",
    ...ticket,
    endDate: "2026-06-15T12:00:00+02:00",
    licenseNumber: "ABC123",
    ticketCost: cost("40,00"),
  },
};

/** What the OpenAPI document says of the ticket intake (see src/platform/http/api-contract.ts). */
export const intakeContract: ApiContract = {
  named: {
    ...Object.fromEntries(
      Object.entries(TicketEventBodies).map(([name, schema]) => [
        name,
        { schema, example: EVENT_EXAMPLES[name as EventType] },
      ]),
    ),
    TicketEvent: { schema: TicketEventBody },
  },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const intakeOperations = {
  postTicketEvent: {
    operationId: "postTicketEvent",
    problems: [
      "ticket-not-found",
      "ticket-exists",
      "plate-mismatch",
      "ticket-canceled",
      "ticket-event-limit",
    ],
    tag: "ticket intake",
    ok: {
      200: {
        description: "Stored (or a retry of an event already stored): always []",
        schema: { type: "array", items: {}, maxItems: 0, examples: [[]] },
      },
    },
    description: [
      "The body is one of six shapes told apart by `eventType`. The event is stored, raw body included, in the same transaction that changes the ticket, and `[]` is sent only after that commit: a 200 is on disk.",
      "TicketCreated: creates the ticket; the same content again is a retry (200, no change); other content is 409 ticket-exists. TicketUpdated and TicketStopped replace zone, lot, start, end, plate and cost (TicketStopped also marks it stopped); unknown ticket: 404 ticket-not-found; canceled ticket: 409 ticket-canceled. TicketMoved: fromLicenseNumber must match the ticket's plate (normalized), else 409 plate-mismatch; a move already applied is a retry. TicketCanceled: marks it canceled (kept in history, gone from every lookup); again: 200. CreateOrUpdate: creates or replaces; canceled: 409.",
      "Required fields and nullability follow each event's table; a null where none is allowed is a 400 naming the field's JSON pointer. zoneCode and parkingLotId may be strings of digits, ticketId a number. Dates need an offset or Z; without one they are site time. Unknown fields are ignored and kept in the stored raw body.",
    ].join("\n\n"),
  },
} satisfies Record<string, OperationContract>;
