import { api, query } from "../api.ts";
import type { LookupRecord } from "../api-types.ts";
import { field, h, prevented, replace } from "../dom.ts";
import { t, when } from "../i18n.ts";
import { isoOf } from "./datetime.ts";
import { problemText, SCROLLS } from "./table.ts";

export function auditPage(root: HTMLElement): () => void {
  const rows = h("tbody");
  const more = h("button", { type: "button", id: "audit-more", hidden: true }, t("more"));
  const note = h("p", { class: "note", role: "status" });
  let cursor: string | null = null;
  // "Who looked up plate X last week": by plate in any spelling, by credential, by time.
  const filter = h(
    "form",
    {
      class: "toolbar",
      id: "audit-filter",
      onsubmit: prevented(() => void page(false)),
    },
    h("input", { name: "registration_number", placeholder: t("plate"), "aria-label": t("plate") }),
    h("input", { name: "credential", placeholder: t("credential"), "aria-label": t("credential") }),
    h("input", { name: "from", type: "datetime-local", "aria-label": t("from") }),
    h("input", { name: "to", type: "datetime-local", "aria-label": t("to") }),
    h("button", { type: "submit" }, t("search")),
  );
  /** The filter as last searched: More goes on with it, not with edits not yet searched. */
  let searched: Record<string, string | undefined> = {};
  /** Each page asked for; an answer to an earlier one arriving late is dropped. */
  let asked = 0;
  async function page(next: boolean): Promise<void> {
    const mine = ++asked;
    if (!next)
      searched = {
        registration_number: field(filter, "registration_number"),
        credential: field(filter, "credential"),
        from: isoOf(field(filter, "from")),
        to: isoOf(field(filter, "to")),
      };
    more.disabled = true;
    try {
      const p = await api<{ data: LookupRecord[]; next_cursor: string | null }>(
        "GET",
        `/api/v1/lookups${query({ ...searched, cursor: next ? cursor : undefined, limit: 100 })}`,
      );
      if (mine !== asked) return;
      if (!next) replace(rows);
      replace(note, "");
      for (const r of p.data)
        rows.appendChild(
          h(
            "tr",
            null,
            [when(r.at), r.credential, r.by, r.query, String(r.results)].map((c) => h("td", null, c)),
          ),
        );
      cursor = p.next_cursor;
      more.hidden = cursor === null;
    } catch (e) {
      if (mine === asked) replace(note, problemText(e));
    } finally {
      if (mine === asked) more.disabled = false;
    }
  }
  more.addEventListener("click", () => void page(true));
  replace(
    root,
    h(
      "section",
      null,
      h("h2", null, t("audit")),
      filter,
      note,
      h(
        "table",
        { id: "audit-table", ...SCROLLS },
        h(
          "thead",
          null,
          h(
            "tr",
            null,
            [t("at"), t("credential"), t("by"), t("asked"), t("results")].map((x) => h("th", null, x)),
          ),
        ),
        rows,
      ),
      more,
    ),
  );
  void page(false);
  return () => {};
}
