/**
 * TypeBox schemas as plain JSON Schema 2020-12 for the OpenAPI document: TypeBox bookkeeping
 * and validator-only keywords (`errorMessage`) removed, Elysia's coercions published as the
 * type a client sends, named shapes lifted into `components.schemas`, and an example built for
 * any schema from the examples its named parts carry.
 */

export type Json = Record<string, unknown>;

export function isSchema(x: unknown): x is Json {
  return !!x && typeof x === "object" && !Array.isArray(x);
}

/** Keywords of JSON Schema 2020-12 and the OpenAPI 3.1 vocabulary; anything else is dropped. */
const KEYWORDS = new Set([
  "$schema",
  "$id",
  "$ref",
  "$defs",
  "$comment",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxContains",
  "minContains",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
  "items",
  "prefixItems",
  "contains",
  "additionalProperties",
  "properties",
  "patternProperties",
  "propertyNames",
  "dependentSchemas",
  "unevaluatedItems",
  "unevaluatedProperties",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "format",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
  "discriminator",
  "xml",
  "externalDocs",
  // A parameter's text read as a whole number (integerText): openapi.ts declares it an integer.
  "x-integer",
]);

/** Keywords whose value maps names to schemas (the names are not keywords). */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
/** Keywords whose value is data, copied as it is. */
const DATA = new Set([
  "enum",
  "const",
  "default",
  "examples",
  "required",
  "dependentRequired",
  "discriminator",
  "xml",
  "externalDocs",
  "x-integer",
]);

// Formats Elysia uses for "digits as a string" beside the real type in params and query.
const COERCED_FORMATS = ["integer", "numeric", "boolean"];

export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!isSchema(schema)) return schema;
  // Elysia widens numeric params/query to "digits as a string, or a number": publish the number.
  if (Array.isArray(schema.anyOf) && schema.anyOf.length === 2) {
    const [a, b] = schema.anyOf as Json[];
    const coerced = (x: Json | undefined) =>
      x?.type === "string" && typeof x.format === "string" && COERCED_FORMATS.includes(x.format);
    const { anyOf: _, ...rest } = schema;
    if (coerced(a) && b && !coerced(b)) return toJsonSchema({ ...rest, ...b });
    if (coerced(b) && a && !coerced(a)) return toJsonSchema({ ...rest, ...a });
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (!KEYWORDS.has(k)) continue;
    if (DATA.has(k)) out[k] = v;
    else if (SCHEMA_MAPS.has(k) && isSchema(v))
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, toJsonSchema(s)]));
    else out[k] = toJsonSchema(v);
  }
  switch (schema.type) {
    case "Date":
      return { ...out, type: "string", format: "date-time" };
    case "Uint8Array":
      return { ...out, type: "string", contentEncoding: "base64" };
    case "undefined":
    case "void":
    case "function":
    case "unknown":
      return pick(out, ["description", "title"]);
    case "bigint":
      return { ...out, type: "integer" };
  }
  return out;
}

function pick(o: Json, keys: string[]): Json {
  return Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));
}

/** The same text for the same schema, whatever the order of its keys. */
export function canonical(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonical).join(",")}]`;
  if (!isSchema(x)) return JSON.stringify(x);
  const keys = Object.keys(x)
    .filter((k) => k !== "examples" && k !== "title")
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(x[k])}`).join(",")}}`;
}

/**
 * Replaces every part of a schema that is one of the named shapes with a `$ref` to it. Shapes
 * are matched by content, so a route may use the model itself or a copy Elysia made of it;
 * a part carrying a `title` that no named shape has becomes a component of that name.
 */
export class Components {
  readonly schemas: Record<string, Json> = {};
  private readonly byShape = new Map<string, string>();

  constructor(named: Record<string, { schema: unknown; example?: unknown }>) {
    const converted = Object.entries(named).map(
      ([name, n]) => [name, toJsonSchema(n.schema) as Json, n] as const,
    );
    for (const [name, json] of converted) this.byShape.set(canonical(json), name);
    for (const [name, json, n] of converted) {
      const lifted = this.define(json, name);
      this.schemas[name] = n.example === undefined ? lifted : { ...lifted, examples: [n.example] };
    }
  }

  /** A schema as published: a `$ref` where it is a named shape, and likewise for its parts. */
  lift(schema: unknown): Json {
    return this.walk(schema, undefined, false) as Json;
  }

  /** The definition of component `self`, whose parts may refer to others but not to itself. */
  private define(schema: unknown, self: string): Json {
    return this.walk(schema, self, true) as Json;
  }

  private walk(x: unknown, self: string | undefined, root: boolean): unknown {
    if (Array.isArray(x)) return x.map((v) => this.walk(v, self, false));
    if (!isSchema(x)) return x;
    if (!root) {
      const name = this.byShape.get(canonical(x));
      if (name && name !== self) return { $ref: `#/components/schemas/${name}` };
      const title =
        typeof x.title === "string" && /^[A-Za-z][A-Za-z0-9]*$/.test(x.title) ? x.title : undefined;
      if (title && title !== self && !this.schemas[title] && !this.byShape.has(canonical(x))) {
        this.byShape.set(canonical(x), title);
        this.schemas[title] = this.define(x, title);
        return { $ref: `#/components/schemas/${title}` };
      }
    }
    const out: Json = {};
    for (const [k, v] of Object.entries(x)) {
      if (DATA.has(k)) out[k] = v;
      else if (SCHEMA_MAPS.has(k) && isSchema(v))
        out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, this.walk(s, self, false)]));
      else out[k] = this.walk(v, self, false);
    }
    return out;
  }

  resolve(schema: Json): Json {
    const ref = schema.$ref;
    if (typeof ref !== "string") return schema;
    return this.schemas[ref.split("/").pop()!] ?? {};
  }

  /** A value the schema accepts: its own example, or one built from its parts' examples. */
  example(schema: unknown, depth = 0): unknown {
    if (!isSchema(schema) || depth > 12) return null;
    const s = this.resolve(schema);
    if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
    if ("const" in s) return s.const;
    if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
    if ("default" in s) return s.default;
    const branches = (s.oneOf ?? s.anyOf) as Json[] | undefined;
    if (Array.isArray(branches)) {
      const nonNull = branches.find((b) => this.resolve(b).type !== "null") ?? branches[0];
      return this.example(nonNull, depth + 1);
    }
    if (Array.isArray(s.allOf))
      return Object.assign({}, ...s.allOf.map((p) => this.example(p, depth + 1) as object));
    const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== "null") : s.type;
    switch (type) {
      case "object": {
        const props = (s.properties ?? {}) as Record<string, unknown>;
        return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, this.example(v, depth + 1)]));
      }
      case "array":
        return s.maxItems === 0 ? [] : [this.example(s.items, depth + 1)];
      case "integer":
      case "number":
        return typeof s.minimum === "number" ? s.minimum : 1;
      case "boolean":
        return true;
      case "null":
        return null;
      case "string":
        return s.format === "date-time" ? "2026-06-15T10:00:00+02:00" : "text";
      default:
        return null;
    }
  }
}
