/**
 * What the domain, the services and the platform refuse: a `Problem` of a type in the one table
 * (problems.ts). The platform answers it (src/platform/http/problem.ts); nothing here does HTTP.
 */
import { PROBLEMS, type ProblemType } from "./problems.ts";

export type { ProblemType };

export interface FieldError {
  /** JSON pointer into the request body (or to the query/path parameter, see `in`). */
  pointer: string;
  message: string;
  in?: "body" | "query" | "params" | "headers";
}

/**
 * Every problem+json answer the box gives, whoever makes it: a rule, a service, the platform's
 * front end. One class, with its type from the one table (problems.ts) and the status and title
 * read from there, so nothing picks a status or a title twice and nothing tells refusals apart by
 * their words: a caller that must, branches on `type`.
 */
export class Problem extends Error {
  readonly status: number;
  readonly title: string;
  readonly errors?: FieldError[];
  /** Seconds to wait before trying again (the answer's Retry-After). */
  readonly retryAfterSeconds?: number;
  /** Other headers the answer carries (WWW-Authenticate, Allow). */
  readonly headers?: Readonly<Record<string, string>>;
  /** An extension member a client can branch on (RFC 9457 §3.2), e.g. why a session ended. */
  readonly reason?: string;

  constructor(
    readonly type: ProblemType,
    detail: string,
    extra: ProblemExtra = {},
  ) {
    super(detail);
    this.status = PROBLEMS[type].status;
    this.title = PROBLEMS[type].title;
    this.errors = extra.errors;
    this.retryAfterSeconds = extra.retryAfterSeconds;
    this.headers = extra.headers;
    this.reason = extra.reason;
  }
}

export interface ProblemExtra {
  errors?: FieldError[];
  retryAfterSeconds?: number;
  headers?: Readonly<Record<string, string>>;
  reason?: string;
}

/** The one summary of field errors: the field and its message when one failed, else a count. */
export function describeFieldErrors(errors: readonly FieldError[], what = "fields"): string {
  if (errors.length === 1) return `${errors[0]!.pointer || "the request"}: ${errors[0]!.message}`;
  return `${errors.length} ${what} failed validation`;
}

/** Keeps the first error for each pointer: a schema reports one per failed branch. */
export function firstPerPointer(errors: Iterable<FieldError>): FieldError[] {
  const seen = new Map<string, FieldError>();
  for (const e of errors) if (!seen.has(e.pointer)) seen.set(e.pointer, e);
  return [...seen.values()];
}

/** A problem of the table (problems.ts): the one way to make one. */
export function refuse(type: ProblemType, detail: string, extra: ProblemExtra = {}): Problem {
  return new Problem(type, detail, extra);
}

/** Failed validation: every failing field, with a summary that names it when there is one. */
export function invalid(errors: FieldError[], detail = describeFieldErrors(errors)): Problem {
  return refuse("validation", detail, { errors });
}

/** The record changed since the version the writer read: the write was not applied. */
export function stale(what: string, current: string): Problem {
  return refuse(
    "precondition-failed",
    `${what} was changed by someone else since the version named in If-Match was read; nothing was written. Its current ETag is ${current}`,
  );
}
