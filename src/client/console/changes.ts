import { api, query } from "../api.ts";
import type { Change } from "../api-types.ts";
import { h, prevented, replace } from "../dom.ts";
import { t, when } from "../i18n.ts";
import { changeDiff } from "./change-diff.ts";
import { pagedList } from "./paged-list.ts";
import { searchOf, timeAndSearch } from "./search-form.ts";
import { problemText, table } from "./table.ts";

/** The record a change is about, linked where the console has a page for it. */
function subjectOf(c: Change) {
  const label = `${t(`subject_${c.subject}`)} ${c.subject_id}`;
  const page = c.subject === "lot" ? "lots" : c.subject === "permit" ? "permits" : null;
  return page && c.action !== "delete" ? h("a", { href: `#/${page}/${c.subject_id}` }, label) : label;
}

function changeRows(items: Change[], withSubject: boolean) {
  return table(
    [t("at"), t("by"), ...(withSubject ? [t("record")] : []), t("action"), t("fieldsChanged")],
    items,
    (c) => [
      when(c.at),
      `${c.actor} (${t(`via_${c.via}`)})`,
      ...(withSubject ? [subjectOf(c)] : []),
      t(`action_${c.action}`),
      changeDiff(c),
    ],
    { class: "changes" },
  );
}

/** One record's history, newest first, under its form: who changed what, when. */
export function objectHistory(subject: Change["subject"], id: number | string): HTMLElement {
  const box = h("section", { class: "history", "aria-labelledby": `history-${subject}` });
  const title = h("h3", { id: `history-${subject}` }, t("changeHistory"));
  replace(box, title, h("p", { class: "note" }, "…"));
  void api<{ data: Change[] }>(
    "GET",
    `/api/v1/changes${query({ subject, subject_id: String(id), limit: 20 })}`,
  ).then(
    (r) =>
      replace(
        box,
        title,
        r.data.length ? changeRows(r.data, false) : h("p", { class: "note" }, t("noChanges")),
      ),
    (e) => replace(box, title, h("p", { class: "error" }, problemText(e))),
  );
  return box;
}

/** Every operator change, newest first, filtered by record, who and when; a page at a time. */
export function changesPage(root: HTMLElement): () => void {
  const list = h("div", { id: "changes-list" });
  const more = h("button", { type: "button", id: "changes-more", hidden: true }, t("more"));
  let shown: Change[] = [];
  const form = h(
    "form",
    { class: "toolbar", id: "changes-filter", onsubmit: prevented((): void => void changes.search()) },
    h(
      "select",
      { name: "subject", "aria-label": t("record") },
      h("option", { value: "" }, `${t("record")}: ${t("any")}`),
      (["lot", "permit", "notice", "notice_reason", "token", "user"] as const).map((s) =>
        h("option", { value: s }, t(`subject_${s}`)),
      ),
    ),
    h("input", { name: "subject_id", placeholder: "id", "aria-label": "id" }),
    h("input", { name: "actor", placeholder: t("by"), "aria-label": t("by") }),
    timeAndSearch(),
  );
  const changes = pagedList<Change>({
    path: "/api/v1/changes",
    more,
    filter: () => {
      const search = searchOf(form, ["subject", "subject_id", "actor", "from", "to"]);
      // A record's id means nothing without the kind of record.
      return search.subject ? search : { ...search, subject_id: undefined };
    },
    show: (page, next) => {
      shown = next ? [...shown, ...page] : page;
      replace(list, shown.length ? changeRows(shown, true) : h("p", { class: "note" }, t("noChanges")));
    },
    failed: (e) => replace(list, h("p", { class: "error", role: "alert" }, problemText(e))),
  });
  replace(root, form, list, more);
  void changes.search();
  return () => {};
}
