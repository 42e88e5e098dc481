import { type Child, h, prevented } from "../dom.ts";

/**
 * Tables scroll sideways on a phone: one that does must be reachable by keyboard, so every data
 * table takes focus (tabindex 0) and can then be scrolled with the arrow keys.
 */
export const SCROLLS = { tabindex: 0 };

/** A plain table: headings (text, or cells made elsewhere, such as sortable ones), then one row per item. */
export function table<T>(
  heads: (string | HTMLElement)[],
  items: T[],
  row: (item: T) => Child[],
  attrs: Record<string, unknown> = {},
) {
  return h(
    "table",
    { ...SCROLLS, ...attrs },
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        heads.map((x) => (typeof x === "string" ? h("th", null, x) : x)),
      ),
    ),
    h(
      "tbody",
      null,
      items.map((item) =>
        h(
          "tr",
          null,
          row(item).map((c) => h("td", null, c)),
        ),
      ),
    ),
  );
}

/**
 * A link to an object's own address (`#/lots/3`) that opens it beside the list, without drawing
 * the page again; the address it leaves can be bookmarked.
 */
export function openingLink(
  address: string,
  text: string,
  open: () => unknown,
  attrs: Record<string, unknown> = {},
) {
  return h(
    "a",
    {
      href: address,
      ...attrs,
      onclick: prevented(() => {
        history.pushState(null, "", address);
        return open();
      }),
    },
    text,
  );
}

export function problemText(e: unknown): string {
  const err = e as { message?: string; problem?: { errors?: { pointer: string; message: string }[] } };
  const fields = err.problem?.errors?.map((f) => `${f.pointer}: ${f.message}`).join("; ");
  return fields ? `${err.message ?? ""} (${fields})` : (err.message ?? String(e));
}

/** A list page's filters and sort as the address holds them: its query, after the page's path. */
export function addressed(): URLSearchParams {
  const q = location.hash.indexOf("?");
  return new URLSearchParams(q < 0 ? "" : location.hash.slice(q + 1));
}
