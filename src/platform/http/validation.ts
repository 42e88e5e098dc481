import type { TSchema } from "@sinclair/typebox";
import { type ValueError, ValueErrorType } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import { type FieldError, problems } from "./problem.ts";

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
  throw problems.validation(detail, errors);
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
  const seen = new Map<string, FieldError>();
  for (const e of Value.Errors(schema, value))
    if (!seen.has(e.path)) seen.set(e.path, { pointer: e.path, message: messageOf(e) });
  return [...seen.values()];
}
