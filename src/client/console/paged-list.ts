import { api, query } from "../api.ts";

type Filter = Record<string, string | number | undefined>;

/**
 * A list the box hands out a page at a time, behind a More button. `search()` takes the filter
 * as it is now; More goes on with that search, not with edits made since; More waits for its
 * page before it takes another click; an answer to an earlier search or page arriving late is
 * dropped (a slow page, a sort clicked twice).
 */
export function pagedList<T>(o: {
  /** The list's path, e.g. `/api/v1/lookups`. */
  path: string;
  more: HTMLButtonElement;
  /** The query of a new search, read when it starts. */
  filter: () => Filter;
  /** Draws a page: the first of a search (`next` false) or one more; `total` when the box counts. */
  show: (rows: T[], next: boolean, total: number | null) => void;
  failed: (e: unknown) => void;
}): { search: () => Promise<void> } {
  let searched: Filter = {};
  let cursor: string | null = null;
  let asked = 0;
  async function load(next: boolean): Promise<void> {
    const mine = ++asked;
    if (!next) searched = o.filter();
    o.more.disabled = true;
    try {
      const page = await api<{ data: T[]; next_cursor: string | null; total?: number | null }>(
        "GET",
        `${o.path}${query({ ...searched, cursor: next ? cursor : undefined })}`,
      );
      if (mine !== asked) return;
      o.show(page.data, next, page.total ?? null);
      cursor = page.next_cursor;
      o.more.hidden = cursor === null;
    } catch (e) {
      if (mine === asked) o.failed(e);
    } finally {
      if (mine === asked) o.more.disabled = false;
    }
  }
  o.more.addEventListener("click", () => void load(true));
  return { search: () => load(false) };
}
