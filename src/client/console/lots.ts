import { ApiError, api, versioned } from "../api.ts";
import type { Lot } from "../api-types.ts";
import { field, h, prevented, replace } from "../dom.ts";
import { list, t } from "../i18n.ts";
import type { FeeEdit } from "./amounts.ts";
import { objectHistory } from "./changes.ts";
import { isStale, myChanges, whenStale } from "./conflict.ts";
import { clearFieldErrors, markFieldErrors } from "./field-errors.ts";
import { fieldLabels } from "./field-labels.ts";
import { exportLots, previewImport } from "./lot-import.ts";
import { quotePreview } from "./lot-quote.ts";
import { confirmOutliers, feeSummary, moneyInput, moneyOf, noFees } from "./money.ts";
import { RowsEditor } from "./rows.ts";
import { openingLink, problemText, table } from "./table.ts";

/** The lot's editable tables by the body field they write (field errors point into them). */
const LOT_TABLES = {
  parking_lot_fee: "fees",
  variable_fees: "variable-fees",
  parking_lot_open: "opening-hours",
  parking_lot_location: "locations",
};

type Priced = { id?: unknown; cost_per_unit?: unknown; unit?: unknown };

/**
 * The form's fees and variable fees, each with the stored amount it replaces (by the row's id in
 * its own table), for the decimal-mark question before a save.
 */
function feeEdits(lot: Lot | null, fees: Priced[], variable: Priced[]): FeeEdit[] {
  const stored = (rows: readonly Priced[] | undefined) =>
    new Map((rows ?? []).map((r) => [Number(r.id), Number(r.cost_per_unit)]));
  const edits = (rows: Priced[], was: Map<number, number>) =>
    rows.map((r) => ({
      cost: Number(r.cost_per_unit),
      unit: Number(r.unit),
      was: r.id === undefined ? null : (was.get(Number(r.id)) ?? null),
    }));
  return [...edits(fees, stored(lot?.parking_lot_fee)), ...edits(variable, stored(lot?.variable_fees))];
}

/** The lots page; `lotId` (from `#/lots/ID`) opens that lot. */
export function lotsPage(root: HTMLElement, _lost: () => void, lotId?: string): () => void {
  const listBox = h("div", { class: "list" });
  const editor = h("div", { class: "editor", id: "lot-editor" });
  const note = h("p", { class: "note", role: "status", id: "lots-note" });

  async function load(selectId?: number): Promise<void> {
    try {
      const lots = (await api<{ data: Lot[] }>("GET", "/api/v1/parkings")).data;
      replace(
        listBox,
        table(
          [t("name"), t("zone"), t("spaces"), t("fees"), t("active")],
          lots,
          (l) => [
            openingLink(`#/lots/${l.id}`, `${l.id} · ${l.name}`, () => open(l.id), { "data-lot": l.id }),
            String(l.zone_number),
            String(l.number_of_spaces),
            l.parking_lot_fee.length > 0 ? feeSummary(l.parking_lot_fee) : noFees(),
            l.active ? "✓" : "",
          ],
          { id: "lots-table" },
        ),
      );
      if (selectId !== undefined) await open(selectId);
    } catch (e) {
      replace(note, problemText(e));
    }
  }

  /**
   * Opens a lot in the form as the box holds it now, with that version's ETag: the form is never
   * filled from the list's older copy, so a save can only overwrite what the operator saw.
   */
  async function open(id: number): Promise<void> {
    try {
      const r = await versioned<{ data: Lot }>("GET", `/api/v1/parkings/${id}`);
      edit(r.data.data, r.etag);
    } catch (e) {
      replace(editor, h("p", { class: "error", role: "alert", id: "lot-missing" }, problemText(e)));
    }
  }

  function edit(lot: Lot | null, version: string | null = null): void {
    const dayTypes = list("dayTypes");
    const units = list("units");
    const fees = new RowsEditor(
      "fees",
      t("fees"),
      [
        { name: "type_of_day", label: t("dayType"), kind: "select", options: dayTypes },
        { name: "start_time", label: t("from"), kind: "time" },
        { name: "end_time", label: t("to"), kind: "time" },
        { name: "cost_per_unit", label: t("costPerUnit"), kind: "money" },
        { name: "unit", label: t("unit"), kind: "select", options: units },
        { name: "round", label: t("round"), kind: "check" },
      ],
      {
        type_of_day: 1,
        start_time: "08:00:00",
        end_time: "18:00:00",
        cost_per_unit: 2000,
        unit: 1,
        round: true,
      },
      lot?.parking_lot_fee ?? [],
    );
    const variable = new RowsEditor(
      "variable-fees",
      t("variableFees"),
      [
        { name: "type_of_day", label: t("dayType"), kind: "select", options: dayTypes },
        { name: "from_minute", label: t("fromMinute"), kind: "int" },
        { name: "to_minute", label: t("toMinute"), kind: "optional-int" },
        { name: "cost_per_unit", label: t("costPerUnit"), kind: "money" },
        { name: "unit", label: t("unit"), kind: "select", options: units },
      ],
      { type_of_day: 1, from_minute: 0, to_minute: null, cost_per_unit: 1000, unit: 1 },
      lot?.variable_fees ?? [],
    );
    const open = new RowsEditor(
      "opening-hours",
      t("openingHours"),
      [
        { name: "type_of_day", label: t("dayType"), kind: "select", options: dayTypes },
        { name: "open_time", label: t("opens"), kind: "time" },
        { name: "close_time", label: t("closes"), kind: "time" },
      ],
      { type_of_day: 1, open_time: "00:00:00", close_time: "24:00:00" },
      lot?.parking_lot_open ?? [],
    );
    const where = new RowsEditor(
      "locations",
      t("locations"),
      [
        { name: "latitude", label: t("latitude"), kind: "number", step: "any" },
        { name: "longitude", label: t("longitude"), kind: "number", step: "any" },
      ],
      { latitude: 59.33, longitude: 18.06 },
      lot?.parking_lot_location ?? [],
    );
    const status = h("p", { class: "note", role: "status", id: "lot-status" });
    const conflict = h("div");
    // The version the form was opened on: writes carry it (If-Match), so none undoes another's.
    let etag = version;
    const form = h(
      "form",
      { id: "lot-form", class: "lot-form", onsubmit: prevented(() => save()) },
      h("h2", null, lot ? `${lot.id} · ${lot.name}` : t("newLot")),
      h(
        "div",
        { class: "grid" },
        h("label", null, t("name"), h("input", { name: "name", required: true, value: lot?.name ?? "" })),
        h(
          "label",
          null,
          t("zone"),
          h("input", {
            name: "zone_number",
            type: "number",
            min: 0,
            required: true,
            value: lot?.zone_number ?? "",
          }),
        ),
        h(
          "label",
          null,
          t("spaces"),
          h("input", { name: "number_of_spaces", type: "number", min: 0, value: lot?.number_of_spaces ?? 0 }),
        ),
        h(
          "label",
          null,
          t("maxTimeMin"),
          h("input", { name: "max_time", type: "number", min: 0, value: (lot?.max_time ?? 0) / 60 }),
        ),
        h("label", null, t("maxFee"), moneyInput("max_fee", lot?.max_fee ?? 0)),
        h(
          "label",
          { class: "check" },
          h("input", { name: "active", type: "checkbox", checked: lot?.active ?? true }),
          t("active"),
        ),
      ),
      fees.element,
      variable.element,
      open.element,
      where.element,
      conflict,
      h(
        "div",
        { class: "actions" },
        h("button", { type: "submit", class: "primary" }, t("save")),
        lot
          ? h(
              "button",
              { type: "button", class: "danger", id: "lot-delete", onclick: () => void remove() },
              t("deleteLot"),
            )
          : null,
        status,
      ),
    );

    /** Someone changed the lot meanwhile: the form stays as it is, and the operator chooses. */
    const stale = (mine: Record<string, unknown>, retry: () => Promise<void>, deleting = false) =>
      whenStale<Lot>(conflict, `/api/v1/parkings/${lot!.id}`, lot, mine, deleting, fieldLabels("lot"), {
        reopen: edit,
        retry: (version) => {
          etag = version;
          void retry();
        },
      });

    async function remove(): Promise<void> {
      if (!lot || !confirm(t("deleteLotConfirm", { id: lot.id, name: lot.name }))) return;
      try {
        await versioned("DELETE", `/api/v1/parkings/${lot.id}`, undefined, etag);
        history.pushState(null, "", "#/lots");
        replace(
          editor,
          h("p", { class: "ok-line", role: "status", id: "lot-deleted" }, t("lotDeleted", { id: lot.id })),
        );
        await load();
      } catch (e) {
        if (isStale(e)) await stale({}, remove, true);
        else replace(status, `${t("error")}: ${problemText(e)}`);
      }
    }

    async function save(): Promise<void> {
      const body = {
        name: field(form, "name"),
        zone_number: Number(field(form, "zone_number")),
        number_of_spaces: Number(field(form, "number_of_spaces")),
        max_time: Math.round(Number(field(form, "max_time")) * 60),
        max_fee: moneyOf(form.elements.namedItem("max_fee") as HTMLInputElement),
        active: (form.elements.namedItem("active") as HTMLInputElement).checked,
        parking_lot_fee: fees.values(),
        variable_fees: variable.values(),
        parking_lot_open: open.values(),
        parking_lot_location: where.values(),
      };
      if (!confirmOutliers(feeEdits(lot, body.parking_lot_fee, body.variable_fees))) return;
      await write(body, false);
    }

    /**
     * Writes the form: all of it (a new lot, or a save against the version it was opened on), or,
     * after a conflict, only the fields changed in the form, so another's change to the others stays.
     */
    async function write(body: Record<string, unknown>, onlyMine: boolean): Promise<void> {
      replace(status);
      clearFieldErrors(form);
      try {
        const saved = !lot
          ? await api<{ data: Lot }>("POST", "/api/v1/parkings", body)
          : (
              await versioned<{ data: Lot }>(
                onlyMine ? "PATCH" : "PUT",
                `/api/v1/parkings/${lot.id}`,
                onlyMine ? myChanges(lot, body) : body,
                etag,
              )
            ).data;
        await load(saved.data.id);
        replace(document.getElementById("lot-status") ?? status, t("saved"));
      } catch (e) {
        if (isStale(e)) await stale(body, () => write(body, true));
        else {
          // Each error at its field, once, in words; the status line only counts them.
          const unplaced = markFieldErrors(form, e, LOT_TABLES);
          replace(
            status,
            h(
              "span",
              { class: "error", role: "alert" },
              unplaced.length === 0 && e instanceof ApiError && e.problem.errors?.length
                ? t("fixMarked", { n: e.problem.errors.length })
                : `${t("notSaved")}: ${unplaced.length ? unplaced.map((u) => u.message).join("; ") : (e as Error).message}`,
            ),
          );
        }
      }
    }

    replace(editor, quotePreview(lot), form, lot ? objectHistory("lot", lot.id) : null);
  }

  const importer = h("input", {
    type: "file",
    accept: "application/json,.json",
    id: "lots-import",
    hidden: true,
    onchange: async () => {
      const file = importer.files?.[0];
      importer.value = "";
      if (file) await previewImport(file, editor, () => load());
    },
  });

  replace(
    root,
    h(
      "div",
      { class: "split" },
      h(
        "section",
        null,
        h(
          "div",
          { class: "toolbar" },
          h("button", { type: "button", id: "new-lot", onclick: () => edit(null) }, `+ ${t("newLot")}`),
          h("button", { type: "button", onclick: () => void exportLots() }, t("export")),
          h("button", { type: "button", onclick: () => importer.click() }, t("import")),
          importer,
        ),
        note,
        listBox,
      ),
      editor,
    ),
  );
  void load(lotId && /^[0-9]{1,10}$/.test(lotId) ? Number(lotId) : undefined);
  return () => {};
}
