import type { TObject, TSchema } from "@sinclair/typebox";
import { type EventType, TicketEventBodies } from "./model.ts";

/**
 * The most bytes of a body the event log keeps as sent. The known fields of an event fit in well
 * under 1 KiB; what a sender adds beyond them is kept up to this bound, so that one credential
 * cannot store --body-limit-kb per event on every ticket (64 KiB × 1000 events).
 */
export const MAX_STORED_BODY = 8 * 1024;

function knownFields(schema: TSchema, value: unknown): unknown {
  const properties = (schema as Partial<TObject>).properties;
  if (!properties || value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(properties)) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = knownFields(nestedObject(sub), v);
  }
  return out;
}

/** A nullable or optional object field is a union with an object branch; ticketCost is one. */
function nestedObject(schema: TSchema): TSchema {
  if ((schema as Partial<TObject>).properties) return schema;
  const branch = (schema.anyOf as TSchema[] | undefined)?.find((s) => (s as Partial<TObject>).properties);
  return branch ?? schema;
}

/**
 * What the event log stores of a body: the body exactly as sent when it is at most
 * MAX_STORED_BODY bytes; otherwise the event's known fields as canonical JSON (in the schema's
 * order, values as sent), with the length the body had, so the operator sees it was cut.
 */
export function storedBody(
  raw: string,
  type: EventType,
  body: unknown,
): { rawBody: string; bodyCutFrom: number | null } {
  if (raw.length <= MAX_STORED_BODY / 3) return { rawBody: raw, bodyCutFrom: null };
  const bytes = Buffer.byteLength(raw);
  if (bytes <= MAX_STORED_BODY) return { rawBody: raw, bodyCutFrom: null };
  return { rawBody: JSON.stringify(knownFields(TicketEventBodies[type], body)), bodyCutFrom: bytes };
}
