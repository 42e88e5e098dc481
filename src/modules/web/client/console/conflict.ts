import { ApiError, versioned } from "../api.ts";
import { h, replace } from "../dom.ts";
import { t } from "../i18n.ts";

/** The write was refused because the record changed since the form was opened (412). */
export function isStale(e: unknown): boolean {
  return e instanceof ApiError && e.status === 412;
}

/** Whether what the form holds reads the same as what is stored (fields the form lacks aside). */
function same(mine: unknown, theirs: unknown): boolean {
  if (Array.isArray(mine))
    return Array.isArray(theirs) && mine.length === theirs.length && mine.every((m, i) => same(m, theirs[i]));
  if (mine !== null && typeof mine === "object") {
    if (theirs === null || typeof theirs !== "object") return false;
    const t = theirs as Record<string, unknown>;
    return Object.entries(mine).every(([k, v]) => same(v, t[k]));
  }
  // Instants are compared as instants: the form writes milliseconds, the box answers microseconds.
  if (typeof mine === "string" && typeof theirs === "string" && ISO.test(mine) && ISO.test(theirs))
    return Date.parse(mine) === Date.parse(theirs);
  return mine === theirs;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

/** The fields whose values differ between what the form holds and the record as stored now. */
function differing(mine: Record<string, unknown>, stored: Record<string, unknown>): string[] {
  return Object.keys(mine).filter((k) => !same(mine[k], stored[k]));
}

/**
 * Someone else changed the record (a lot, a permit) since this form was opened: says so, names
 * the fields where the form and the stored record now differ, and leaves the form as the operator
 * left it. They choose: open the stored version (their edits are dropped), or save theirs over it.
 */
function conflictNotice(
  box: HTMLElement,
  mine: Record<string, unknown>,
  theirs: object,
  choices: { useTheirs: () => void; keepMine: () => void; deleting?: boolean },
): void {
  const fields = differing(mine, theirs as Record<string, unknown>);
  replace(
    box,
    h(
      "div",
      { class: "warning conflict", role: "alert", id: "conflict" },
      h("p", null, t(choices.deleting ? "changedBeforeDelete" : "changedElsewhere")),
      fields.length > 0 && !choices.deleting
        ? h("p", null, t("changedFields", { fields: fields.join(", ") }))
        : null,
      h(
        "div",
        { class: "toolbar" },
        h("button", { type: "button", id: "conflict-theirs", onclick: choices.useTheirs }, t("useTheirs")),
        h(
          "button",
          { type: "button", id: "conflict-mine", onclick: choices.keepMine },
          t(choices.deleting ? "deleteAnyway" : "keepMine"),
        ),
      ),
    ),
  );
}

/**
 * A save or delete was refused as stale (412): reads the record at `path` as stored now and shows
 * the notice. "Open theirs" reopens the form on that version; "keep mine" clears the notice and
 * retries against it (its ETag goes to `retry`).
 */
export async function whenStale<T extends object>(
  box: HTMLElement,
  path: string,
  mine: Record<string, unknown>,
  deleting: boolean,
  then: { reopen: (record: T, etag: string | null) => void; retry: (etag: string | null) => void },
): Promise<void> {
  const now = await versioned<{ data: T }>("GET", path);
  conflictNotice(box, mine, now.data.data, {
    deleting,
    useTheirs: () => then.reopen(now.data.data, now.etag),
    keepMine: () => {
      replace(box);
      then.retry(now.etag);
    },
  });
}
