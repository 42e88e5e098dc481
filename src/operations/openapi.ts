/**
 * OpenAPI 3.1 from the composed app's own routes: the TypeBox schemas that validate a request
 * are the ones published, so the document cannot drift from the code. Auth comes from the auth
 * macro (it writes `security` and `x-scope` into each route's `detail`); a route's `detail` can
 * add or override any operation field (a oneOf body, extra responses, a description).
 */
import {
  HEADERS,
  NAMED,
  OPERATIONS,
  type OperationContract,
  PROBLEMS,
  type Success,
  TAGS,
} from "./contract.ts";
import { Components, isSchema, type Json, toJsonSchema } from "./json-schema.ts";

export interface RouteInfo {
  method: string;
  path: string;
  hooks?: unknown;
}

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

/**
 * The problem types an operation can answer, by status. Any request but a GET may carry a body,
 * which is parsed (400 malformed-json, 415) whether or not the route reads it; the front end
 * refuses any body over the limit (413) before routing.
 */
function kindsFor(
  method: string,
  hasBodySchema: boolean,
  hasInput: boolean,
  security: Json[] | undefined,
  scope: string | undefined,
  contract: OperationContract | undefined,
) {
  const kinds = new Map<string, Set<string>>();
  const add = (status: number | string, ...list: string[]) => {
    const set = kinds.get(String(status)) ?? new Set();
    for (const k of list) set.add(k);
    kinds.set(String(status), set);
  };
  if (hasBodySchema || hasInput) add(400, "validation");
  if (method !== "get" && method !== "head") {
    add(400, "malformed-json");
    add(415, "unsupported-media-type");
  }
  add(413, "payload-too-large");
  if (security?.length) {
    add(401, "unauthorized");
    add(429, "too-many-requests");
    if (scope) add(403, "insufficient-scope");
  }
  for (const [status, list] of Object.entries(contract?.problems ?? {})) add(status, ...list);
  add(500, "internal");
  if (!contract?.noStore) add(503, "store-unavailable");
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

function problemResponse(status: string, kinds: string[], instance: string): Json {
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
      const p = PROBLEMS[kind] ?? {
        status: Number(status),
        title: STATUS_TEXT[status] ?? "Error",
        detail: "",
      };
      const value: Json = {
        type: `/problems/${kind}`,
        title: p.title,
        status: Number(status),
        detail: p.detail,
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
    description: kinds.map((k) => PROBLEMS[k]?.title ?? k).join("; "),
    ...(headers ? { headers } : {}),
    content: { "application/problem+json": { schema, examples } },
  };
}

/** A media type object with the schema lifted to components and an example for it. */
function media(c: Components, schema: unknown): Json {
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

function successResponse(c: Components, status: string, s: Success): Json {
  const headers = headersOf(s.headers);
  const out: Json = { description: s.description, ...(headers ? { headers } : {}) };
  if (s.schema !== undefined) {
    const schema = typeof s.schema === "string" ? { $ref: `#/components/schemas/${s.schema}` } : s.schema;
    out.content = { [s.contentType ?? "application/json"]: media(c, schema) };
  }
  return status === "204" || status === "304" ? { ...out, content: undefined } : out;
}

/** `detail.responses` as a route wrote it: TypeBox schemas inside, converted here. */
function fromDetail(c: Components, r: Json): Json {
  const content = isSchema(r.content) ? r.content : undefined;
  if (!content) return r;
  return {
    ...r,
    content: Object.fromEntries(
      Object.entries(content).map(([type, m]) => [
        type,
        type.includes("json") ? media(c, (m as Json).schema) : { schema: toJsonSchema((m as Json).schema) },
      ]),
    ),
  };
}

function buildOperation(route: RouteInfo, c: Components): { path: string; method: string; op: Json } | null {
  const method = route.method.toLowerCase();
  if (!METHODS.has(method)) return null;
  const raw = (isSchema(route.hooks) ? route.hooks : {}) as Json;
  const hooks: Json = { detail: raw.detail };
  for (const slot of ["body", "query", "params", "headers", "response"] as const)
    hooks[slot] = slotSchema(raw, slot);
  const detail = (isSchema(hooks.detail) ? hooks.detail : {}) as Json;
  if (detail.hide === true) return null;
  const { path, params } = openApiPath(route.path);
  const contract = OPERATIONS[`${route.method.toUpperCase()} ${route.path}`];

  const op: Json = { operationId: operationId(method, path) };
  if (typeof detail.summary === "string") op.summary = detail.summary;
  const security = detail.security as Json[] | undefined;
  const scope = typeof detail["x-scope"] === "string" ? (detail["x-scope"] as string) : undefined;
  const authNote = security?.length
    ? `Authentication: ${security.map((s) => Object.keys(s).join("+")).join(" or ")}${scope ? `, scope \`${scope}\`${scope === "admin" ? "" : " (or `admin`)"}` : ", any valid credential"}.`
    : "No authentication.";
  op.description = [contract?.description ?? detail.description, authNote].filter(Boolean).join("\n\n");
  op.security = security?.length ? security : [];

  const parameterList = [
    ...parameters(
      "path",
      hooks.params,
      params.filter((p) => p !== "*"),
    ),
    ...parameters("query", hooks.query, []),
    ...(contract?.headers ?? []).map((h) => ({
      ...h,
      in: "header",
      required: false,
      schema: { type: "string" },
    })),
  ];
  if (parameterList.length) op.parameters = parameterList;

  const detailBody = isSchema(detail.requestBody) ? (detail.requestBody as Json) : undefined;
  const body = contract?.requestBody ?? detailBody;
  if (body) op.requestBody = fromDetail(c, { required: true, ...body });
  else if (isSchema(hooks.body))
    op.requestBody = { required: true, content: { "application/json": media(c, hooks.body) } };

  const responses: Json = {};
  for (const [status, schema] of responseSchemas(hooks.response))
    if (Number(status) < 400)
      responses[status] =
        status === "204" || status === "304"
          ? { description: STATUS_TEXT[status] }
          : {
              description: STATUS_TEXT[status] ?? "Success",
              content: { "application/json": media(c, schema) },
            };
  for (const [status, r] of Object.entries(isSchema(detail.responses) ? detail.responses : {}))
    if (Number(status) < 400 && isSchema(r)) responses[status] = fromDetail(c, r);
  for (const [status, s] of Object.entries(contract?.ok ?? {}))
    responses[status] = successResponse(c, status, s);
  if (!Object.keys(responses).some((s) => s < "400")) responses["200"] = { description: "Success" };
  const hasInput = isSchema(hooks.query) || isSchema(hooks.params) || params.length > 0;
  const kinds = kindsFor(method, !!op.requestBody, hasInput, security, scope, contract);
  for (const [status, list] of kinds) responses[status] = problemResponse(status, [...list], path);
  // Error statuses a route declares itself, beyond the known problem types.
  for (const status of [
    ...responseSchemas(hooks.response).keys(),
    ...Object.keys(isSchema(detail.responses) ? detail.responses : {}),
  ])
    if (Number(status) >= 400 && !responses[status]) responses[status] = problemResponse(status, [], path);

  for (const [k, v] of Object.entries(detail)) {
    if (["hide", "x-scope", "responses", "description", "requestBody", "summary", "tags"].includes(k))
      continue;
    op[k] = v;
  }
  if (scope) op["x-scope"] = scope;
  op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  const tag = contract?.tag ?? (detail.tags as string[] | undefined)?.[0];
  op.tags = [tag ?? (path.split("/").filter(Boolean)[0] === "api" ? "api" : "operations")];
  return { path, method, op };
}

export interface DocumentInfo {
  title: string;
  version: string;
  description?: string;
}

export function buildOpenApi(routes: readonly RouteInfo[], info: DocumentInfo): Json {
  const components = new Components(NAMED);
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const built = buildOperation(route, components);
    if (!built) continue;
    const item = paths[built.path] ?? {};
    paths[built.path] = item;
    if (!item[built.method]) item[built.method] = built.op;
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const used = new Set<string>(TAGS.map((t) => t.name));
  const extraTags = Object.values(paths)
    .flatMap((item) => Object.values(item).map((op) => ((op as Json).tags as string[])[0]!))
    .filter((t) => !used.has(t) && used.add(t));
  return {
    openapi: "3.1.0",
    info,
    servers: [{ url: "/" }],
    tags: [...TAGS, ...extraTags.map((name) => ({ name, description: name }))],
    paths: sorted,
    components: { schemas: components.schemas, securitySchemes: SECURITY_SCHEMES },
  };
}
