import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { describeFieldErrors, type FieldError, invalid } from "../../domain/errors.ts";
import { normalizePlate, plateProblem, ticketIdProblem } from "../../domain/plates.ts";
import type { TicketEvent, TicketFacts } from "../../domain/tickets/rules.ts";
import { parseInstant } from "../../domain/time/zoned.ts";
import { ID_MAX, readWholeNumber, ZONE_MAX } from "../../domain/zones.ts";
import {
  type CreateOrUpdateBody,
  DECIMAL_COMMA_AMOUNT,
  EVENT_TYPES,
  type EventType,
  type TicketCreatedBody,
  TicketEventBodies,
  type TicketMovedBody,
  type TicketUpdatedBody,
} from "./model.ts";

/**
 * Turns an intake body into a TicketEvent, or throws one 400 listing every failing field.
 * The body is validated here rather than by Elysia because the six bodies are told apart by
 * eventType, and a failed union would only say "no variant matched".
 */

type Checker = ReturnType<typeof TypeCompiler.Compile>;
const checkers = new Map<EventType, Checker>();

/** Compiled at an event type's first event, not at start: the six compilations held every start about 20 ms. */
function checkerOf(type: EventType): Checker {
  let checker = checkers.get(type);
  if (!checker) {
    checker = TypeCompiler.Compile(TicketEventBodies[type] as TSchema);
    checkers.set(type, checker);
  }
  return checker;
}

const DECIMAL_COMMA = new RegExp(DECIMAL_COMMA_AMOUNT);

/** CreateOrUpdate's amount: cents as an int, or units with a decimal comma ("12,50" = 1250). */
export function parseAmount(value: number | string): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (!DECIMAL_COMMA.test(value)) return null;
  const [units, decimals = ""] = value.split(",");
  return Number(units) * 100 + Number(decimals.padEnd(2, "0"));
}

/** An int the interface declares, which senders also send as a string of digits. */
export function readInt(value: number | string): number {
  return typeof value === "number" ? value : Number(value);
}

function isEventType(v: unknown): v is EventType {
  return typeof v === "string" && (EVENT_TYPES as readonly string[]).includes(v);
}

function valueAt(body: unknown, pointer: string): unknown {
  let v: unknown = body;
  for (const key of pointer.split("/").slice(1)) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[key.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return v;
}

function schemaErrors(type: EventType, body: unknown): Map<string, FieldError> {
  const out = new Map<string, FieldError>();
  const checker = checkerOf(type);
  if (checker.Check(body)) return out;
  for (const e of checker.Errors(body)) {
    if (out.has(e.path)) continue;
    const value = valueAt(body, e.path);
    const own = (e.schema as { errorMessage?: string }).errorMessage;
    const message =
      value === undefined
        ? `is required for ${type}`
        : value === null
          ? `must not be null for ${type}`
          : (own ?? e.message);
    out.set(e.path, { pointer: e.path, message });
  }
  return out;
}

type Fields = Record<string, unknown>;

/** What the meaning checks computed, kept so that building the event does not compute it again. */
interface Read {
  dates: Record<string, number | null>;
  plates: Record<string, string>;
}

/** Checks that a schema cannot express: dates, their order, plates that normalize to nothing. */
function meaningErrors(
  type: EventType,
  body: Fields,
  tz: string,
  errors: Map<string, FieldError>,
  read: Read,
) {
  const add = (pointer: string, message: string) => {
    if (!errors.has(pointer)) errors.set(pointer, { pointer, message });
  };
  const date = (key: string): number | null => {
    const text = body[key];
    if (typeof text !== "string" || errors.has(`/${key}`)) return null;
    const at = parseInstant(text, tz, { dateOnly: false });
    if (at === null)
      add(`/${key}`, "must be an ISO 8601 date-time with a time of day, such as 2026-06-15T10:00:00+02:00");
    read.dates[key] = at;
    return at;
  };
  const plate = (key: string) => {
    const text = body[key];
    if (typeof text !== "string" || errors.has(`/${key}`)) return;
    read.plates[key] = normalizePlate(text);
    const problem = plateProblem(text);
    if (problem) add(`/${key}`, problem);
  };
  if (typeof body.ticketId === "string" && !errors.has("/ticketId")) {
    const problem = ticketIdProblem(body.ticketId);
    if (problem) add("/ticketId", problem);
  }
  if (type === "TicketMoved") {
    plate("fromLicenseNumber");
    plate("toLicenseNumber");
    return;
  }
  if (type === "TicketCanceled") return;
  // A string of digits passed the schema; its range is the same as the integer's.
  const range = (key: string, max: number, what: string) => {
    const v = body[key];
    if (v == null || errors.has(`/${key}`)) return;
    if (readWholeNumber(v, 0, max, true) === null)
      add(`/${key}`, `must be ${what}: an integer from 0 to ${max}, or a string of such digits`);
  };
  range("zoneCode", ZONE_MAX, "a zone code");
  range("parkingLotId", ID_MAX, "a parking lot id");
  const start = date("startDate");
  const end = date("endDate");
  if (start !== null && end !== null && end < start) add("/endDate", "must not be before startDate");
  plate("licenseNumber");
}

function ticketIdOf(body: { ticketId: string | number }): string {
  return String(body.ticketId);
}

/** Only for a body that passed every check, so `read` holds its dates and plate. */
function factsOf(
  body: TicketCreatedBody | TicketUpdatedBody | CreateOrUpdateBody,
  read: Read,
  amount: number | null,
): TicketFacts {
  const cost = body.ticketCost;
  return {
    zone: readInt(body.zoneCode),
    parkingLotId: body.parkingLotId == null ? null : readInt(body.parkingLotId),
    startAt: read.dates.startDate!,
    endAt: body.endDate == null ? null : read.dates.endDate!,
    plate: body.licenseNumber,
    plateNorm: read.plates.licenseNumber!,
    amountInclVat: amount,
    vatRate: cost.vatRate == null ? null : readInt(cost.vatRate),
    currencyCode: cost.currencyCode ?? null,
  };
}

export function readTicketEvent(body: unknown, tz: string): TicketEvent {
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw invalid(
      [{ pointer: "", message: "must be a JSON object" }],
      "The body must be one ticket event as a JSON object",
    );
  const type = (body as Fields).eventType;
  if (!isEventType(type)) {
    const message = `must be one of ${EVENT_TYPES.join(", ")}`;
    throw invalid([{ pointer: "/eventType", message }]);
  }
  const errors = schemaErrors(type, body);
  const read: Read = { dates: {}, plates: {} };
  meaningErrors(type, body as Fields, tz, errors, read);
  if (errors.size > 0) {
    const list = [...errors.values()];
    throw invalid(list, describeFieldErrors(list, `fields of the ${type} event`));
  }
  switch (type) {
    case "TicketMoved": {
      const b = body as TicketMovedBody;
      return {
        type,
        ticketId: ticketIdOf(b),
        from: b.fromLicenseNumber,
        fromNorm: read.plates.fromLicenseNumber!,
        to: b.toLicenseNumber,
        toNorm: read.plates.toLicenseNumber!,
      };
    }
    case "TicketCanceled":
      return { type, ticketId: ticketIdOf(body as { ticketId: string | number }) };
    case "CreateOrUpdate": {
      const b = body as CreateOrUpdateBody;
      const amount = b.ticketCost.amountInclVat == null ? null : parseAmount(b.ticketCost.amountInclVat);
      return { type, ticketId: ticketIdOf(b), facts: factsOf(b, read, amount) };
    }
    default: {
      const b = body as TicketCreatedBody | TicketUpdatedBody;
      const amount = b.ticketCost.amountInclVat == null ? null : readInt(b.ticketCost.amountInclVat);
      return { type, ticketId: ticketIdOf(b), facts: factsOf(b, read, amount) };
    }
  }
}
