import { ApiError } from "../api.ts";
import { h, replace } from "../dom.ts";
import { t } from "../i18n.ts";
import type { Lot } from "./lot-shapes.ts";

/** The write was refused because the lot changed since the form was opened (412). */
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
  return mine === theirs;
}

/** The fields whose values differ between what the form holds and the lot as stored now. */
function differing(mine: Record<string, unknown>, theirs: Lot): string[] {
  const stored = theirs as unknown as Record<string, unknown>;
  return Object.keys(mine).filter((k) => !same(mine[k], stored[k]));
}

/**
 * Someone else changed the lot since this form was opened: says so, names the fields where the
 * form and the stored lot now differ, and leaves the form as the operator left it. They choose:
 * open the stored version (their edits are dropped), or save theirs over it (knowingly).
 */
export function conflictNotice(
  box: HTMLElement,
  mine: Record<string, unknown>,
  theirs: Lot,
  choices: { useTheirs: () => void; keepMine: () => void },
): void {
  const fields = differing(mine, theirs);
  replace(
    box,
    h(
      "div",
      { class: "warning conflict", role: "alert", id: "lot-conflict" },
      h("p", null, t("changedElsewhere")),
      fields.length > 0 ? h("p", null, t("changedFields", { fields: fields.join(", ") })) : null,
      h(
        "div",
        { class: "toolbar" },
        h("button", { type: "button", id: "conflict-theirs", onclick: choices.useTheirs }, t("useTheirs")),
        h("button", { type: "button", id: "conflict-mine", onclick: choices.keepMine }, t("keepMine")),
      ),
    ),
  );
}
