/**
 * RFC 9457 problem details. Every error the service answers is one of these, with a stable
 * `type` per kind so clients can branch on it without parsing prose.
 */

import type { DomainError, FieldError, RefusalKind } from "../../domain/errors.ts";

export type { FieldError };

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

export function problemType(kind: string): string {
  return `/problems/${kind}`;
}

export class Problem extends Error {
  readonly status: number;
  readonly kind: string;
  readonly title: string;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;
  readonly reason?: string;

  constructor(
    status: number,
    kind: string,
    title: string,
    detail: string,
    extra: { errors?: FieldError[]; headers?: Record<string, string>; reason?: string } = {},
  ) {
    super(detail);
    this.status = status;
    this.kind = kind;
    this.title = title;
    this.errors = extra.errors;
    this.headers = extra.headers;
    this.reason = extra.reason;
  }

  body(instance?: string): ProblemBody {
    const body: ProblemBody = {
      type: problemType(this.kind),
      title: this.title,
      status: this.status,
      detail: this.message,
    };
    if (instance) body.instance = instance;
    if (this.errors?.length) body.errors = this.errors;
    if (this.reason) body.reason = this.reason;
    return body;
  }

  toResponse(instance?: string): Response {
    return new Response(JSON.stringify(this.body(instance)), {
      status: this.status,
      headers: { "content-type": PROBLEM_CONTENT_TYPE, ...this.headers },
    });
  }
}

const REFUSAL_STATUS: Record<RefusalKind, number> = {
  invalid: 400,
  "not-found": 404,
  conflict: 409,
  stale: 412,
  forbidden: 403,
  "too-many": 429,
};

/** The one place a domain refusal becomes an HTTP status. */
export function problemOf(e: DomainError): Problem {
  return new Problem(REFUSAL_STATUS[e.kind], e.code, e.title, e.message, {
    errors: e.errors,
    headers: e.retryAfterSeconds === undefined ? undefined : { "retry-after": String(e.retryAfterSeconds) },
  });
}

export const problems = {
  malformedJson: (detail: string) => new Problem(400, "malformed-json", "Malformed JSON", detail),
  invalidEncoding: (detail: string) => new Problem(400, "invalid-encoding", "Body is not UTF-8", detail),
  unauthorized: (detail: string, challenge: string) =>
    new Problem(401, "unauthorized", "Authentication required", detail, {
      headers: { "www-authenticate": challenge },
    }),
  forbidden: (detail: string, scope: string) =>
    new Problem(403, "insufficient-scope", "Insufficient scope", detail, {
      headers: { "www-authenticate": `Bearer realm="parking", error="insufficient_scope", scope="${scope}"` },
    }),
  routeNotFound: (method: string, path: string) =>
    new Problem(404, "not-found", "Not found", `No route for ${method} ${path}`),
  payloadTooLarge: (limit: number) =>
    new Problem(
      413,
      "payload-too-large",
      "Payload too large",
      `The request body is larger than ${limit} bytes`,
    ),
  unsupportedMediaType: (contentType: string) =>
    new Problem(
      415,
      "unsupported-media-type",
      "Unsupported media type",
      `The body must be JSON (Content-Type: application/json), not ${contentType}`,
    ),
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    new Problem(
      405,
      "method-not-allowed",
      "Method not allowed",
      `${path} does not take ${method}; it takes ${allowed.join(", ")}`,
      { headers: { allow: allowed.join(", ") } },
    ),
  tooManyRequests: (retryAfterSeconds: number, detail: string) =>
    new Problem(429, "too-many-requests", "Too many failed authentications", detail, {
      headers: { "retry-after": String(retryAfterSeconds) },
    }),
  rateLimited: (retryAfterSeconds: number, perSecond: number, who = "This credential") =>
    new Problem(
      429,
      "rate-limited",
      "Rate limit exceeded",
      `${who} sent more than ${perSecond} requests a second; try again in ${retryAfterSeconds} s`,
      { headers: { "retry-after": String(retryAfterSeconds) } },
    ),
  storeUnavailable: (detail = "The store is not writable; the request changed nothing") =>
    new Problem(503, "store-unavailable", "Store unavailable", detail, { headers: { "retry-after": "5" } }),
  internal: () =>
    new Problem(
      500,
      "internal",
      "Internal error",
      "The request could not be completed; the error has been logged",
    ),
};
