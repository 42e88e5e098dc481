import { h } from "../dom.ts";
import { lang, list, money, t } from "../i18n.ts";
import { doubtfulFees, type FeeEdit, parseMoney } from "./amounts.ts";

/** Öre as the field shows them: `12,50` on the Swedish page, `12.50` on the English one. */
export function moneyText(ore: number): string {
  const text = (ore / 100).toFixed(2);
  return lang === "sv" ? text.replace(".", ",") : text;
}

/** A text field for an amount, refused at the field (the browser's own message) when it is not one. */
export function moneyInput(name: string, ore: number, label?: string): HTMLInputElement {
  const input = h("input", {
    name,
    value: moneyText(ore),
    inputmode: "decimal",
    autocomplete: "off",
    required: true,
    class: "money",
    ...(label ? { "aria-label": label } : {}),
  });
  const check = () => input.setCustomValidity(parseMoney(input.value) === null ? t("notAnAmount") : "");
  input.addEventListener("input", check);
  check();
  return input;
}

/** The amount in a field made by moneyInput (0 when it holds none: the field refuses that first). */
export function moneyOf(input: HTMLInputElement): number {
  return parseMoney(input.value) ?? 0;
}

interface Fee {
  cost_per_unit?: unknown;
  unit?: unknown;
  type_of_day?: unknown;
  start_time?: unknown;
  end_time?: unknown;
}

/** A lot's fees at a glance: "20,00 kr/hour weekdays 08–18 · 5,00 kr/hour weekdays 18–08". */
export function feeSummary(fees: readonly Fee[], currency = "SEK"): string {
  const units = list("units");
  const days = list("dayTypes");
  const hhmm = (v: unknown) => String(v ?? "").slice(0, 5);
  return fees
    .map(
      (f) =>
        `${money(Number(f.cost_per_unit ?? 0), currency)}/${units[Number(f.unit ?? 1) - 1] ?? "?"} ${
          days[Number(f.type_of_day ?? 1) - 1] ?? ""
        } ${hhmm(f.start_time)}–${hhmm(f.end_time)}`,
    )
    .join(" · ");
}

/**
 * Asks whether fees that look like a slipped decimal mark are meant (doubtfulFees), each with its
 * reason; true when there are none or the operator says yes.
 */
export function confirmOutliers(fees: readonly FeeEdit[], currency = "SEK"): boolean {
  const doubtful = doubtfulFees(fees);
  if (doubtful.length === 0) return true;
  const lines = doubtful.map((d) =>
    d.why === "others"
      ? t("priceOthers", { amount: money(d.cost, currency), than: money(d.than, currency) })
      : t(d.why === "raised" ? "priceRaised" : "priceLowered", {
          amount: money(d.cost, currency),
          was: money(d.than, currency),
          times: d.why === "raised" ? Math.round(d.cost / d.than) : Math.round(d.than / d.cost),
        }),
  );
  return confirm(`${lines.join("\n")}\n\n${t("priceOutlier")}`);
}

/** What the lot list says for a lot without fees. */
export const noFees = () => h("span", { class: "note" }, t("none"));
