import { t } from "elysia";
import { invalid } from "../../domain/errors.ts";
import { formatMicros, parseInstant } from "../../domain/time/zoned.ts";

/**
 * The `cursor` query parameter of every paged list. Long enough for any position this service
 * hands out: a sort value can be a 128-character ticket id or a normalized plate, each character
 * up to six in JSON, and base64url adds a third.
 */
export const CursorParam = t.Optional(
  t.String({ maxLength: 4096, description: "next_cursor of the previous page" }),
);

/** Opaque page cursors for the console's lists: base64url JSON of the last row's position. */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

export function decodeCursor<T>(cursor: string, valid: (v: unknown) => v is T, param = "cursor"): T {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (valid(v)) return v;
  } catch {}
  throw notHandedOut(param);
}

const isRowId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

/** The lists paged by one row id: each cursor names its list, so no list takes another's. */
export type RowList = "changes" | "lookups" | "ticket-events" | "notices";

/** The cursor after row `id` of `list` (a change, a lookup record, a ticket event's seq). */
export const rowCursor = (list: RowList, id: number) => encodeCursor([list, id]);

/** The row id in a cursor `rowCursor(list, …)` handed out; anything else is refused (400). */
export function rowAfter(cursor: string, list: RowList, param = "cursor"): number {
  const isOurs = (v: unknown): v is [RowList, number] =>
    Array.isArray(v) && v.length === 2 && v[0] === list && isRowId(v[1]);
  return decodeCursor(cursor, isOurs, param)[1];
}

/** The refusal of a cursor this service did not hand out (or not for this list). */
export const notHandedOut = (param = "cursor") =>
  invalid(
    [{ pointer: `/${param}`, message: "Expected the next_cursor of a previous page", in: "query" }],
    "The cursor is not one this service handed out",
  );

/** Instants in the admin API as everywhere else: UTC with six fractional digits, as the interface writes them. */
export const iso = (ms: number) => formatMicros(ms);
export const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** Up to `limit` rows of `rows` (fetched with one extra), and whether more follow. */
export function page<T>(rows: T[], limit: number): { rows: T[]; last: T | undefined; more: boolean } {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  return { rows: kept, last: kept[kept.length - 1], more };
}

/** The column each list's cursor names the position in. */
const ROW_KEY = { changes: "id", lookups: "id", "ticket-events": "seq", notices: "number" } as const;

/** A repository's list paged by row id, newest first: `limit` rows from before `before` (none: the newest). */
interface RowPaged<F, R> {
  page(filter: F, before: number | undefined, limit: number): R[];
}

/**
 * One page of a list paged by row id: up to `limit` rows (50 unless the query says) after the
 * query's cursor, as `view` answers them, and the cursor after the last of them.
 */
export function rowPage<L extends RowList, F, R extends Record<(typeof ROW_KEY)[L], number>, V>(
  list: L,
  query: { cursor?: string; limit?: number },
  rows: RowPaged<F, R>,
  filter: F,
  view: (row: R) => V,
): { data: V[]; next_cursor: string | null } {
  const limit = query.limit ?? 50;
  const before = query.cursor ? rowAfter(query.cursor, list) : undefined;
  const p = page(rows.page(filter, before, limit + 1), limit);
  return {
    data: p.rows.map((row) => view(row)),
    next_cursor: p.more && p.last ? rowCursor(list, p.last[ROW_KEY[list]]) : null,
  };
}

/** A `from` or `to` query parameter: ISO 8601, a date alone being the start of that day on site. */
export function instant(
  value: string | undefined,
  name: "from" | "to",
  timezone: string,
): number | undefined {
  if (value === undefined) return undefined;
  const at = parseInstant(value, timezone);
  if (at === null)
    throw invalid([{ pointer: `/${name}`, message: "Expected an ISO 8601 date or date-time", in: "query" }]);
  return at;
}
