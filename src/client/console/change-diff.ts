import type { Change } from "../api-types.ts";
import { type Child, h } from "../dom.ts";
import { list, money, t, when } from "../i18n.ts";
import { fieldLabels } from "./field-labels.ts";
import { feeSummary } from "./money.ts";

/**
 * A change of the history as a person reads it: each field by the form's word for it, amounts in
 * kronor, times as times, and a lot's fee tables row beside row (before | after), so a fee that
 * changed reads as one. Long values are cut, with the whole of them one click away.
 */

type Row = Record<string, unknown>;

const SHORT = 80;
const hhmm = (v: unknown) => String(v ?? "").slice(0, 5);
const day = (v: unknown) => list("dayTypes")[Number(v) - 1] ?? String(v);
const unit = (v: unknown) => list("units")[Number(v) - 1] ?? String(v);

/** The tables of a lot, each row in words. */
const ROWS: Record<string, (r: Row) => string> = {
  parking_lot_fee: (r) => feeSummary([r]),
  variable_fees: (r) =>
    `${money(Number(r.cost_per_unit ?? 0))}/${unit(r.unit)} ${day(r.type_of_day)}, ${t("minutes", {
      from: String(r.from_minute ?? 0),
      to: r.to_minute === null || r.to_minute === undefined ? "…" : String(r.to_minute),
    })}`,
  parking_lot_open: (r) => `${day(r.type_of_day)} ${hhmm(r.open_time)}–${hhmm(r.close_time)}`,
  parking_lot_location: (r) => `${r.latitude}, ${r.longitude}`,
};

/** A permit's weekly windows: days sharing hours together ("Mon, Tue, Wed 07:00–18:00"). */
function windowsText(days: unknown): string {
  if (!Array.isArray(days) || days.length === 0) return t("alwaysValid");
  const names = list("weekdays");
  const byHours = new Map<string, string[]>();
  for (const d of days as Row[]) {
    const key = `${hhmm(d.start_time)}–${hhmm(d.end_time)}`;
    byHours.set(key, [...(byHours.get(key) ?? []), names[Number(d.weekday) - 1] ?? String(d.weekday)]);
  }
  return [...byHours].map(([hours, ds]) => `${ds.join(", ")} ${hours}`).join(" · ");
}

/** One value in words: money in kronor, times as times, yes/no, lists joined. */
function valueText(key: string, v: unknown, record: Row): string {
  if (v === undefined || v === null || v === "") return t("none");
  if (key === "max_fee") return Number(v) === 0 ? t("none") : money(Number(v));
  // A notice's or a reason's amount is in öre of the notice's currency (a reason's: the site's).
  if (key === "amount")
    return money(Number(v), typeof record.currency === "string" ? record.currency : undefined);
  if (key === "verdict" && typeof v === "string") return t(`verdict_${v}` as never);
  if (key === "verdicts" && Array.isArray(v)) return v.map((x) => t(`verdict_${x}` as never)).join(", ");
  if (key === "state" && (v === "issued" || v === "voided")) return t(`notice_${v}`);
  if (key === "parking_lot_id") return `#${v}`;
  if (key === "max_time")
    return Number(v) === 0 ? t("none") : t("minutesOnly", { n: String(Number(v) / 60) });
  if (key === "days") return windowsText(v);
  if (typeof v === "boolean") return v ? t("yes") : t("no");
  if (/_at$/.test(key) && typeof v === "string") return when(v);
  if (Array.isArray(v) && v.every((x) => typeof x !== "object")) return v.join(", ");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** A value cut to a line, the whole of it behind a click when it is longer. */
function shown(text: string): Child {
  if (text.length <= SHORT) return text;
  return h("details", { class: "full-value" }, h("summary", null, `${text.slice(0, SHORT - 1)}…`), text);
}

/** A table of rows before and after, side by side, rows paired by their id (by place without one). */
function rowsBeside(key: string, before: unknown, after: unknown): HTMLElement {
  const words = ROWS[key]!;
  const rows = (v: unknown) => (Array.isArray(v) ? (v as Row[]) : []);
  const was = rows(before);
  const now = rows(after);
  const idOf = (r: Row, i: number) => (r.id === undefined ? `#${i}` : String(r.id));
  const ids = [...new Set([...was.map(idOf), ...now.map(idOf)])];
  const find = (list: Row[], id: string) => list.find((r, i) => idOf(r, i) === id);
  return h(
    "table",
    { class: "rows-diff" },
    h(
      "thead",
      null,
      h("tr", null, h("th", { scope: "col" }, t("before")), h("th", { scope: "col" }, t("after"))),
    ),
    h(
      "tbody",
      null,
      ids.map((id) => {
        const b = find(was, id);
        const a = find(now, id);
        const bt = b ? words(b) : t("none");
        const at = a ? words(a) : t("none");
        return h(
          "tr",
          { class: bt === at ? "same" : "changed", "data-row": id },
          h("td", null, shown(bt)),
          h("td", null, shown(at)),
        );
      }),
    ),
  );
}

/**
 * A lot's table in a change: rows beside rows for an update; a create's or a delete's rows as a
 * plain list (there is nothing beside them); none at all as "—".
 */
function tableChange(c: Change, key: string, before: unknown, after: unknown): Child {
  const one = c.before === null ? after : c.after === null ? before : null;
  if (c.before !== null && c.after !== null) return rowsBeside(key, before, after);
  const rows = Array.isArray(one) ? (one as Row[]) : [];
  if (rows.length === 0) return t("none");
  return h(
    "ul",
    { class: "rows-list" },
    rows.map((r) => h("li", null, shown(ROWS[key]!(r)))),
  );
}

/** What changed, field by field, in the form's words. */
export function changeDiff(c: Change): HTMLElement {
  const labels = fieldLabels(c.subject);
  const before = c.before ?? {};
  const after = c.after ?? {};
  // A create's id is the record's own (shown beside it already); the rest in the form's order.
  const keys = [...new Set([...Object.keys(labels), ...Object.keys(before), ...Object.keys(after)])].filter(
    (k) => (k in before || k in after) && k !== "id",
  );
  return h(
    "ul",
    { class: "changed-fields" },
    keys.map((k) =>
      h(
        "li",
        { "data-field": k },
        h("span", { class: "field-name" }, labels[k] ?? k),
        ": ",
        k in ROWS && (Array.isArray(before[k]) || Array.isArray(after[k]))
          ? tableChange(c, k, before[k], after[k])
          : [
              c.before ? [shown(valueText(k, before[k], before)), " → "] : null,
              c.after ? shown(valueText(k, after[k], after)) : null,
            ],
      ),
    ),
  );
}
