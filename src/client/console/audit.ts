import type { LookupRecord } from "../api-types.ts";
import { h, prevented, replace } from "../dom.ts";
import { t, when } from "../i18n.ts";
import { pagedList } from "./paged-list.ts";
import { searchOf, timeAndSearch } from "./search-form.ts";
import { problemText, SCROLLS } from "./table.ts";

/** What the attendant was told: a verdict's state, in the words the check page uses. */
function answerOf(r: LookupRecord) {
  return r.verdict === null
    ? t("none")
    : h(
        "span",
        { class: `verdict-state ${r.verdict}`, "data-verdict": r.verdict },
        t(`verdict_${r.verdict}`),
      );
}

/** How the plate of a verdict came in: typed, read by the camera as it was, or read and corrected. */
function entryOf(r: LookupRecord): "typed" | "camera" | "corrected" | null {
  if (r.by !== "verdict" && r.by !== "offline_verdict") return null;
  if (r.camera_read === null) return "typed";
  return r.query.slice(0, r.query.lastIndexOf("@")) === r.camera_read ? "camera" : "corrected";
}

function entryWords(r: LookupRecord): string {
  const entry = entryOf(r);
  if (entry === null) return "–";
  if (entry === "corrected") return t("entryCorrected", { read: r.camera_read ?? "" });
  return t(entry === "camera" ? "entryCamera" : "entryTyped");
}

/**
 * The kinds of record an operator looks for, as the API's `by` lists them; plate checks first:
 * "who checked this car" is what the audit is opened for, and zone lists would bury it.
 */
const KINDS = [
  ["auditPlateChecks", "registration_number,verdict,offline_verdict"],
  ["auditZoneLists", "zone,zone_list"],
  ["auditChecksRead", "checks"],
  ["auditMarks", "observation"],
  ["auditNotices", "notice"],
  ["auditEverything", ""],
] as const;

export function auditPage(root: HTMLElement): () => void {
  const rows = h("tbody");
  const more = h("button", { type: "button", id: "audit-more", hidden: true }, t("more"));
  const note = h("p", { class: "note", role: "status" });
  /** Of the verdicts listed so far, how many plates the camera read, and how many were corrected. */
  const reads = { camera: 0, corrected: 0 };
  const readsLine = h("p", { class: "note", id: "audit-camera-reads", hidden: true });
  // "Who looked up plate X last week": by plate in any spelling, by credential, by time.
  const filter = h(
    "form",
    {
      class: "toolbar",
      id: "audit-filter",
      onsubmit: prevented((): void => void records.search()),
    },
    h(
      "select",
      {
        name: "by",
        id: "audit-kind",
        "aria-label": t("lookupKind"),
        onchange: () => void records.search(),
      },
      KINDS.map(([words, by]) => h("option", { value: by }, t(words))),
    ),
    h("input", { name: "registration_number", placeholder: t("plate"), "aria-label": t("plate") }),
    h("input", { name: "credential", placeholder: t("credential"), "aria-label": t("credential") }),
    timeAndSearch(),
  );
  const records = pagedList<LookupRecord>({
    path: "/api/v1/lookups",
    more,
    filter: () => ({
      ...searchOf(filter, ["by", "registration_number", "credential", "from", "to"]),
      limit: 100,
    }),
    show: (page, next) => {
      if (!next) {
        replace(rows);
        reads.camera = 0;
        reads.corrected = 0;
      }
      replace(note, "");
      for (const r of page) {
        const entry = entryOf(r);
        if (entry === "camera" || entry === "corrected") reads.camera++;
        if (entry === "corrected") reads.corrected++;
        rows.appendChild(
          h(
            "tr",
            null,
            [
              when(r.at),
              r.credential,
              t(`lookup_${r.by}`),
              r.query,
              answerOf(r),
              entryWords(r),
              String(r.results),
            ].map((c) => h("td", null, c)),
          ),
        );
      }
      readsLine.hidden = reads.camera === 0;
      readsLine.textContent = t("auditCameraReads", { camera: reads.camera, corrected: reads.corrected });
    },
    failed: (e) => replace(note, problemText(e)),
  });
  replace(
    root,
    h(
      "section",
      null,
      h("h2", null, t("audit")),
      filter,
      note,
      readsLine,
      h(
        "table",
        { id: "audit-table", ...SCROLLS },
        h(
          "thead",
          null,
          h(
            "tr",
            null,
            [
              t("at"),
              t("credential"),
              t("lookupKind"),
              t("asked"),
              t("told"),
              t("plateEntry"),
              t("results"),
            ].map((x) => h("th", null, x)),
          ),
        ),
        rows,
      ),
      more,
    ),
  );
  void records.search();
  return () => {};
}
