import type { ProblemType } from "../../domain/problems.ts";

/**
 * What a route tells the OpenAPI document beyond the schemas that validate its requests (its
 * `operation` option, route-declaration.ts): its id and section, the success bodies of routes
 * that answer a ready Response, headers, and the problem types it answers beyond those of its
 * classes (src/domain/problems.ts); and what a module publishes by name, its shapes. Each module
 * keeps them next to its routes, and test/contract checks them against what the routes answer.
 */

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
  /** Success answers; replaces what the route declares for the same status. */
  ok?: Record<number, Success>;
  /** A route that never touches the store cannot answer 503. */
  noStore?: boolean;
  description?: string;
  requestBody?: Json;
  /** Request headers the route reads. */
  headers?: { name: string; description: string }[];
  /**
   * The problem types this route answers besides those every route of its classes answers (a
   * lot not found, a conflict): the document lists them under their statuses.
   */
  problems?: readonly ProblemType[];
}

export interface ApiContract {
  /** Shapes published by name in components.schemas (matched by content wherever they occur). */
  named?: Record<string, { schema: unknown; example?: unknown }>;
}

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

/** One contract from many; a shape named twice is a mistake. */
export function mergeContracts(...parts: ApiContract[]): Required<ApiContract> {
  const out: Required<ApiContract> = { named: {} };
  for (const part of parts) {
    for (const key of Object.keys(part.named ?? {}))
      if (out.named[key]) throw new Error(`shape ${key} is described twice`);
    Object.assign(out.named, part.named);
  }
  return out;
}
