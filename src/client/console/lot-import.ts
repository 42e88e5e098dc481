import { ApiError, api } from "../api.ts";
import type { ImportReport } from "../api-types.ts";
import { h, replace } from "../dom.ts";
import { t } from "../i18n.ts";
import { problemText, table } from "./table.ts";

const IMPORT = "/api/v1/parkings/import";

/**
 * An import file, shown before anything is written: what each lot would become (created,
 * changed and which fields, unchanged, refused and why), then applied in one transaction, all or
 * nothing, by the same endpoint the CLI's import uses. A file with any refusal cannot be applied.
 */
export async function previewImport(
  file: File,
  panel: HTMLElement,
  imported: () => Promise<void>,
): Promise<void> {
  let value: unknown;
  try {
    value = JSON.parse(await file.text());
  } catch (e) {
    replace(
      panel,
      h("p", { class: "error", role: "alert" }, `${t("importNotJson")}: ${(e as Error).message}`),
    );
    return;
  }
  let report: ImportReport;
  try {
    report = (await api<{ data: ImportReport }>("POST", `${IMPORT}?dry_run=true`, value)).data;
  } catch (e) {
    const tooBig = e instanceof ApiError && e.status === 413;
    replace(panel, h("p", { class: "error", role: "alert" }, tooBig ? t("importTooBig") : problemText(e)));
    return;
  }
  // A file that is no lot export is refused with a 400 (above); the report lists lots.
  const blocked = report.refused > 0;
  const status = h("p", { role: "status", id: "import-status" });
  const apply = async (button: HTMLButtonElement) => {
    // Applied once: a second click while the first is on its way would create the new lots twice.
    button.disabled = true;
    try {
      const done = (await api<{ data: ImportReport }>("POST", IMPORT, value)).data;
      replace(
        panel,
        h("p", { class: "ok-line", role: "status", id: "import-status" }, t("importDone", summary(done))),
      );
      await imported();
    } catch (e) {
      button.disabled = false;
      replace(status, h("span", { class: "error" }, problemText(e)));
    }
  };
  replace(
    panel,
    h(
      "section",
      { class: "import-preview", id: "import-preview", "aria-labelledby": "import-title" },
      h("h2", { id: "import-title" }, t("importPreview", { file: file.name })),
      h("p", null, t("importSummary", summary(report))),
      table(
        [t("importIndex"), "id", t("name"), t("importOutcome"), t("importDetail")],
        report.lots,
        (l) => [
          String(l.index),
          l.id === null ? "" : String(l.id),
          l.name ?? "",
          h("span", { class: `outcome ${l.outcome}`, "data-outcome": l.outcome }, t(`import_${l.outcome}`)),
          l.outcome === "refused"
            ? l.errors.map((e) => h("div", { class: "error" }, `${e.pointer}: ${e.message}`))
            : l.changed_fields.join(", "),
        ],
        { id: "import-lots" },
      ),
      blocked
        ? h("p", { class: "warning", id: "import-blocked" }, t("importBlocked"))
        : h(
            "div",
            { class: "toolbar" },
            h(
              "button",
              {
                type: "button",
                id: "import-apply",
                onclick: (e: Event) => void apply(e.currentTarget as HTMLButtonElement),
              },
              t("importApply"),
            ),
            h("button", { type: "button", onclick: () => replace(panel) }, t("cancel")),
          ),
      status,
    ),
  );
}

function summary(r: ImportReport): Record<string, number> {
  return { created: r.created, changed: r.changed, unchanged: r.unchanged, refused: r.refused };
}

/** The lots as the box holds them, downloaded as the file import reads back unchanged. */
export async function exportLots(): Promise<void> {
  const lots = await api<{ data: unknown[] }>("GET", "/api/v1/parkings");
  const url = URL.createObjectURL(new Blob([JSON.stringify(lots, null, 2)], { type: "application/json" }));
  const a = h("a", { href: url, download: "parking-lots.json" });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
