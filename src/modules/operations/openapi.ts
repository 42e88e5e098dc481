/**
 * OpenAPI 3.1 from the composed app's own routes: the TypeBox schemas that validate a request
 * are the ones published, so the document cannot drift from the code. Auth comes from the auth
 * macro (it writes `security` and `x-scope` into each route's `detail`); a route's `detail` can
 * add or override any operation field (a oneOf body, extra responses, a description).
 */
import { type ApiContract, mergeContracts } from "../../platform/http/api-contract.ts";
import { declarationOf, isDeclarationMark, type ListedRoute } from "../../platform/http/route-declaration.ts";
import { TAGS } from "./contract.ts";
import { Components, isSchema, type Json, toJsonSchema } from "./json-schema.ts";
import {
  fromDetail,
  kindsFor,
  media,
  problemResponse,
  STATUS_TEXT,
  successResponse,
} from "./openapi-responses.ts";

export type RouteInfo = ListedRoute;

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

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

function parameters(
  where: "path" | "query" | "header",
  schema: unknown,
  pathParams: string[],
  examples: Record<string, unknown>,
): Json[] {
  const out: Json[] = [];
  const s = isSchema(schema) ? (toJsonSchema(schema) as Json) : undefined;
  const props = (s?.properties ?? {}) as Record<string, Json>;
  const required = new Set((s?.required as string[] | undefined) ?? []);
  const names = where === "path" ? [...new Set([...pathParams, ...Object.keys(props)])] : Object.keys(props);
  for (const name of names) {
    const p = asInteger(props[name] ?? { type: "string" });
    const param: Json = {
      name,
      in: where,
      required: where === "path" ? true : required.has(name),
      schema: p,
    };
    if (typeof p.description === "string") param.description = p.description;
    const example = (p.examples as unknown[] | undefined)?.[0] ?? asType(p, examples[name]);
    if (example !== undefined) param.example = example;
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

/**
 * Examples of the parameters whose name means the same wherever it occurs (an operation's
 * contract may give its own): the values the interface's examples use, so a generated suite
 * that sends them asks about the same lot, ticket and plate as the body examples.
 */
const PARAMETER_EXAMPLES: Record<string, unknown> = {
  id: "1",
  zone: "1234",
  ticketId: "100234",
  ticket_id: "100234",
  registration_number: "ABC123",
  camera_read: "ABC123",
  // UTC in the query string: a "+" there would have to be sent as %2B.
  start: "2026-06-15T08:00:00Z",
  end: "2026-06-15T10:00:00Z",
  from: "2026-05-31T22:00:00Z",
  to: "2026-06-30T22:00:00Z",
  // A cursor is what the previous page handed out; this one is only its shape.
  cursor: "MjAyNi0wNi0xNVQxMDo0MjowMC4wMDAwMDBafDQ3MTE",
  events_cursor: "NDcxMQ",
  limit: "50",
  events_limit: "100",
  active: true,
  dry_run: true,
  lots: "1",
  lot: "1",
  step: "60",
  subject: "lot",
  subject_id: "1",
  actor: "cli",
  credential: "token:handheld-1",
  status: "running",
  state: "active",
  totals: true,
  number: "1",
  attendant: "token:handheld-1",
  reason: "no-permit",
  code: "no-permit",
  by: "registration_number,verdict,offline_verdict",
  hash: "9f2c4e1a7b3d5f6081a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708",
  sort: "-id",
  group: "day",
  variant: "se",
  changes: "1",
  "If-None-Match": '"3f9a1c22"',
  "If-Match": '"3f9a1c22"',
  "X-CSRF-Token": "Zm9yIGV4YW1wbGUgb25seQ",
  "Last-Event-ID": "42",
};

/**
 * A parameter whose text the box reads as a whole number (integerText) is declared as that
 * integer, with its range: what a generated client sends and a contract tool checks.
 */
function asInteger(schema: Json): Json {
  const range = schema["x-integer"] as { minimum: number; maximum: number; multipleOf?: number } | undefined;
  if (!range) return schema;
  const { "x-integer": _, pattern: __, type: ___, ...rest } = schema;
  return {
    ...rest,
    type: "integer",
    minimum: range.minimum,
    maximum: range.maximum,
    ...(range.multipleOf ? { multipleOf: range.multipleOf } : {}),
  };
}

/** A shared example in the parameter's own type: the id "1" is 1 where the schema says integer. */
function asType(schema: Json, example: unknown): unknown {
  if ((schema.type === "integer" || schema.type === "number") && typeof example === "string")
    return Number(example);
  return example;
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
  const declared = declarationOf(route);
  const contract = declared.operation;

  const op: Json = { operationId: contract?.operationId ?? operationId(method, path) };
  if (typeof detail.summary === "string") op.summary = detail.summary;
  const security = detail.security as Json[] | undefined;
  const scope = typeof detail["x-scope"] === "string" ? (detail["x-scope"] as string) : undefined;
  const authNote = security?.length
    ? `Authentication: ${security.map((s) => Object.keys(s).join("+")).join(" or ")}${scope ? `, scope \`${scope}\`${scope === "admin" ? "" : " (or `admin`)"}` : ", any valid credential"}.`
    : "No authentication.";
  op.description = [contract?.description ?? detail.description, authNote].filter(Boolean).join("\n\n");
  op.security = security?.length ? security : [];

  const examples = { ...PARAMETER_EXAMPLES, ...contract?.examples };
  const parameterList = [
    ...parameters(
      "path",
      hooks.params,
      params.filter((p) => p !== "*"),
      examples,
    ),
    ...parameters("query", hooks.query, [], examples),
    ...(contract?.headers ?? []).map((h) => ({
      ...h,
      in: "header",
      required: false,
      schema: { type: "string" },
      example: examples[h.name],
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
  const limited = typeof detail["x-rate-limit"] === "string";
  const kinds = kindsFor(declared.problems, {
    method,
    hasInput: !!op.requestBody || hasInput,
    security,
    scope,
    noStore: !!contract?.noStore,
    limitedByAddress: limited,
  });
  for (const [status, list] of kinds) responses[status] = problemResponse(status, [...list], path);
  // Error statuses a route declares itself, beyond the known problem types.
  for (const status of [
    ...responseSchemas(hooks.response).keys(),
    ...Object.keys(isSchema(detail.responses) ? detail.responses : {}),
  ])
    if (Number(status) >= 400 && !responses[status]) responses[status] = problemResponse(status, [], path);

  for (const [k, v] of Object.entries(detail)) {
    if (
      ["hide", "x-scope", "responses", "description", "requestBody", "summary", "tags"].includes(k) ||
      isDeclarationMark(k)
    )
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

/** `contracts`: what each module says of its operations and shapes (api-contract.ts). */
export function buildOpenApi(
  routes: readonly RouteInfo[],
  info: DocumentInfo,
  contracts: readonly ApiContract[] = [],
): Json {
  const all = mergeContracts(...contracts);
  const components = new Components(all.named);
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const built = buildOperation(route, components);
    if (!built) continue;
    const item = paths[built.path] ?? {};
    paths[built.path] = item;
    if (!item[built.method]) item[built.method] = built.op;
  }
  // A shape its module gave no example of gets one built from its parts' examples, as its
  // operations' bodies do: a generated suite or mock server never falls back to placeholders.
  for (const schema of Object.values(components.schemas))
    if (schema.examples === undefined) schema.examples = [components.example(schema)];
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
