/**
 * What the OpenAPI document says beyond the schemas that validate requests: per operation, the
 * problem types it can answer, the success bodies of routes that answer a ready Response (lots,
 * zone list), headers, the audience section, and the shapes a terminal vendor sees by name.
 * test/contract/ checks it against what the routes really answer.
 */
import { t } from "elysia";
import { WhoAmI } from "../credentials/routes.ts";
import { HealthStatus } from "../health/routes.ts";
import {
  ParkingLot,
  ParkingLotFee,
  ParkingLotInput,
  ParkingLotLocation,
  ParkingLotOpen,
  ParkingLotPatch,
  Quote,
  QuoteLine,
  VariableFee,
} from "../lots/model.ts";
import {
  ExtendedInformation,
  Permit,
  PermitEnvelope,
  PermitInput,
  PermitList,
  PermitPatch,
  PermitWindow,
  ZonePlates,
} from "../permits/model.ts";
import { TicketEventBodies, TicketEventBody, TicketEventView, TicketView } from "../tickets/model.ts";
import { EXAMPLES } from "./contract-examples.ts";
import { ProblemSchema } from "./model.ts";

/** Sections of the reference, in the order a terminal vendor reads them. */
export const TAGS = [
  { name: "ticket intake", description: "Terminals and parking apps send ticket events." },
  { name: "attendant lookups", description: "Handhelds ask whether a car may park." },
  { name: "parking lots", description: "Lots with their fees, opening hours and locations; quotes." },
  { name: "permits", description: "Operator-issued permits (admin)." },
  { name: "tickets", description: "One ticket with every event received for it (admin)." },
  { name: "credentials", description: "Which credential a request carried." },
  { name: "operations", description: "Health, metrics and this reference." },
] as const;
export type Tag = (typeof TAGS)[number]["name"];

/** Every problem type the service answers: status, title and a typical detail. */
export const PROBLEMS: Record<string, { status: number; title: string; detail: string }> = {
  validation: {
    status: 400,
    title: "Request failed validation",
    detail: "/licenseNumber: must be a license number string of 1 to 32 characters",
  },
  "malformed-json": { status: 400, title: "Malformed JSON", detail: "The body is not valid JSON" },
  "bad-request": {
    status: 400,
    title: "Bad request",
    detail: "zone is given in both the query string and the body",
  },
  "lookup-parameters": {
    status: 400,
    title: "Exactly one of registration_number or zone",
    detail: "Give registration_number or zone, in the query string or in a JSON body",
  },
  unauthorized: {
    status: 401,
    title: "Authentication required",
    detail: "The credentials are unknown, expired or revoked",
  },
  "insufficient-scope": {
    status: 403,
    title: "Insufficient scope",
    detail: "This credential lacks the scope admin",
  },
  "ticket-not-found": {
    status: 404,
    title: "Ticket not found",
    detail: 'TicketUpdated needs an existing ticket; no ticket has ticketId "100234"',
  },
  "lot-not-found": { status: 404, title: "Parking lot not found", detail: "There is no parking lot 12" },
  "permit-not-found": { status: 404, title: "Permit not found", detail: "There is no permit with id 7" },
  "ticket-exists": {
    status: 409,
    title: "Ticket already exists",
    detail: 'Ticket "100234" already exists with different content; send TicketUpdated to change it',
  },
  "plate-mismatch": {
    status: 409,
    title: "License number does not match",
    detail: 'fromLicenseNumber does not match the license number of ticket "100234"',
  },
  "ticket-canceled": {
    status: 409,
    title: "Ticket is canceled",
    detail: 'Ticket "100234" is canceled; TicketUpdated cannot change it',
  },
  "lot-exists": { status: 409, title: "Parking lot exists", detail: "There is already a parking lot 12" },
  "payload-too-large": {
    status: 413,
    title: "Payload too large",
    detail: "The request body is larger than 65536 bytes",
  },
  "unsupported-media-type": {
    status: 415,
    title: "Unsupported media type",
    detail: "The body must be JSON (Content-Type: application/json), not text/plain",
  },
  "too-many-requests": {
    status: 429,
    title: "Too many failed authentications",
    detail: "Too many failed authentications from this address; try again later",
  },
  internal: {
    status: 500,
    title: "Internal error",
    detail: "The request could not be completed; the error has been logged",
  },
  "store-unavailable": {
    status: 503,
    title: "Store unavailable",
    detail: "The store is not writable; the request changed nothing",
  },
};

const Envelope = (data: Parameters<typeof t.Object>[0][string]) => t.Object({ data });

/** Shapes published by name in components.schemas (matched by content wherever they occur). */
export const NAMED: Record<string, { schema: unknown; example?: unknown }> = {
  Problem: { schema: ProblemSchema },
  ParkingLotFee: { schema: ParkingLotFee, example: EXAMPLES.lot.parking_lot_fee[0] },
  VariableFee: { schema: VariableFee, example: EXAMPLES.lot.variable_fees[0] },
  ParkingLotOpen: { schema: ParkingLotOpen, example: EXAMPLES.lot.parking_lot_open[0] },
  ParkingLotLocation: { schema: ParkingLotLocation, example: EXAMPLES.lot.parking_lot_location[0] },
  ParkingLot: { schema: ParkingLot, example: EXAMPLES.lot },
  ParkingLotList: { schema: Envelope(t.Array(ParkingLot)) },
  ParkingLotEnvelope: { schema: Envelope(ParkingLot) },
  ParkingLotInput: { schema: ParkingLotInput, example: EXAMPLES.lotInput },
  ParkingLotPatch: { schema: ParkingLotPatch, example: { max_fee: 20000 } },
  QuoteLine: { schema: QuoteLine, example: EXAMPLES.quote.breakdown[0] },
  Quote: { schema: Quote.properties.data, example: EXAMPLES.quote },
  QuoteEnvelope: { schema: Quote },
  ExtendedInformation: { schema: ExtendedInformation, example: EXAMPLES.extendedInformation },
  ZonePlates: { schema: ZonePlates, example: { data: ["ABC123", "XYZ789"] } },
  PermitWindow: { schema: PermitWindow, example: EXAMPLES.permit.days[0] },
  Permit: { schema: Permit, example: EXAMPLES.permit },
  PermitEnvelope: { schema: PermitEnvelope },
  PermitList: { schema: PermitList },
  PermitInput: { schema: PermitInput, example: EXAMPLES.permitInput },
  PermitPatch: { schema: PermitPatch, example: { end_at: "2026-12-31T23:59:59+01:00" } },
  ...Object.fromEntries(
    Object.entries(TicketEventBodies).map(([name, schema]) => [
      name,
      { schema, example: EXAMPLES.events[name as keyof typeof EXAMPLES.events] },
    ]),
  ),
  TicketEvent: { schema: TicketEventBody },
  TicketEventRecord: { schema: TicketEventView, example: EXAMPLES.ticket.events[0] },
  Ticket: { schema: TicketView.properties.data, example: EXAMPLES.ticket },
  TicketEnvelope: { schema: TicketView },
  WhoAmI: { schema: WhoAmI, example: { kind: "token", name: "terminal-1", scopes: ["tickets:write"] } },
  HealthStatus: { schema: HealthStatus },
  CheckTicketsBody: {
    schema: t.Object({
      registration_number: t.Optional(t.String({ description: "Registration number (any spacing or case)" })),
      zone: t.Optional(
        t.Union([t.Integer({ minimum: 0 }), t.String({ pattern: "^[0-9]+$" })], {
          description: "Zone number, as a number or a string of digits",
        }),
      ),
    }),
    example: { zone: "1234" },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export interface Success {
  description: string;
  schema?: Json | string;
  contentType?: string;
  headers?: string[];
}
type Json = Record<string, unknown>;

export interface OperationContract {
  tag: Tag;
  /** Problem types by status, besides those every route of its kind answers (validation, auth, 5xx). */
  problems?: Record<number, string[]>;
  /** Success answers (a `string` schema names a component); replaces what the route declares. */
  ok?: Record<number, Success>;
  /** A route that never touches the store cannot answer 503. */
  noStore?: boolean;
  description?: string;
  requestBody?: Json;
  /** Request headers the route reads. */
  headers?: { name: string; description: string }[];
}

const IF_NONE_MATCH = [
  { name: "If-None-Match", description: "An ETag from an earlier answer: 304 when unchanged" },
];
const NOT_MODIFIED: Success = {
  description: "Unchanged since the ETag sent in If-None-Match",
  headers: ["ETag"],
};
const LOT_404 = { 404: ["lot-not-found"] };
const PERMIT_404 = { 404: ["permit-not-found"] };

export const OPERATIONS: Record<string, OperationContract> = {
  "POST /api/v1/actions/tickets": {
    tag: "ticket intake",
    problems: {
      404: ["ticket-not-found"],
      409: ["ticket-exists", "plate-mismatch", "ticket-canceled"],
    },
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
  "GET /api/v1/attendants/check-tickets": {
    tag: "attendant lookups",
    problems: {
      400: ["lookup-parameters", "bad-request", "malformed-json"],
      415: ["unsupported-media-type"],
      413: ["payload-too-large"],
    },
    description:
      'Exactly one of `registration_number` or `zone`, in the query string or, as the interface shows, in a JSON body on the GET (`curl -X GET ... -d \'{"zone":"1234"}\'`). Lists what is active now and what ended within the site\'s recent-hours window, newest first.',
    requestBody: {
      required: false,
      description: "The same parameters as a JSON body (the query string is the alternative).",
      content: { "application/json": { schema: ref("CheckTicketsBody") } },
    },
  },
  "GET /api/v1/tickets/zone/:zone": {
    tag: "attendant lookups",
    ok: {
      200: { description: "Each plate once, sorted", schema: "ZonePlates", headers: ["ETag"] },
      304: NOT_MODIFIED,
    },
    headers: IF_NONE_MATCH,
  },
  "GET /api/v1/parkings": {
    tag: "parking lots",
    ok: {
      200: {
        description: "Every lot (or only active/inactive ones)",
        schema: "ParkingLotList",
        headers: ["ETag"],
      },
      304: NOT_MODIFIED,
    },
    headers: IF_NONE_MATCH,
  },
  "GET /api/v1/parkings/:id": {
    tag: "parking lots",
    problems: LOT_404,
    ok: {
      200: { description: "The lot", schema: "ParkingLotEnvelope", headers: ["ETag"] },
      304: NOT_MODIFIED,
    },
    headers: IF_NONE_MATCH,
  },
  "GET /api/v1/parkings/:id/quote": { tag: "parking lots", problems: LOT_404 },
  "POST /api/v1/parkings": {
    tag: "parking lots",
    problems: { 409: ["lot-exists"] },
    ok: { 201: { description: "Created", schema: "ParkingLotEnvelope", headers: ["Location"] } },
  },
  "PUT /api/v1/parkings/:id": {
    tag: "parking lots",
    problems: LOT_404,
    ok: { 200: { description: "The lot as stored", schema: "ParkingLotEnvelope" } },
  },
  "PATCH /api/v1/parkings/:id": {
    tag: "parking lots",
    problems: LOT_404,
    ok: { 200: { description: "The lot as stored", schema: "ParkingLotEnvelope" } },
  },
  "DELETE /api/v1/parkings/:id": {
    tag: "parking lots",
    problems: LOT_404,
    ok: { 204: { description: "Deleted" } },
  },
  "POST /api/v1/permits": {
    tag: "permits",
    ok: { 201: { description: "Issued", schema: "PermitEnvelope", headers: ["Location"] } },
  },
  "GET /api/v1/permits": { tag: "permits" },
  "GET /api/v1/permits/:id": { tag: "permits", problems: PERMIT_404 },
  "PUT /api/v1/permits/:id": { tag: "permits", problems: PERMIT_404 },
  "PATCH /api/v1/permits/:id": { tag: "permits", problems: PERMIT_404 },
  "DELETE /api/v1/permits/:id": {
    tag: "permits",
    problems: PERMIT_404,
    ok: { 204: { description: "Deleted" } },
  },
  "GET /api/v1/tickets/:ticketId": { tag: "tickets", problems: { 404: ["ticket-not-found"] } },
  "GET /api/v1/whoami": { tag: "credentials" },
  "GET /healthz": { tag: "operations", noStore: true },
  "GET /readyz": { tag: "operations" },
  "GET /metrics": { tag: "operations" },
  "GET /openapi.json": { tag: "operations", noStore: true },
  "GET /docs": { tag: "operations", noStore: true },
};

/** Response headers by name. */
export const HEADERS: Record<string, Json> = {
  ETag: { description: "Version of this answer, for If-None-Match", schema: { type: "string" } },
  Location: { description: "Path of the created resource", schema: { type: "string" } },
  "Retry-After": { description: "Seconds to wait before trying again", schema: { type: "integer" } },
  "WWW-Authenticate": {
    description: "The accepted schemes (and the missing scope on 403)",
    schema: { type: "string" },
  },
};
