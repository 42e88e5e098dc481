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
 * (it may try again after `retryAfterSeconds`); busy: the box takes no more of this work now,
 * whoever asks (try again after `retryAfterSeconds`).
 */
export type RefusalKind = "invalid" | "not-found" | "conflict" | "stale" | "forbidden" | "too-many" | "busy";

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

/**
 * What one kind of refusal is, said once: its kind (the platform maps each kind to a status),
 * its title, and a typical detail for the API document. A table of them is a module's (or a
 * rule's) part of the one problem catalog: the errors it throws and the document read it.
 */
export interface RefusalInfo {
  kind: RefusalKind;
  title: string;
  example: string;
}

export type RefusalTable = Readonly<Record<string, RefusalInfo>>;

/** A refusal named in `table`: its kind and title come from the table. */
export function refuse<T extends RefusalTable>(
  table: T,
  code: keyof T & string,
  detail: string,
  extra: { errors?: FieldError[]; retryAfterSeconds?: number } = {},
): DomainError {
  const info = table[code]!;
  return new DomainError(info.kind, code, info.title, detail, extra.errors, extra.retryAfterSeconds);
}

/** The refusals every module makes: a request that fails validation, a write against an old version. */
export const COMMON_REFUSALS = {
  validation: {
    kind: "invalid",
    title: "Request failed validation",
    example: "/licenseNumber: must be a license number string of 1 to 32 characters",
  },
  "precondition-failed": {
    kind: "stale",
    title: "Changed since it was read",
    example:
      'Parking lot 12 was changed by someone else since the version named in If-Match was read; nothing was written. Its current ETag is "1x2y3z"',
  },
} as const satisfies RefusalTable;

/** Failed validation: every failing field, with a summary that names it when there is one. */
export function invalid(errors: FieldError[], detail = describeFieldErrors(errors)): DomainError {
  return refuse(COMMON_REFUSALS, "validation", detail, { errors });
}

/** The record changed since the version the writer read: the write was not applied. */
export function stale(what: string, current: string): DomainError {
  return refuse(
    COMMON_REFUSALS,
    "precondition-failed",
    `${what} was changed by someone else since the version named in If-Match was read; nothing was written. Its current ETag is ${current}`,
  );
}
