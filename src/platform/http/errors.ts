import type { ValueError } from "@sinclair/typebox/errors";
import { Elysia, type ValidationError } from "elysia";
import { logError } from "../log.ts";
import { asProblem, readJsonBody } from "./json-body.ts";
import { type FieldError, problems } from "./problem.ts";
import { metaOf } from "./request-meta.ts";
import { messageOf } from "./validation.ts";

const UNAVAILABLE = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|PERM|NOMEM)/;

/**
 * A store that cannot take a write (disk full, read-only, I/O error, locked) is the box's
 * trouble, not the client's: 503, and the failed transaction has changed nothing.
 */
export function isStoreUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && UNAVAILABLE.test(code);
}

/** TypeBox reports one error per failed branch; keep the first message for each pointer. */
export function fieldErrors(error: Readonly<ValidationError>): FieldError[] {
  const where = error.type as FieldError["in"];
  const seen = new Map<string, FieldError>();
  for (const e of error.all) {
    const pointer = "path" in e && typeof e.path === "string" ? e.path : "";
    if (seen.has(pointer)) continue;
    const message = "schema" in e && "type" in e ? messageOf(e as ValueError) : "Invalid value";
    const fe: FieldError = { pointer, message };
    if (where && where !== "body") fe.in = where;
    seen.set(pointer, fe);
  }
  return [...seen.values()];
}

/**
 * Body parsing and error mapping for the whole app: every failure leaves as problem+json,
 * and nothing internal (stack, SQL, paths) reaches the client.
 */
export const errorHandling = (opts: { bodyLimit: number }) =>
  new Elysia({ name: "error-handling", seed: opts })
    .onParse({ as: "global" }, ({ request }) => readJsonBody(request, opts.bodyLimit))
    .onError({ as: "global" }, ({ code, error, request, path }) => {
      const problem = asProblem(error);
      if (problem) return problem.toResponse(path);
      switch (code) {
        case "VALIDATION": {
          const errors = fieldErrors(error);
          const detail =
            errors.length === 1
              ? `${errors[0]!.pointer || "the request"}: ${errors[0]!.message}`
              : `${errors.length} fields failed validation`;
          return problems.validation(detail, errors).toResponse(path);
        }
        case "PARSE":
          return problems.malformedJson("The body could not be read as JSON").toResponse(path);
        case "NOT_FOUND":
          return problems.routeNotFound(request.method, path).toResponse(path);
        default: {
          if (isStoreUnavailable(error)) return problems.storeUnavailable().toResponse(path);
          const meta = metaOf(request);
          logError("unhandled error", error, { requestId: meta.id, route: meta.route ?? path });
          return problems.internal().toResponse(path);
        }
      }
    });
