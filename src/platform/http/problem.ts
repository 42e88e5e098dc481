/**
 * RFC 9457 problem details: how a `Problem` (src/domain/errors.ts), of a type in the one table
 * (src/domain/problems.ts), is answered. Its stable `type` lets clients branch without parsing prose.
 */

import { type FieldError, Problem, refuse } from "../../domain/errors.ts";
import { problemTypeUri } from "../../domain/problems.ts";

export { type FieldError, Problem };

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: FieldError[];
  /** An extension member a client can branch on (RFC 9457 §3.2), e.g. why a session ended. */
  reason?: string;
}

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** The answer's body: the type, status and title from the one table, the detail the maker wrote. */
export function problemBody(problem: Problem, instance?: string): ProblemBody {
  const body: ProblemBody = {
    type: problemTypeUri(problem.type),
    title: problem.title,
    status: problem.status,
    detail: problem.message,
  };
  if (instance) body.instance = instance;
  if (problem.errors?.length) body.errors = problem.errors;
  if (problem.reason) body.reason = problem.reason;
  return body;
}

/** The headers the answer carries besides its content type. */
export function problemHeaders(problem: Problem): Record<string, string> {
  return problem.retryAfterSeconds === undefined
    ? { ...problem.headers }
    : { ...problem.headers, "retry-after": String(problem.retryAfterSeconds) };
}

/** A problem as an answer's parts: its status, content type, body text and other headers. */
export interface ProblemContent {
  status: number;
  contentType: string;
  body: string;
  headers: Record<string, string>;
}

export function problemContent(problem: Problem, instance?: string): ProblemContent {
  return {
    status: problem.status,
    contentType: PROBLEM_CONTENT_TYPE,
    body: JSON.stringify(problemBody(problem, instance)),
    headers: problemHeaders(problem),
  };
}

/** The one place a problem, whoever made it, becomes an HTTP answer. */
export function problemAnswer(problem: Problem, instance?: string): Response {
  const { status, contentType, body, headers } = problemContent(problem, instance);
  return new Response(body, { status, headers: { "content-type": contentType, ...headers } });
}

/** The platform's own problems, with the headers each carries. */
export const problems = {
  malformedJson: (detail: string) => refuse("malformed-json", detail),
  invalidEncoding: (detail: string) => refuse("invalid-encoding", detail),
  unauthorized: (detail: string, challenge: string) =>
    refuse("unauthorized", detail, { headers: { "www-authenticate": challenge } }),
  forbidden: (detail: string, scope: string) =>
    refuse("insufficient-scope", detail, {
      headers: { "www-authenticate": `Bearer realm="parking", error="insufficient_scope", scope="${scope}"` },
    }),
  routeNotFound: (method: string, path: string) => refuse("not-found", `No route for ${method} ${path}`),
  payloadTooLarge: (limit: number) =>
    refuse("payload-too-large", `The request body is larger than ${limit} bytes`),
  unsupportedMediaType: (contentType: string) =>
    refuse(
      "unsupported-media-type",
      `The body must be JSON (Content-Type: application/json), not ${contentType}`,
    ),
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    refuse("method-not-allowed", `${path} does not take ${method}; it takes ${allowed.join(", ")}`, {
      headers: { allow: allowed.join(", ") },
    }),
  tooManyRequests: (retryAfterSeconds: number, detail: string) =>
    refuse("too-many-requests", detail, { retryAfterSeconds }),
  rateLimited: (retryAfterSeconds: number, perSecond: number, who = "This credential") =>
    refuse(
      "rate-limited",
      `${who} sent more than ${perSecond} requests a second; try again in ${retryAfterSeconds} s`,
      { retryAfterSeconds },
    ),
  storeUnavailable: (detail = "The store is not writable; the request changed nothing") =>
    refuse("store-unavailable", detail, { retryAfterSeconds: 5 }),
  internal: () => refuse("internal", "The request could not be completed; the error has been logged"),
};
