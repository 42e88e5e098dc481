import type { ValueError } from "@sinclair/typebox/errors";
import { Elysia, type ValidationError } from "elysia";
import { type FieldError, firstPerPointer, invalid } from "../../domain/errors.ts";
import { logError } from "../log.ts";
import { isStoreUnavailable } from "../store/db.ts";
import { type Problem, problemAnswer, problems } from "./problem.ts";
import { asProblem, type RawBodies, readJsonBody, readRawBody } from "./request-body.ts";
import { metaOf, type RequestMeta } from "./request-meta.ts";
import { messageOf } from "./validation.ts";

/** TypeBox reports one error per failed branch; keep the first message for each pointer. */
export function fieldErrors(error: Readonly<ValidationError>): FieldError[] {
  const where = error.type as FieldError["in"];
  return firstPerPointer(
    error.all.map((e) => {
      const pointer = "path" in e && typeof e.path === "string" ? e.path : "";
      const message = "schema" in e && "type" in e ? messageOf(e as ValueError) : "Invalid value";
      const fe: FieldError = { pointer, message };
      if (where && where !== "body") fe.in = where;
      return fe;
    }),
  );
}

/**
 * What every request goes through, whichever module answers it: the matched route template is
 * recorded for the log line and the metrics (in transform, before validation and auth, and again
 * on error, for a body that fails to parse), the body is parsed, and every failure leaves as
 * problem+json with nothing internal (stack, SQL, paths) in it. One plugin, so the recording can
 * never come after the answer.
 */
export const requestHandling = (opts: {
  bodyLimit: number;
  /** The template and methods of the route a path belongs to (routeMethods), for 405. */
  methodsOf?: (path: string) => { template: string; methods: string[] } | undefined;
  /** Routes whose body is raw bytes (photos), handed to them unparsed. */
  rawBodies?: RawBodies;
}) =>
  new Elysia({ name: "request-handling", seed: opts })
    .onTransform({ as: "global" }, ({ request, route }) => {
      if (route) metaOf(request).route = route;
    })
    .onParse({ as: "global" }, ({ request, route }) => {
      const raw = opts.rawBodies?.routeLimit(request.method, route);
      return raw === undefined ? readJsonBody(request, opts.bodyLimit) : readRawBody(request, raw);
    })
    .onError({ as: "global" }, ({ code, error, request, path, route }) => {
      const meta = metaOf(request);
      if (route) meta.route = route;
      const problem = answerFor(code, error, request, path, opts.methodsOf);
      noteReason(meta, problem, error);
      return problemAnswer(problem, path);
    });

/** A 5xx is always logged: its line says why (a full disk, a busy box, a fault). */
function noteReason(meta: RequestMeta, problem: Problem, error: unknown): void {
  if (problem.status >= 500)
    meta.reason =
      problem.type === "store-unavailable" && storeCode(error)
        ? `${problem.type}: ${storeCode(error)}`
        : problem.type === "internal"
          ? `internal: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`
          : `${problem.type}: ${problem.message}`;
}

/**
 * The problem a request whose handler failed is answered with, its 5xx reason noted for the log
 * line: what the app's error hook answers for an error thrown by a route, for the front end's
 * direct answers (direct.ts) whose work failed after it began.
 */
export function failedWith(error: unknown, meta: RequestMeta, route: string): Problem {
  const problem = asProblem(error) ?? unexpected(error, meta, route);
  noteReason(meta, problem, error);
  return problem;
}

/** A store that cannot answer is a 503; anything else a fault, logged with its stack. */
function unexpected(error: unknown, meta: RequestMeta, route: string): Problem {
  if (isStoreUnavailable(error)) return problems.storeUnavailable();
  logError("unhandled error", error, { requestId: meta.id, route });
  return problems.internal();
}

/** The SQLite code of a store failure (SQLITE_FULL, SQLITE_READONLY, ...), when it has one. */
function storeCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The problem a failed request is answered with; an unexpected error is logged with its stack. */
function answerFor(
  code: string | number,
  error: unknown,
  request: Request,
  path: string,
  methodsOf: ((path: string) => { template: string; methods: string[] } | undefined) | undefined,
): Problem {
  const problem = asProblem(error);
  if (problem) return problem;
  switch (code) {
    case "VALIDATION":
      return invalid(fieldErrors(error as ValidationError));
    case "PARSE":
      return problems.malformedJson("The body could not be read as JSON");
    case "NOT_FOUND": {
      const known = methodsOf?.(path);
      if (!known) return problems.routeNotFound(request.method, path);
      metaOf(request).route = known.template;
      return problems.methodNotAllowed(request.method, path, known.methods);
    }
    default: {
      const meta = metaOf(request);
      return unexpected(error, meta, meta.route ?? path);
    }
  }
}
