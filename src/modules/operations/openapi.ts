/**
 * OpenAPI 3.1 from the composed app's own routes: the TypeBox schemas that validate a request
 * are the ones published, so the document cannot drift from the code. Auth comes from the auth
 * macro (it writes `security` and `x-scope` into each route's `detail`); a route's `detail` can
 * add or override any operation field (a oneOf body, extra responses, a description).
 */
import { ProblemSchema } from "./model.ts";

export interface RouteInfo {
  method: string;
  path: string;
  hooks?: unknown;
}

type Json = Record<string, unknown>;

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

const STATUS_TEXT: Record<string, string> = {
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
  "429": "Too many failed authentications from this address (see Retry-After)",
  "500": "Internal error (logged; no internals in the answer)",
  "503": "The store is not writable; the request changed nothing",
};

export const SECURITY_SCHEMES = {
  bearer: {
    type: "http",
    scheme: "bearer",
    description: "A token from `parkd token create` (Authorization: Bearer <token>).",
  },
  basic: {
    type: "http",
    scheme: "basic",
    description: "A user from `parkd user create` (accepted on the ticket intake only).",
  },
};

/** TypeBox keeps its bookkeeping in symbol keys, which JSON drops; a few kinds need mapping. */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!schema || typeof schema !== "object") return schema;
  const s = schema as Json;
  // Elysia widens numeric params/query to "digits as a string, or a number": publish the number.
  if (Array.isArray(s.anyOf) && s.anyOf.length === 2) {
    const [a, b] = s.anyOf as Json[];
    const coerced = (x: Json | undefined) =>
      x?.type === "string" &&
      typeof x.format === "string" &&
      ["integer", "numeric", "boolean"].includes(x.format);
    if (coerced(a) && b && !coerced(b)) return toJsonSchema({ ...omit(s, "anyOf"), ...b });
    if (coerced(b) && a && !coerced(a)) return toJsonSchema({ ...omit(s, "anyOf"), ...a });
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) out[k] = toJsonSchema(v);
  switch (out.type) {
    case "Date":
      return { ...omit(out, "type"), type: "string", format: "date-time" };
    case "Uint8Array":
      return { ...omit(out, "type"), type: "string", contentEncoding: "base64" };
    case "undefined":
    case "void":
    case "function":
      return {};
    case "bigint":
      return { ...omit(out, "type"), type: "integer" };
  }
  return out;
}

function omit(o: Json, key: string): Json {
  const { [key]: _, ...rest } = o;
  return rest;
}

function isSchema(x: unknown): x is Json {
  return !!x && typeof x === "object" && !Array.isArray(x);
}

/** Several schemas that all apply (a guard's and the route's own): objects merge, others allOf. */
function allOf(schemas: Json[]): Json | undefined {
  if (schemas.length <= 1) return schemas[0];
  if (schemas.every((x) => x.type === "object" && isSchema(x.properties))) {
    const properties: Json = {};
    const required = new Set<string>();
    for (const x of schemas) {
      Object.assign(properties, x.properties);
      for (const r of (x.required as string[] | undefined) ?? []) required.add(r);
    }
    return { type: "object", properties, ...(required.size ? { required: [...required] } : {}) };
  }
  return { allOf: schemas };
}

type Slot = "body" | "query" | "params" | "headers" | "response";

/**
 * A route's schema for one slot: its own, plus those of enclosing guards, which Elysia 1.4
 * keeps apart in `standaloneValidator`.
 */
function slotSchema(hooks: Json, slot: Slot): unknown {
  const own = hooks[slot];
  const guards = Array.isArray(hooks.standaloneValidator)
    ? (hooks.standaloneValidator as Json[]).map((g) => g?.[slot]).filter(isSchema)
    : [];
  if (guards.length === 0) return own;
  if (slot === "response") {
    const merged = new Map<string, Json[]>();
    for (const r of [...guards, own])
      for (const [status, schema] of responseSchemas(r))
        merged.set(status, [...(merged.get(status) ?? []), schema]);
    return Object.fromEntries([...merged].map(([status, list]) => [status, allOf(list)]));
  }
  return allOf([...guards, ...(isSchema(own) ? [own] : [])]);
}

/** A response map keyed by status, or one schema that answers 200. */
function responseSchemas(response: unknown): Map<string, Json> {
  const out = new Map<string, Json>();
  if (!isSchema(response)) return out;
  const keys = Object.keys(response);
  if (keys.length > 0 && keys.every((k) => /^\d{3}$/.test(k))) {
    for (const k of keys) {
      const v = (response as Json)[k];
      if (isSchema(v)) out.set(k, v);
    }
  } else out.set("200", response);
  return out;
}

function problemResponse(status: string) {
  return {
    description: STATUS_TEXT[status] ?? "Error",
    content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
  };
}

function parameters(where: "path" | "query" | "header", schema: unknown, pathParams: string[]): Json[] {
  const out: Json[] = [];
  const s = isSchema(schema) ? (toJsonSchema(schema) as Json) : undefined;
  const props = (s?.properties ?? {}) as Record<string, Json>;
  const required = new Set((s?.required as string[] | undefined) ?? []);
  const names = where === "path" ? [...new Set([...pathParams, ...Object.keys(props)])] : Object.keys(props);
  for (const name of names) {
    const p = props[name] ?? { type: "string" };
    const param: Json = {
      name,
      in: where,
      required: where === "path" ? true : required.has(name),
      schema: p,
    };
    if (typeof p.description === "string") param.description = p.description;
    out.push(param);
  }
  return out;
}

export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path
    .split("/")
    .map((seg) => {
      if (seg.startsWith(":")) {
        const name = seg.slice(1).replace(/\?$/, "");
        params.push(name);
        return `{${name}}`;
      }
      if (seg === "*") {
        params.push("*");
        return "{*}";
      }
      return seg;
    })
    .join("/");
  return { path: converted, params };
}

function operationId(method: string, path: string): string {
  const words = path
    .split("/")
    .filter(Boolean)
    .map((w) =>
      w
        .replace(/[{}:*]/g, "")
        .replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase()),
    );
  return [method, ...words.map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))].join("");
}

function buildOperation(route: RouteInfo): { path: string; method: string; op: Json } | null {
  const method = route.method.toLowerCase();
  if (!METHODS.has(method)) return null;
  const raw = (isSchema(route.hooks) ? route.hooks : {}) as Json;
  const hooks: Json = { detail: raw.detail };
  for (const slot of ["body", "query", "params", "headers", "response"] as const)
    hooks[slot] = slotSchema(raw, slot);
  const detail = (isSchema(hooks.detail) ? hooks.detail : {}) as Json;
  if (detail.hide === true) return null;
  const { path, params } = openApiPath(route.path);

  const op: Json = { operationId: operationId(method, path) };
  const security = detail.security as Json[] | undefined;
  const scope = typeof detail["x-scope"] === "string" ? (detail["x-scope"] as string) : undefined;
  const authNote = security?.length
    ? `Authentication: ${security.map((s) => Object.keys(s).join("+")).join(" or ")}${scope ? `, scope \`${scope}\`${scope === "admin" ? "" : " (or `admin`)"}` : ", any valid credential"}.`
    : "No authentication.";
  op.description = [detail.description, authNote].filter(Boolean).join("\n\n");
  op.security = security?.length ? security : [];

  const parameterList = [
    ...parameters(
      "path",
      hooks.params,
      params.filter((p) => p !== "*"),
    ),
    ...parameters("query", hooks.query, []),
  ];
  if (parameterList.length) op.parameters = parameterList;

  const body = hooks.body;
  if (isSchema(body)) {
    op.requestBody = {
      required: true,
      content: { "application/json": { schema: toJsonSchema(body) } },
    };
  }

  const responses: Json = {};
  const declared = responseSchemas(hooks.response);
  for (const [status, schema] of declared) {
    const n = Number(status);
    if (n >= 400) responses[status] = problemResponse(status);
    else if (n === 204 || n === 304) responses[status] = { description: STATUS_TEXT[status] ?? "No content" };
    else
      responses[status] = {
        description: STATUS_TEXT[status] ?? "Success",
        content: { "application/json": { schema: toJsonSchema(schema) } },
      };
  }
  if (![...declared.keys()].some((s) => s.startsWith("2") || s.startsWith("3")))
    responses["200"] = { description: "Success" };
  const errors: string[] = [];
  if (isSchema(body) || isSchema(hooks.query) || isSchema(hooks.params) || params.length) errors.push("400");
  if (isSchema(body)) errors.push("413", "415");
  if (security?.length) errors.push("401", "403", "429");
  errors.push("500", "503");
  for (const status of errors) if (!(status in responses)) responses[status] = problemResponse(status);

  // The route's own detail wins; responses and parameters are merged rather than replaced.
  for (const [k, v] of Object.entries(detail)) {
    if (k === "hide" || k === "x-scope") continue;
    if (k === "responses" && isSchema(v)) Object.assign(responses, v);
    else if (k === "description") continue;
    else op[k] = v;
  }
  if (scope) op["x-scope"] = scope;
  op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  if (!op.tags) op.tags = [path.split("/").filter(Boolean)[0] === "api" ? "api" : "operations"];
  return { path, method, op };
}

export interface DocumentInfo {
  title: string;
  version: string;
  description?: string;
}

export function buildOpenApi(routes: readonly RouteInfo[], info: DocumentInfo): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const built = buildOperation(route);
    if (!built) continue;
    const item = paths[built.path] ?? {};
    paths[built.path] = item;
    if (!item[built.method]) item[built.method] = built.op;
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: "3.1.0",
    info,
    servers: [{ url: "/" }],
    paths: sorted,
    components: {
      schemas: { Problem: toJsonSchema(ProblemSchema) },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
