import { type Child, h } from "../dom.ts";
import { t } from "../i18n.ts";

/**
 * Sortable column headings: a button in each heading the box can sort by, the heading's
 * aria-sort saying the order shown. The first click sorts the way the column is usually read
 * (newest first for times), the next one the other way.
 */
export interface Column {
  label: string;
  /** The API's sort name; none when the box cannot sort by this column. */
  sort?: string;
  /** Descending first (times: newest first). */
  newestFirst?: boolean;
}

export class SortedHeadings {
  /** The heading clicked last: its button, drawn again, takes the focus back (keyboard users stay put). */
  private clicked: string | null = null;

  constructor(
    public sort: string,
    private readonly changed: () => void,
  ) {}

  /** The heading cells as the sort stands now (drawn again after each change). */
  cells(columns: Column[]): HTMLElement[] {
    return columns.map((c) => {
      if (!c.sort) return h("th", null, c.label);
      const name = c.sort;
      const way = this.sort === name ? "ascending" : this.sort === `-${name}` ? "descending" : "none";
      const first = c.newestFirst ? `-${name}` : name;
      const button = h(
        "button",
        {
          type: "button",
          class: "sort",
          "data-sort": name,
          title: t("sortBy", { column: c.label }),
          onclick: () => {
            this.sort = way === "ascending" ? `-${name}` : way === "descending" ? name : first;
            this.clicked = name;
            this.changed();
          },
        },
        c.label,
        h("span", { "aria-hidden": "true", class: "arrow" }, arrows[way]),
      );
      if (this.clicked === name) {
        this.clicked = null;
        // Drawn now and put in the page by the caller in the same turn: focused once it is there.
        queueMicrotask(() => button.focus());
      }
      return h("th", { "aria-sort": way }, button);
    });
  }

  /** A heading row for a table whose body is filled elsewhere. */
  row(columns: Column[]): Child {
    return h("tr", null, this.cells(columns));
  }
}

// A no-break space keeps the arrow beside the last word of a wrapped heading.
const arrows = { ascending: "\u00a0▲", descending: "\u00a0▼", none: "\u00a0↕" };
