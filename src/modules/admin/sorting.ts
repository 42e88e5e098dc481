import { t } from "elysia";
import { invalid } from "../../domain/errors.ts";
import { isPosition, type SortColumn, type SortValue } from "../../platform/store/sorted-page.ts";
import { decodeCursor, encodeCursor } from "./paging.ts";

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

export function pageCursor(sort: string, next: SortValue[]): string {
  return encodeCursor([sort, ...next]);
}

/** The position a cursor holds; refused when it was handed out for another sort. */
export function readPageCursor(cursor: string, sort: string, key: SortColumn[]): SortValue[] {
  const [from] = decodeCursor(cursor, (v): v is [string] => Array.isArray(v) && typeof v[0] === "string");
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
  const [, ...position] = decodeCursor(cursor, (v): v is [string, ...SortValue[]] =>
    isPosition(key, (v as unknown[]).slice(1)),
  );
  return position;
}
