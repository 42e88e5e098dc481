import type { TSchema } from "elysia";
import { type FieldError, problems } from "./problem.ts";

interface SchemaShape {
  type?: string;
  properties?: Record<string, SchemaShape>;
  additionalProperties?: boolean | SchemaShape;
  items?: SchemaShape;
  anyOf?: SchemaShape[];
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function collect(schema: SchemaShape, value: unknown, pointer: string, out: FieldError[]): void {
  if (value === null || typeof value !== "object") return;
  if (schema.anyOf) {
    const objects = schema.anyOf.filter((s) => s.type === (Array.isArray(value) ? "array" : "object"));
    if (objects.length === 1) collect(objects[0]!, value, pointer, out);
    return;
  }
  if (Array.isArray(value)) {
    if (schema.type === "array" && schema.items)
      value.forEach((item, i) => {
        collect(schema.items!, item, `${pointer}/${i}`, out);
      });
    return;
  }
  if (schema.type !== "object" || !schema.properties) return;
  for (const [key, v] of Object.entries(value)) {
    const property = schema.properties[key];
    if (property) collect(property, v, `${pointer}/${escapePointer(key)}`, out);
    else if (schema.additionalProperties === false)
      out.push({ pointer: `${pointer}/${escapePointer(key)}`, message: "Unknown field" });
  }
}

/**
 * Elysia's normalization silently drops fields a schema does not name, even with
 * `additionalProperties: false`. Admin writes must refuse them instead (a typo must not drop a
 * setting), so routes run this in `transform`, before normalization, on the raw body.
 */
export function rejectUnknownFields(schema: TSchema, body: unknown): void {
  const errors: FieldError[] = [];
  collect(schema as SchemaShape, body, "", errors);
  if (errors.length > 0)
    throw problems.validation(
      errors.length === 1 ? `${errors[0]!.pointer}: unknown field` : `${errors.length} unknown fields`,
      errors,
    );
}
