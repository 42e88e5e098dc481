/**
 * What a module tells the OpenAPI document beyond the schemas that validate its requests: per
 * operation (`"METHOD /path/:param"`), its section, the success bodies of routes that answer a
 * ready Response, headers; and the shapes it publishes by name. The problem types an operation
 * answers are not here: each entry of the one table (src/domain/problems.ts) names its routes.
 * Each module keeps its own next to its routes; the composition root hands them all to the
 * operations module, and test/contract checks them against what the routes really answer.
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
}

export interface ApiContract {
  /** Shapes published by name in components.schemas (matched by content wherever they occur). */
  named?: Record<string, { schema: unknown; example?: unknown }>;
  operations?: Record<string, OperationContract>;
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

/** One contract from many; an operation or shape named twice is a mistake. */
export function mergeContracts(...parts: ApiContract[]): Required<ApiContract> {
  const out: Required<ApiContract> = { named: {}, operations: {} };
  for (const part of parts) {
    for (const key of Object.keys(part.operations ?? {}))
      if (out.operations[key]) throw new Error(`operation ${key} is described twice`);
    for (const key of Object.keys(part.named ?? {}))
      if (out.named[key]) throw new Error(`shape ${key} is described twice`);
    Object.assign(out.named, part.named);
    Object.assign(out.operations, part.operations);
  }
  return out;
}
