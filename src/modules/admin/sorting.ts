import { t } from "elysia";
import { invalid } from "../../domain/errors.ts";
import { isPosition, type SortColumn, type SortValue } from "../../platform/store/keyset.ts";
import { decodeCursor, encodeCursor, notHandedOut } from "./paging.ts";

/**
 * The `sort` parameter of the console's lists: a column's name, descending with a leading `-`
 * (as JSON:API writes it), and the cursors of its pages, which remember the sort they continue.
 */
export function sortParam<const N extends string>(names: readonly N[], fallback: string) {
  const values = names.flatMap((n) => [n, `-${n}`] as const);
  // Literals, not UnionEnum: Elysia fills a missing query UnionEnum with its first value.
  return t.Optional(
    t.Union(
      values.map((v) => t.Literal(v)),
      { description: `A column, descending with a leading '-' (${fallback} unless given)` },
    ),
  );
}

/** The sorted lists: a cursor names its list as a row cursor does, so one list refuses another's. */
export type SortedList = "tickets" | "permits";

export function pageCursor(list: SortedList, sort: string, next: SortValue[]): string {
  return encodeCursor([list, sort, ...next]);
}

/**
 * A list's `sort` and `cursor` parameters read: the order, its direction, and where the page
 * starts (a cursor handed out for another sort is refused).
 */
export function readSort<O extends string>(
  list: SortedList,
  sort: string,
  orders: Record<O, readonly SortColumn[]>,
  cursor: string | undefined,
): { order: O; descending: boolean; after?: SortValue[] } {
  const order = sort.replace(/^-/, "") as O;
  const read = { order, descending: sort.startsWith("-") };
  return cursor ? { ...read, after: readPageCursor(cursor, list, sort, orders[order]) } : read;
}

/** The position a cursor holds; refused when it was handed out for another sort. */
function readPageCursor(
  cursor: string,
  list: SortedList,
  sort: string,
  key: readonly SortColumn[],
): SortValue[] {
  const [, from, ...position] = decodeCursor(
    cursor,
    (v): v is [SortedList, string, ...unknown[]] =>
      Array.isArray(v) && v[0] === list && typeof v[1] === "string",
  );
  if (from !== sort)
    throw invalid(
      [
        {
          pointer: "/cursor",
          message: `This cursor continues sort=${from}; ask again without it`,
          in: "query",
        },
      ],
      "The cursor belongs to another sort",
    );
  if (!isPosition(key, position)) throw notHandedOut();
  return position;
}
