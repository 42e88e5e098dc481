/**
 * What a module tells the OpenAPI document beyond the schemas that validate its requests: per
 * operation (`"METHOD /path/:param"`), its section, the problem types it can answer, the success
 * bodies of routes that answer a ready Response, headers; and the shapes it publishes by name.
 * Each module keeps its own next to its routes; the composition root hands them all to the
 * operations module, and test/contract checks them against what the routes really answer.
 */

import { COMMON_REFUSALS, type RefusalTable } from "../../domain/errors.ts";
import { PLATFORM_CATALOG, type PlatformProblemKind, REFUSAL_STATUS } from "./problem.ts";

type Json = Record<string, unknown>;

export interface Success {
  description: string;
  /** A schema, or the name of a component. */
  schema?: Json | string;
  /** The media type of the body (application/json unless given), or each it may be. */
  contentType?: string | readonly string[];
  /** Response header names (see HEADERS). */
  headers?: string[];
  /** Named examples of the body; without them, the named shape's one example. */
  examples?: Record<string, { summary: string; value: unknown }>;
}

export interface OperationContract {
  /** What the operation does, as a generated client names its method (`checkTickets`). */
  operationId: string;
  /** Section of the reference (the document's tag). */
  tag: string;
  /**
   * An example value per parameter (path, query or header) that the schema's own `examples` do
   * not give: what a generated test suite sends, so it must be one the box accepts.
   */
  examples?: Record<string, unknown>;
  /** Problem types by status, besides those every route of its kind answers (validation, auth, 5xx). */
  problems?: Record<number, string[]>;
  /** Success answers; replaces what the route declares for the same status. */
  ok?: Record<number, Success>;
  /** A route that never touches the store cannot answer 503. */
  noStore?: boolean;
  description?: string;
  requestBody?: Json;
  /** Request headers the route reads. */
  headers?: { name: string; description: string }[];
}

export interface ProblemInfo {
  status: number;
  title: string;
  /** A typical detail, for the examples. */
  detail: string;
}

export interface ApiContract {
  /** Shapes published by name in components.schemas (matched by content wherever they occur). */
  named?: Record<string, { schema: unknown; example?: unknown }>;
  operations?: Record<string, OperationContract>;
  problems?: Record<string, ProblemInfo>;
}

/** A refusal table (src/domain/errors.ts) as the document describes it: its kinds mapped to statuses. */
export function problemInfos(table: RefusalTable): Record<string, ProblemInfo> {
  return Object.fromEntries(
    Object.entries(table).map(([code, r]) => [
      code,
      { status: REFUSAL_STATUS[r.kind], title: r.title, detail: r.example },
    ]),
  );
}

const fromCatalog = (...kinds: PlatformProblemKind[]): Record<string, ProblemInfo> =>
  Object.fromEntries(
    kinds.map((k) => [
      k,
      {
        status: PLATFORM_CATALOG[k].status,
        title: PLATFORM_CATALOG[k].title,
        detail: PLATFORM_CATALOG[k].example,
      },
    ]),
  );

/**
 * The problem types every route may answer, from the platform's catalog (problem.ts) and the
 * refusals every module makes (validation, stale writes); the front end's own answers (a broken
 * request, a timeout, a wrong Host) come before any route and are not in the document.
 */
export const PLATFORM_PROBLEMS: Record<string, ProblemInfo> = {
  ...problemInfos(COMMON_REFUSALS),
  ...fromCatalog(
    "malformed-json",
    "invalid-encoding",
    "unauthorized",
    "insufficient-scope",
    "cross-origin",
    "payload-too-large",
    "unsupported-media-type",
    "too-many-requests",
    "rate-limited",
    "internal",
    "store-unavailable",
  ),
};

/** Response headers by name. */
export const HEADERS: Record<string, Json> = {
  ETag: {
    description: "Version of this answer, for If-None-Match (and If-Match on writes)",
    schema: { type: "string" },
  },
  Location: { description: "Path of the created resource", schema: { type: "string" } },
  "Retry-After": { description: "Seconds to wait before trying again", schema: { type: "integer" } },
  "WWW-Authenticate": {
    description: "The accepted schemes (and the missing scope on 403)",
    schema: { type: "string" },
  },
};

export const IF_NONE_MATCH = [
  { name: "If-None-Match", description: "An ETag from an earlier answer: 304 when unchanged" },
];
export const NOT_MODIFIED: Success = {
  description: "Unchanged since the ETag sent in If-None-Match",
  headers: ["ETag"],
};

/** One contract from many; an operation or shape named twice is a mistake. */
export function mergeContracts(...parts: ApiContract[]): Required<ApiContract> {
  const out: Required<ApiContract> = { named: {}, operations: {}, problems: { ...PLATFORM_PROBLEMS } };
  for (const part of parts) {
    for (const key of Object.keys(part.operations ?? {}))
      if (out.operations[key]) throw new Error(`operation ${key} is described twice`);
    for (const key of Object.keys(part.named ?? {}))
      if (out.named[key]) throw new Error(`shape ${key} is described twice`);
    // One title and status per problem type: a second description would silently win.
    for (const key of Object.keys(part.problems ?? {}))
      if (out.problems[key]) throw new Error(`problem type ${key} is described twice`);
    Object.assign(out.named, part.named);
    Object.assign(out.operations, part.operations);
    Object.assign(out.problems, part.problems);
  }
  return out;
}
