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
  // An empty text field holds what the box keeps as no value (a permit's note).
  if ((mine === "" && theirs === null) || (mine === null && theirs === "")) return true;
  // Instants are compared as instants: the form writes milliseconds, the box answers microseconds.
  if (typeof mine === "string" && typeof theirs === "string" && ISO.test(mine) && ISO.test(theirs))
    return Date.parse(mine) === Date.parse(theirs);
  return mine === theirs;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

/** The fields of `mine` whose values differ from `other`'s. */
function differing(mine: Record<string, unknown>, other: Record<string, unknown>): string[] {
  return Object.keys(mine).filter((k) => !same(mine[k], other[k]));
}

/**
 * Three versions of one record: what the form was opened on (`base`), what it holds now (`mine`)
 * and what is stored now (`theirs`). Mine are the fields the operator changed, theirs the fields
 * someone else changed meanwhile, and both the fields changed on both sides to different values:
 * the only real conflict. A field both set to the same value is no conflict.
 */
export function threeWay(
  base: Record<string, unknown>,
  mine: Record<string, unknown>,
  theirs: Record<string, unknown>,
): { mine: string[]; theirs: string[]; both: string[] } {
  const changedByMe = differing(mine, base);
  const fields = Object.keys(mine);
  const changedByThem = fields.filter((k) => !same(theirs[k], base[k]));
  const both = changedByMe.filter((k) => changedByThem.includes(k) && !same(mine[k], theirs[k]));
  return {
    mine: changedByMe.filter((k) => !both.includes(k)),
    theirs: changedByThem.filter((k) => !both.includes(k)),
    both,
  };
}

/** The body of "save mine": only the fields the operator changed, as the form holds them. */
export function myChanges(
  base: Record<string, unknown>,
  mine: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(differing(mine, base).map((k) => [k, mine[k]]));
}

/** Field names as the form labels them (`labels`), the API's name where the form has no label. */
const named = (fields: string[], labels: Record<string, string>) =>
  fields.map((f) => labels[f] ?? f).join(", ");

/**
 * Someone else changed the record (a lot, a permit) since this form was opened: says so, names
 * the fields they changed, the ones the operator changed, and those both changed (the real
 * conflict), and leaves the form as the operator left it. They choose: open the stored version
 * (their edits are dropped), or save theirs into it: only the fields they changed are written, so
 * another's change to any other field stays.
 */
function conflictNotice(
  box: HTMLElement,
  sides: { mine: string[]; theirs: string[]; both: string[] },
  labels: Record<string, string>,
  choices: { useTheirs: () => void; keepMine: () => void; deleting?: boolean },
): void {
  const line = (key: "theirChanges" | "myChanges" | "bothChanged", fields: string[], id: string) =>
    fields.length > 0 ? h("p", { id }, t(key, { fields: named(fields, labels) })) : null;
  replace(
    box,
    h(
      "div",
      { class: "warning conflict", role: "alert", id: "conflict" },
      h("p", null, t(choices.deleting ? "changedBeforeDelete" : "changedElsewhere")),
      choices.deleting
        ? null
        : [
            line("theirChanges", sides.theirs, "conflict-theirs-fields"),
            line("myChanges", sides.mine, "conflict-mine-fields"),
            line("bothChanged", sides.both, "conflict-both-fields"),
          ],
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
 * retries against it (its ETag goes to `retry`): a save writes only the fields changed in the
 * form since `base`, the version it was opened on.
 */
export async function whenStale<T extends object>(
  box: HTMLElement,
  path: string,
  base: object | null,
  mine: Record<string, unknown>,
  deleting: boolean,
  labels: Record<string, string>,
  then: {
    reopen: (record: T, etag: string | null) => void;
    retry: (etag: string | null) => void;
    /** The stored record in the form's shape (the base is given in it). */
    normal?: (record: T) => object;
  },
): Promise<void> {
  const now = await versioned<{ data: T }>("GET", path);
  const theirs = (then.normal?.(now.data.data) ?? now.data.data) as Record<string, unknown>;
  conflictNotice(box, threeWay((base ?? {}) as Record<string, unknown>, mine, theirs), labels, {
    deleting,
    useTheirs: () => then.reopen(now.data.data, now.etag),
    keepMine: () => {
      replace(box);
      then.retry(now.etag);
    },
  });
}
