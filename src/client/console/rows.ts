import { h, replace } from "../dom.ts";
import { t } from "../i18n.ts";
import { moneyInput, moneyOf } from "./money.ts";
import { SCROLLS } from "./table.ts";

export interface Column {
  name: string;
  label: string;
  kind: "int" | "number" | "money" | "time" | "select" | "check" | "optional-int" | "days";
  /** For select: the option labels, valued 1..n. */
  options?: string[];
  step?: string;
}

type Row = Record<string, unknown>;

/**
 * An editable list of sub-records (fees, opening hours, windows...): one line of inputs per
 * record, add and remove buttons. Values go in and come out in the API's own units.
 */
export class RowsEditor {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;

  constructor(
    private readonly id: string,
    title: string,
    private readonly columns: Column[],
    private readonly blank: Row,
    rows: Row[],
  ) {
    this.body = h("tbody");
    this.element = h(
      "fieldset",
      { class: "rows", id },
      h("legend", null, title),
      // Focusable: on a phone the table scrolls sideways, and a keyboard must reach that too.
      h(
        "table",
        SCROLLS,
        h(
          "thead",
          null,
          h(
            "tr",
            null,
            columns.map((c) => h("th", { scope: "col" }, c.label)),
            // The remove buttons' column is named too: a heading without text reads as nothing.
            h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("remove"))),
          ),
        ),
        this.body,
      ),
      h("button", { type: "button", class: "add", onclick: () => this.add(this.blank) }, `+ ${t("add")}`),
    );
    replace(this.body);
    for (const r of rows) this.add(r);
  }

  private input(c: Column, value: unknown): HTMLElement {
    const name = c.name;
    switch (c.kind) {
      case "select":
        return h(
          "select",
          { name, "aria-label": c.label },
          (c.options ?? []).map((label, i) =>
            h("option", { value: i + 1, selected: Number(value) === i + 1 }, label),
          ),
        );
      case "check":
        return h("input", { type: "checkbox", name, checked: Boolean(value), "aria-label": c.label });
      case "days": {
        // A set of days (1 = Monday … 7 = Sunday) in one row: Mon–Fri is one row, not five.
        const chosen = new Set(Array.isArray(value) ? (value as number[]) : []);
        return h(
          "fieldset",
          { class: "days", "data-name": name },
          h("legend", { class: "visually-hidden" }, c.label),
          (c.options ?? []).map((day, i) =>
            h(
              "label",
              { class: "day" },
              h("input", { type: "checkbox", name, value: i + 1, checked: chosen.has(i + 1) }),
              day,
            ),
          ),
        );
      }
      case "time":
        // Text, not type=time: the end of a day is 24:00:00, which a time input cannot hold.
        return h("input", {
          name,
          value: String(value ?? "00:00:00"),
          required: true,
          pattern: "([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?|24:00(:00)?",
          placeholder: "HH:MM:SS",
          inputmode: "numeric",
          class: "time",
          "aria-label": c.label,
        });
      case "money":
        return moneyInput(name, Number(value ?? 0), c.label);
      case "optional-int":
        return h("input", {
          type: "number",
          step: "1",
          min: "1",
          name,
          value: value ?? "",
          "aria-label": c.label,
        });
      default:
        return h("input", {
          type: "number",
          // A coordinate (any step) is shown whole: 59.329323 must not be cut to 59.32.
          class: c.step === "any" ? "coordinate" : undefined,
          step: c.step ?? "1",
          name,
          value: String(value ?? 0),
          required: true,
          "aria-label": c.label,
        });
    }
  }

  add(row: Row): void {
    const tr = h(
      "tr",
      { "data-id": row.id ?? "" },
      this.columns.map((c) => h("td", null, this.input(c, row[c.name]))),
      h(
        "td",
        null,
        h(
          "button",
          { type: "button", class: "remove", onclick: () => tr.remove(), "aria-label": t("remove") },
          "✕",
        ),
      ),
    );
    this.body.appendChild(tr);
  }

  values(): Row[] {
    return [...this.body.querySelectorAll("tr")].map((tr) => {
      const out: Row = {};
      const id = (tr as HTMLElement).dataset.id;
      if (id) out.id = Number(id);
      for (const c of this.columns) {
        if (c.kind === "days") {
          out[c.name] = [...tr.querySelectorAll<HTMLInputElement>(`input[name="${c.name}"]:checked`)].map(
            (d) => Number(d.value),
          );
          continue;
        }
        const el = tr.querySelector<HTMLInputElement>(`[name="${c.name}"]`)!;
        if (c.kind === "check") out[c.name] = el.checked;
        else if (c.kind === "time")
          out[c.name] = el.value.trim().length === 5 ? `${el.value.trim()}:00` : el.value.trim();
        else if (c.kind === "money") out[c.name] = moneyOf(el);
        else if (c.kind === "optional-int") out[c.name] = el.value === "" ? null : Number(el.value);
        else out[c.name] = Number(el.value);
      }
      return out;
    });
  }
}
