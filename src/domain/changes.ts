/** The change history of operator writes: what one write did to one record, field by field. */

/** handheld: the attendant's page in a browser session (a notice issued on the street). */
export type ChangeVia = "api" | "console" | "cli" | "handheld";
export type ChangeSubject = "lot" | "permit" | "token" | "user" | "notice" | "notice_reason";
export type ChangeAction = "create" | "update" | "delete" | "revoke" | "issue" | "void";

/** Who writes: the credential label (`token:ops`, `user:anna`) or `cli`, and through what. */
export interface Actor {
  who: string;
  via: ChangeVia;
}

/** The command line: whoever can run parkd on the box. */
export const CLI_ACTOR: Actor = { who: "cli", via: "cli" };

export type Fields = Record<string, unknown>;

export interface Change {
  at: number;
  actor: string;
  via: ChangeVia;
  subject: ChangeSubject;
  subjectId: string;
  action: ChangeAction;
  before: Fields | null;
  after: Fields | null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields that differ between two versions of a record, as they were and as they became
 * (values compared whole, arrays included). A create has no before, a delete no after: the whole
 * record is on the other side. Null when nothing changed.
 */
export function fieldChanges(
  before: Fields | null,
  after: Fields | null,
): { before: Fields | null; after: Fields | null } | null {
  if (before === null || after === null) return { before, after };
  const was: Fields = {};
  const now: Fields = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (same(before[key], after[key])) continue;
    was[key] = before[key] ?? null;
    now[key] = after[key] ?? null;
  }
  return Object.keys(now).length ? { before: was, after: now } : null;
}
