import { field, h } from "../dom.ts";
import { t } from "../i18n.ts";
import { isoOf } from "./datetime.ts";

/** A search form's fields as the API takes them, by name: the times (`from`, `to`) as instants. */
export function searchOf(
  form: HTMLFormElement,
  names: readonly string[],
): Record<string, string | undefined> {
  return Object.fromEntries(
    names.map((name) => [
      name,
      name === "from" || name === "to" ? isoOf(field(form, name)) : field(form, name),
    ]),
  );
}

/** Fills a search form as the address holds it: a shared link or Back searches as it was. */
export function fillFrom(given: URLSearchParams, form: HTMLFormElement, names: readonly string[]): void {
  for (const name of names) {
    const el = form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
    el.value = given.get(name) ?? "";
  }
}

/** What every list's search form ends with: the time it covers, in site time, and the button. */
export function timeAndSearch(): HTMLElement[] {
  return [
    h("input", { name: "from", type: "datetime-local", "aria-label": t("from") }),
    h("input", { name: "to", type: "datetime-local", "aria-label": t("to") }),
    h("button", { type: "submit" }, t("search")),
  ];
}
