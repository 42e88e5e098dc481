import { type TSchema, Type } from "@sinclair/typebox";
import { type Static, t } from "elysia";
import { INSTANT_PATTERN } from "../../domain/time/zoned.ts";
import { digitsUpTo, ID_MAX, ZONE_MAX } from "../../domain/zones.ts";

/**
 * The six ticket event bodies of the interface, one schema each. They are the single source:
 * the intake validates with them (compiled, see validate.ts), the code is typed by them, and
 * OpenAPI documents the intake body as a oneOf of them.
 *
 * Field rules follow the interface's per-event tables: a non-nullable field must be present and
 * not null; a nullable field may be null or left out. Unknown fields are allowed (and ignored).
 * `errorMessage` is what a sender reads in the 400 when a field fails.
 */

export const EVENT_TYPES = [
  "TicketCreated",
  "TicketUpdated",
  "TicketStopped",
  "TicketMoved",
  "TicketCanceled",
  "CreateOrUpdate",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const MAX_INT = Number.MAX_SAFE_INTEGER;

/**
 * A JSON integer and nothing else. Elysia's t.Integer also takes any numeric string (even "-12"),
 * which would bypass the bounds below; the string forms senders use are spelled out instead.
 */
const Int = (options: { minimum: number; maximum: number }) => Type.Integer(options);

/**
 * The interface declares int but its own examples send strings of digits. A string's range is
 * checked with the other meaning checks (read-event.ts), by the same reading as every other
 * integer of the service (readWholeNumber).
 */
const intLike = (what: string, description: string, maximum = MAX_INT) =>
  t.Union([Int({ minimum: 0, maximum }), t.String({ pattern: digitsUpTo(maximum) })], {
    description,
    errorMessage: `must be ${what}: an integer from 0 to ${maximum}, or a string of such digits`,
  });

const TicketId = t.Union(
  [t.String({ minLength: 1, maxLength: 128 }), Int({ minimum: 0, maximum: MAX_INT })],
  {
    description: "The sender's own ticket id; a number is accepted and stored as a string",
    errorMessage: "must be a non-empty string (at most 128 characters) or a non-negative integer",
  },
);

const ZoneCode = intLike("a zone code", "Zone code (int; a string of digits is accepted)", ZONE_MAX);
const ParkingLotId = intLike(
  "a parking lot id",
  "Parking lot id (int; a string of digits is accepted)",
  ID_MAX,
);

const DateTime = t.String({
  minLength: 1,
  maxLength: 64,
  pattern: INSTANT_PATTERN,
  description: "ISO 8601 date-time, e.g. 2026-06-15T10:00:00+02:00; without an offset it is site time",
  errorMessage: "must be an ISO 8601 date-time string such as 2026-06-15T10:00:00+02:00",
});

const Plate = t.String({
  minLength: 1,
  maxLength: 32,
  description: "License (registration) number as the sender writes it",
  errorMessage: "must be a license number string of 1 to 32 characters",
});

const AmountCents = intLike("an amount in cents", "Amount in cents including VAT");
const VatRate = t.Union([Int({ minimum: 0, maximum: 100 }), t.String({ pattern: "^(100|[0-9]{1,2})$" })], {
  description: "VAT rate in percent",
  errorMessage: "must be a VAT rate: an integer from 0 to 100 or a string of digits",
});
/**
 * Three capital letters (ISO 4217, as the interface's example): the code reaches the revenue
 * report and its CSV, where any other text could be a spreadsheet formula.
 */
const CurrencyCode = t.String({
  pattern: "^[A-Z]{3}$",
  description: "Currency code: three capital letters (ISO 4217), e.g. SEK",
  errorMessage: "must be a currency code of three capital letters such as SEK",
});
/** CreateOrUpdate only: whole units with a decimal comma, "12,50" = 1250 cents. */
export const DECIMAL_COMMA_AMOUNT = "^[0-9]{1,13}(,[0-9]{1,2})?$";
const AmountCentsOrDecimalComma = t.Union(
  [Int({ minimum: 0, maximum: MAX_INT }), t.String({ pattern: DECIMAL_COMMA_AMOUNT })],
  {
    description:
      'Amount incl. VAT: an int in cents, or a string of units with a decimal comma ("12,50" = 1250)',
    errorMessage: 'must be an amount: a non-negative integer in cents or a string such as "12,50"',
  },
);

const nullable = <T extends TSchema>(schema: T) =>
  t.Optional(
    t.Union([schema, t.Null()], { errorMessage: (schema as { errorMessage?: string }).errorMessage }),
  );

const eventType = <E extends EventType>(e: E) => t.Literal(e, { errorMessage: `must be ${e}` });

/** ticketCost where every member is nullable (create, create-or-update). */
const openCost = <A extends typeof AmountCents | typeof AmountCentsOrDecimalComma>(amount: A) =>
  t.Object(
    {
      amountInclVat: nullable(amount),
      vatRate: nullable(VatRate),
      currencyCode: nullable(CurrencyCode),
    },
    { errorMessage: "must be an object with amountInclVat, vatRate and currencyCode" },
  );

/** ticketCost of an update or stop: nothing may be null. */
const FullCost = t.Object(
  { amountInclVat: AmountCents, vatRate: VatRate, currencyCode: CurrencyCode },
  { errorMessage: "must be an object with amountInclVat, vatRate and currencyCode" },
);

/**
 * An event that places a ticket: where, from when to when, which car, at what cost. One that may
 * create the ticket may leave the end and the cost open; an update or a stop gives both.
 */
const placingBody = <E extends EventType, End extends TSchema, Cost extends TSchema>(
  e: E,
  endDate: End,
  ticketCost: Cost,
  description: string,
) =>
  t.Object(
    {
      eventType: eventType(e),
      ticketId: TicketId,
      zoneCode: ZoneCode,
      parkingLotId: nullable(ParkingLotId),
      startDate: DateTime,
      endDate,
      licenseNumber: Plate,
      ticketCost,
    },
    { title: e, description },
  );

export const TicketCreatedBody = placingBody(
  "TicketCreated",
  nullable(DateTime),
  openCost(AmountCents),
  "A ticket is created",
);
export const TicketUpdatedBody = placingBody("TicketUpdated", DateTime, FullCost, "A ticket is updated");
export const TicketStoppedBody = placingBody("TicketStopped", DateTime, FullCost, "A ticket is stopped");

export const TicketMovedBody = t.Object(
  {
    eventType: eventType("TicketMoved"),
    ticketId: TicketId,
    fromLicenseNumber: Plate,
    toLicenseNumber: Plate,
  },
  { title: "TicketMoved", description: "The ticket moves to another registration number" },
);

export const TicketCanceledBody = t.Object(
  { eventType: eventType("TicketCanceled"), ticketId: TicketId },
  { title: "TicketCanceled", description: "The ticket is canceled (kept in history)" },
);

export const CreateOrUpdateBody = placingBody(
  "CreateOrUpdate",
  nullable(DateTime),
  openCost(AmountCentsOrDecimalComma),
  "Create or update in one action",
);

export const TicketEventBodies = {
  TicketCreated: TicketCreatedBody,
  TicketUpdated: TicketUpdatedBody,
  TicketStopped: TicketStoppedBody,
  TicketMoved: TicketMovedBody,
  TicketCanceled: TicketCanceledBody,
  CreateOrUpdate: CreateOrUpdateBody,
} as const satisfies Record<EventType, unknown>;

/**
 * The intake body for documentation: exactly one of the six, chosen by eventType (OpenAPI
 * oneOf with a discriminator; TypeBox's Union would say anyOf).
 */
export const TicketEventBody = t.Unsafe<Static<(typeof TicketEventBodies)[EventType]>>({
  title: "TicketManagement",
  description: "One ticket event; the field set depends on eventType",
  oneOf: Object.values(TicketEventBodies),
  discriminator: {
    propertyName: "eventType",
    // Named outright, so a validator checks the one body eventType names, not all six.
    mapping: Object.fromEntries(EVENT_TYPES.map((e) => [e, `#/components/schemas/${e}`])),
  },
});

export type TicketCreatedBody = Static<typeof TicketCreatedBody>;
export type TicketUpdatedBody = Static<typeof TicketUpdatedBody>;
export type TicketMovedBody = Static<typeof TicketMovedBody>;
export type TicketCanceledBody = Static<typeof TicketCanceledBody>;
export type CreateOrUpdateBody = Static<typeof CreateOrUpdateBody>;

/** Every intake event answers this on success. */
export const IntakeAccepted = t.Array(t.Unknown(), { maxItems: 0, description: "Always an empty array" });
