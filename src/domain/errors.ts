/**
 * What the domain and the services refuse, said without HTTP: the platform maps each kind to a
 * status in one place (src/platform/http/errors.ts), so a rule never picks a status code.
 */

export interface FieldError {
  /** JSON pointer into the request body (or to the query/path parameter, see `in`). */
  pointer: string;
  message: string;
  in?: "body" | "query" | "params" | "headers";
}

/**
 * invalid: the request says something impossible; not-found: it names nothing we have; conflict:
 * it contradicts what we store; stale: it was made against a version of a record that has since
 * changed (a write with If-Match naming an older version); forbidden: it may not be made this way
 * (a browser write without its session's proof); too-many: the asker holds as much as it may
 * (it may try again after `retryAfterSeconds`).
 */
export type RefusalKind = "invalid" | "not-found" | "conflict" | "stale" | "forbidden" | "too-many";

export class DomainError extends Error {
  constructor(
    readonly kind: RefusalKind,
    /** Stable name of the refusal, e.g. "ticket-not-found"; clients branch on it. */
    readonly code: string,
    readonly title: string,
    detail: string,
    readonly errors?: FieldError[],
    readonly retryAfterSeconds?: number,
  ) {
    super(detail);
  }
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

/** Failed validation: every failing field, with a summary that names it when there is one. */
export function invalid(errors: FieldError[], detail = describeFieldErrors(errors)): DomainError {
  return new DomainError("invalid", "validation", "Request failed validation", detail, errors);
}

export function notFound(code: string, title: string, detail: string): DomainError {
  return new DomainError("not-found", code, title, detail);
}

export function forbidden(code: string, title: string, detail: string): DomainError {
  return new DomainError("forbidden", code, title, detail);
}

export function tooMany(code: string, title: string, detail: string, retryAfterSeconds: number): DomainError {
  return new DomainError("too-many", code, title, detail, undefined, retryAfterSeconds);
}

export function conflict(code: string, title: string, detail: string): DomainError {
  return new DomainError("conflict", code, title, detail);
}

/** The record changed since the version the writer read: the write was not applied. */
export function stale(what: string, current: string): DomainError {
  return new DomainError(
    "stale",
    "precondition-failed",
    "Changed since it was read",
    `${what} was changed by someone else since the version named in If-Match was read; nothing was written. Its current ETag is ${current}`,
  );
}
