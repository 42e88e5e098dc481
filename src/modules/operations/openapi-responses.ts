/**
 * The responses of one OpenAPI operation: success bodies with examples, and a problem+json
 * answer per error status naming the problem types it carries.
 */
import { PROBLEMS, type ProblemEntry, type ProblemType, type RouteClass } from "../../domain/problems.ts";
import { HEADERS, type Success } from "../../platform/http/api-contract.ts";
import { type Components, isSchema, type Json, toJsonSchema } from "./json-schema.ts";

export const STATUS_TEXT: Record<string, string> = {
  "200": "OK",
  "201": "Created",
  "204": "No content",
  "304": "Not modified",
  "400": "Malformed JSON, or failed validation (every failing field listed with a JSON pointer)",
  "401": "No credentials, or unknown, expired or revoked ones",
  "403": "The credential lacks the needed scope",
  "404": "Not found",
  "409": "Conflict with the stored state",
  "413": "Body over the limit",
  "415": "A body that is not JSON",
  "429":
    "Too many failed authentications from this address, or this credential over its rate limit (see Retry-After)",
  "500": "Internal error (logged; no internals in the answer)",
  "503": "The store is not writable, or too many password checks are waiting; the request changed nothing",
};

/** What the document knows of a route, for the classes of routes a problem names (problems.ts). */
export interface RouteFacts {
  method: string;
  /** A body schema, query or path parameters: what fails validation. */
  hasInput: boolean;
  security: Json[] | undefined;
  scope: string | undefined;
  /** A route that never touches the store cannot answer 503. */
  noStore: boolean;
  /** The route draws on its client address's bucket (rateLimitOption, limitMarkedRoutes). */
  limitedByAddress: boolean;
}

function classesOf(f: RouteFacts): Set<RouteClass> {
  const write = f.method !== "get" && f.method !== "head";
  const classes = new Set<RouteClass>(["every"]);
  if (f.hasInput) classes.add("input");
  // Any request but a GET may carry a body, parsed whether or not the route reads it.
  if (write) classes.add("body");
  if (f.security?.length) {
    classes.add("credential");
    if (f.scope) classes.add("scope");
    if (write) classes.add("credential-write");
    if (f.security.some((s) => "basic" in s)) classes.add("basic");
  }
  if (f.limitedByAddress) classes.add("address-limited");
  if (!f.noStore) classes.add("store");
  return classes;
}

/**
 * The problem types a route can answer, by status: every entry of the one table that the route
 * declares (its operation's `problems`) or that names a class of routes it belongs to, in the
 * table's order.
 */
export function kindsFor(declared: readonly ProblemType[], facts: RouteFacts): Map<string, Set<string>> {
  const classes = classesOf(facts);
  const kinds = new Map<string, Set<string>>();
  for (const [type, entry] of Object.entries(PROBLEMS) as [ProblemType, ProblemEntry][]) {
    if (!declared.includes(type) && !entry.classes.some((r) => classes.has(r))) continue;
    const set = kinds.get(String(entry.status)) ?? new Set();
    set.add(type);
    kinds.set(String(entry.status), set);
  }
  return kinds;
}

const PROBLEM_HEADERS: Record<string, string[]> = {
  "401": ["WWW-Authenticate"],
  "403": ["WWW-Authenticate"],
  "429": ["Retry-After"],
  "503": ["Retry-After"],
};

function headersOf(names: readonly string[] | undefined): Json | undefined {
  if (!names?.length) return undefined;
  return Object.fromEntries(names.map((n) => [n, HEADERS[n] ?? { schema: { type: "string" } }]));
}

export function problemResponse(status: string, kinds: string[], instance: string): Json {
  const problems: Record<string, ProblemEntry> = PROBLEMS;
  const types = kinds.map((k) => `/problems/${k}`);
  if (kinds.length === 0)
    return {
      description: STATUS_TEXT[status] ?? "Error",
      content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
    };
  const schema = {
    allOf: [
      { $ref: "#/components/schemas/Problem" },
      { type: "object", properties: { type: { enum: types }, status: { const: Number(status) } } },
    ],
  };
  const examples = Object.fromEntries(
    kinds.map((kind) => {
      const p = problems[kind] ?? { title: STATUS_TEXT[status] ?? "Error", example: "" };
      const value: Json = {
        type: `/problems/${kind}`,
        title: p.title,
        status: Number(status),
        detail: p.example,
        instance,
      };
      if (kind === "validation")
        value.errors = [
          { pointer: "/licenseNumber", message: "must be a license number string of 1 to 32 characters" },
        ];
      return [kind, { summary: p.title, value }];
    }),
  );
  const headers = headersOf(PROBLEM_HEADERS[status]);
  return {
    description: kinds.map((k) => problems[k]?.title ?? k).join("; "),
    ...(headers ? { headers } : {}),
    content: { "application/problem+json": { schema, examples } },
  };
}

/** A media type object with the schema lifted to components and an example for it. */
export function media(c: Components, schema: unknown): Json {
  const lifted = c.lift(isSchema(schema) ? toJsonSchema(schema) : {});
  const oneOf = c.resolve(lifted).oneOf;
  if (Array.isArray(oneOf) && oneOf.every((b) => typeof (b as Json).$ref === "string")) {
    const examples = Object.fromEntries(
      (oneOf as Json[]).map((b) => [String(b.$ref).split("/").pop(), { value: c.example(b) }]),
    );
    return { schema: lifted, examples };
  }
  return { schema: lifted, example: c.example(lifted) };
}

export function successResponse(c: Components, status: string, s: Success): Json {
  const headers = headersOf(s.headers);
  const out: Json = { description: s.description, ...(headers ? { headers } : {}) };
  if (s.schema !== undefined) {
    const schema = typeof s.schema === "string" ? { $ref: `#/components/schemas/${s.schema}` } : s.schema;
    const m = media(c, schema);
    if (s.examples) {
      delete m.example;
      m.examples = s.examples;
    }
    const types =
      typeof s.contentType === "string" ? [s.contentType] : (s.contentType ?? ["application/json"]);
    out.content = Object.fromEntries(types.map((type) => [type, m]));
  }
  return status === "204" || status === "304" ? { ...out, content: undefined } : out;
}

/** `detail.responses` as a route wrote it: TypeBox schemas inside, converted here. */
export function fromDetail(c: Components, r: Json): Json {
  const content = isSchema(r.content) ? r.content : undefined;
  if (!content) return r;
  return {
    ...r,
    content: Object.fromEntries(
      Object.entries(content).map(([type, m]) => [
        type,
        type.includes("json")
          ? media(c, (m as Json).schema)
          : // A binary body (a photo) keeps the words its contract gives as its example.
            {
              schema: toJsonSchema((m as Json).schema),
              ...("example" in (m as Json) ? { example: (m as Json).example } : {}),
            },
      ]),
    ),
  };
}
