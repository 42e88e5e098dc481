import { type Child, field, h, prevented } from "../dom.ts";
import { lang } from "../i18n.ts";

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

/** What a list page's search takes to put itself in the address and its CSV link. */
export interface SearchAddress {
  form: HTMLFormElement;
  /** The form's fields the address holds. */
  fields: readonly string[];
  /** The page's own address, `#/notices`. */
  page: string;
  /** Address parameters beyond the fields (a sort other than the page's first). */
  extra?: Record<string, string>;
  /** The search as the API takes it; empty values left out. */
  query: Record<string, string | undefined>;
  csv: HTMLAnchorElement;
  /** The export's path, `/api/v1/notices.csv`. */
  csvPath: string;
  /** The search the page opens with is the address's own (or a record's): nothing to add to history. */
  opening: boolean;
}

/**
 * A list page's new search put where it is kept: the form's fields into the address (Back and a
 * shared link come back to it), and the CSV link to the same search in the reader's own variant.
 */
export function addressSearch(s: SearchAddress): void {
  const q = new URLSearchParams();
  for (const name of s.fields) {
    const v = field(s.form, name);
    if (v) q.set(name, v);
  }
  for (const [k, v] of Object.entries(s.extra ?? {})) q.set(k, v);
  const address = q.size ? `${s.page}?${q}` : s.page;
  if (!s.opening && address !== location.hash) history.pushState(null, "", address);
  const api = new URLSearchParams();
  for (const [k, v] of Object.entries(s.query)) if (v) api.set(k, v);
  api.set("variant", lang === "sv" ? "se" : "rfc4180");
  s.csv.href = `${s.csvPath}?${api}`;
}
