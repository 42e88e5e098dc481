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

/**
 * The problem types the platform answers itself, each status and title said once: the errors it
 * makes (below, the front end's, the origin check's) and the OpenAPI document
 * (api-contract.ts) read them here. The modules' own refusals are in their refusal tables
 * (RefusalTable, src/domain/errors.ts), with the kind that this file maps to a status.
 */
export const PLATFORM_CATALOG = {
  "malformed-json": { status: 400, title: "Malformed JSON", example: "The body is not valid JSON" },
  "invalid-encoding": {
    status: 400,
    title: "Body is not UTF-8",
    example: "The body is not valid UTF-8; send JSON in UTF-8",
  },
  unauthorized: {
    status: 401,
    title: "Authentication required",
    example: "The credentials are unknown, expired or revoked",
  },
  "insufficient-scope": {
    status: 403,
    title: "Insufficient scope",
    example: "This credential lacks the scope admin",
  },
  "cross-origin": {
    status: 403,
    title: "Cross-origin request refused",
    example:
      "Only the app's own pages may do this: the request's Origin or Sec-Fetch-Site names another site, port or scheme",
  },
  "not-found": { status: 404, title: "Not found", example: "No route for GET /api/v1/nothing" },
  "method-not-allowed": {
    status: 405,
    title: "Method not allowed",
    example: "/api/v1/parkings does not take PATCH; it takes GET, HEAD, POST",
  },
  "request-timeout": { status: 408, title: "Request timeout", example: "The request did not arrive in time" },
  "payload-too-large": {
    status: 413,
    title: "Payload too large",
    example: "The request body is larger than 65536 bytes",
  },
  "unsupported-media-type": {
    status: 415,
    title: "Unsupported media type",
    example: "The body must be JSON (Content-Type: application/json), not text/plain",
  },
  "expectation-failed": {
    status: 417,
    title: "Expectation failed",
    example: 'The expectation "200-ok" cannot be met; the only one served is 100-continue',
  },
  "misdirected-request": {
    status: 421,
    title: "Misdirected request",
    example: 'This server does not answer for the host "elsewhere.example" (see --allowed-hosts)',
  },
  "too-many-requests": {
    status: 429,
    title: "Too many failed authentications",
    example: "Too many failed authentications from this address; try again later",
  },
  "rate-limited": {
    status: 429,
    title: "Rate limit exceeded",
    example: "This credential sent more than 100 requests a second; try again in 1 s",
  },
  "malformed-request": {
    status: 400,
    title: "Malformed HTTP request",
    example: "The request is not valid HTTP/1.1: bad request line",
  },
  "request-target-not-utf8": {
    status: 400,
    title: "Request target not UTF-8",
    example: "The request target is not UTF-8",
  },
  "header-too-large": {
    status: 431,
    title: "Request header fields too large",
    example: "The request's header is larger than 16384 bytes",
  },
  internal: {
    status: 500,
    title: "Internal error",
    example: "The request could not be completed; the error has been logged",
  },
  "store-unavailable": {
    status: 503,
    title: "Store unavailable",
    example: "The store is not writable; the request changed nothing",
  },
  "too-many-connections": {
    status: 503,
    title: "Too many connections",
    example: "This address holds 64 open connections, the most it may",
  },
} as const satisfies Record<string, { status: number; title: string; example: string }>;

export type PlatformProblemKind = keyof typeof PLATFORM_CATALOG;

/** A problem of the platform's catalog: its status and title from there. */
export function problem(
  kind: PlatformProblemKind,
  detail: string,
  extra: { errors?: FieldError[]; headers?: Record<string, string>; reason?: string } = {},
): Problem {
  const { status, title } = PLATFORM_CATALOG[kind];
  return new Problem(status, kind, title, detail, extra);
}

export const REFUSAL_STATUS: Record<RefusalKind, number> = {
  invalid: 400,
  "not-found": 404,
  conflict: 409,
  stale: 412,
  forbidden: 403,
  "too-many": 429,
  busy: 503,
};

/** The one place a domain refusal becomes an HTTP status. */
export function problemOf(e: DomainError): Problem {
  return new Problem(REFUSAL_STATUS[e.kind], e.code, e.title, e.message, {
    errors: e.errors,
    headers: e.retryAfterSeconds === undefined ? undefined : { "retry-after": String(e.retryAfterSeconds) },
  });
}

export const problems = {
  malformedJson: (detail: string) => problem("malformed-json", detail),
  invalidEncoding: (detail: string) => problem("invalid-encoding", detail),
  unauthorized: (detail: string, challenge: string) =>
    problem("unauthorized", detail, { headers: { "www-authenticate": challenge } }),
  forbidden: (detail: string, scope: string) =>
    problem("insufficient-scope", detail, {
      headers: { "www-authenticate": `Bearer realm="parking", error="insufficient_scope", scope="${scope}"` },
    }),
  routeNotFound: (method: string, path: string) => problem("not-found", `No route for ${method} ${path}`),
  payloadTooLarge: (limit: number) =>
    problem("payload-too-large", `The request body is larger than ${limit} bytes`),
  unsupportedMediaType: (contentType: string) =>
    problem(
      "unsupported-media-type",
      `The body must be JSON (Content-Type: application/json), not ${contentType}`,
    ),
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    problem("method-not-allowed", `${path} does not take ${method}; it takes ${allowed.join(", ")}`, {
      headers: { allow: allowed.join(", ") },
    }),
  tooManyRequests: (retryAfterSeconds: number, detail: string) =>
    problem("too-many-requests", detail, { headers: { "retry-after": String(retryAfterSeconds) } }),
  rateLimited: (retryAfterSeconds: number, perSecond: number, who = "This credential") =>
    problem(
      "rate-limited",
      `${who} sent more than ${perSecond} requests a second; try again in ${retryAfterSeconds} s`,
      { headers: { "retry-after": String(retryAfterSeconds) } },
    ),
  storeUnavailable: (detail = "The store is not writable; the request changed nothing") =>
    problem("store-unavailable", detail, { headers: { "retry-after": "5" } }),
  internal: () => problem("internal", "The request could not be completed; the error has been logged"),
};
