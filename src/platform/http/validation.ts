import type { TSchema } from "@sinclair/typebox";
import { type ValueError, ValueErrorType } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import { t } from "elysia";
import { type FieldError, firstPerPointer, invalid } from "../../domain/errors.ts";
import { readWholeNumber } from "../../domain/zones.ts";

/**
 * Admin writes reject unknown fields (a typo must not silently drop a setting). Elysia's
 * normalization strips unknown fields before validating, whatever the schema says, so the auth
 * macro's `strictBody` option checks the raw body in `transform`, which runs before that.
 */
export function unknownFields(schema: TSchema, value: unknown): FieldError[] {
  const out: FieldError[] = [];
  for (const e of Value.Errors(schema, value))
    if (e.type === ValueErrorType.ObjectAdditionalProperties)
      out.push({ pointer: e.path, message: "Unknown field" });
  return out;
}

export function rejectUnknownFields(schema: TSchema, value: unknown): void {
  const errors = unknownFields(schema, value);
  if (errors.length === 0) return;
  const detail =
    errors.length === 1
      ? `${errors[0]!.pointer}: unknown field`
      : `${errors.length} unknown fields: ${errors.map((e) => e.pointer).join(", ")}`;
  throw invalid(errors, detail);
}

interface Bounds {
  minimum?: number;
  maximum?: number;
  description?: string;
  anyOf?: { type?: string }[];
  type?: string;
  pattern?: string;
}

/** TypeBox says "Expected union value" for Elysia's integers; say what is expected instead. */
export function messageOf(e: ValueError): string {
  const s = e.schema as Bounds;
  if (e.type === ValueErrorType.ObjectAdditionalProperties) return "Unknown field";
  const integer = s.type === "integer" || s.anyOf?.some((b) => b.type === "integer");
  if (integer && (s.minimum !== undefined || s.maximum !== undefined))
    return `Expected an integer from ${s.minimum ?? "-∞"} to ${s.maximum ?? "∞"}`;
  if (s.type === "string" && s.pattern && s.description) return `Expected ${s.description.split(";")[0]}`;
  return e.message;
}

/** Every schema error of `value` (strict schemas include unknown fields), first per pointer. */
export function schemaErrors(schema: TSchema, value: unknown): FieldError[] {
  return firstPerPointer(
    [...Value.Errors(schema, value)].map((e) => ({ pointer: e.path, message: messageOf(e) })),
  );
}

function wholeNumberRefused(name: string, where: "params" | "query", min: number, max: number) {
  return invalid(
    [{ pointer: `/${name}`, message: `Expected a whole number from ${min} to ${max}`, in: where }],
    `/${name}: expected a whole number from ${min} to ${max} (digits only)`,
  );
}

/** A whole number from a path segment, or a validation problem that names the parameter. */
export function pathNumber(value: string, name: string, min: number, max = 2_147_483_647): number {
  const n = readWholeNumber(value, min, max, true);
  if (n === null) throw wholeNumberRefused(name, "params", min, max);
  return n;
}

/**
 * Marks a parameter's text as a whole number from `min` to `max`: the OpenAPI document declares
 * the parameter as that integer (a URL carries only text, and a generated client then sends a
 * number), while the box reads the digits itself with its own messages (readWholeNumber).
 */
export function integerText(
  min: number,
  max: number,
  multipleOf?: number,
): { "x-integer": { minimum: number; maximum: number; multipleOf?: number } } {
  return { "x-integer": { minimum: min, maximum: max, ...(multipleOf ? { multipleOf } : {}) } };
}

/**
 * A path or query parameter that is a whole number, read the one way (readWholeNumber: ASCII
 * digits only, so "0x10" and "1e2" are refused) and range-checked. Elysia's own t.Integer would
 * read any JavaScript numeric string.
 */
export function wholeNumberParam(
  name: string,
  where: "params" | "query",
  min: number,
  max: number,
  what?: string,
  /** The number must also be a multiple of this (said in the document; the route checks it in words). */
  multipleOf?: number,
) {
  const range = `a whole number from ${min} to ${max}`;
  return t
    .Transform(
      t.String({
        pattern: "^[0-9]{1,16}$",
        description: what ? `${what}: ${range}` : range,
        ...integerText(min, max, multipleOf),
      }),
    )
    .Decode((text) => {
      const n = readWholeNumber(text, min, max, true);
      if (n === null) throw wholeNumberRefused(name, where, min, max);
      return n;
    })
    .Encode((n) => String(n));
}
