import type { Database } from "bun:sqlite";

/**
 * Keyset pages of a list in any of its sort orders, for the console's lists. A page continues
 * after the last row of the previous one (its key values and rowid), so a deep page costs what the
 * first one does, and a row written meanwhile never shifts a page the way an offset would.
 *
 * NULL sorts as SQLite (and so an index) keeps it: first ascending, last descending. The owner of
 * the table passes its own SELECT text, so its SQL stays in its file; this builds the rest.
 */

/** One column of a sort key, and the field of a row read that holds its value. */
export interface SortColumn {
  column: string;
  field: string;
  /** Text; else a whole number. */
  text?: boolean;
  nullable?: boolean;
}

export type SortValue = number | string | null;

export interface PageSpec {
  /** `SELECT …, rowid AS position FROM <table>`: the columns wanted, the key's among them. */
  select: string;
  /** Filter terms, ANDed, with `$name` parameters given in `params`. */
  where: string[];
  params: Record<string, string | number>;
  /** The sort's columns; the rowid breaks ties, so every order is total. */
  key: SortColumn[];
  descending: boolean;
  /** The previous page's last row: its key values, then its rowid. */
  after?: SortValue[];
  limit: number;
}

export interface Positioned {
  position: number;
}

/**
 * Up to `limit` rows after `spec.after`, and the position to pass as `after` for the next page
 * (null on the last one): the last row's key fields, then its rowid.
 */
export function sortedPage<T extends Positioned>(
  sqlite: Database,
  spec: PageSpec,
): { rows: T[]; next: SortValue[] | null } {
  const want = spec.limit + 1;
  const rows: T[] = [];
  for (const q of pageQueries(spec)) {
    if (rows.length >= want) break;
    // Not cached: a handful of shapes, asked for by hand from the console.
    // A loop, not push(...): a list asked for without a limit may hold more rows than a call takes arguments.
    for (const row of sqlite.prepare<T, [Params]>(q.sql).all({ ...q.params, limit: want - rows.length }))
      rows.push(row);
  }
  const more = rows.length > spec.limit;
  const kept = more ? rows.slice(0, spec.limit) : rows;
  const last = kept[kept.length - 1];
  const next = more && last ? [...spec.key.map((c) => fieldOf(last, c.field)), last.position] : null;
  return { rows: kept, next };
}

const fieldOf = (row: object, field: string) => (row as Record<string, SortValue>)[field] ?? null;

/** Filter terms for columns that must equal a value, each left out when its value is not given. */
export function equalTo(
  values: Record<string, string | number | undefined>,
): Pick<PageSpec, "where" | "params"> {
  const where: string[] = [];
  const params: Record<string, string | number> = {};
  for (const [column, v] of Object.entries(values))
    if (v !== undefined) {
      where.push(`${column} = $${column}`);
      params[column] = v;
    }
  return { where, params };
}

type Params = Record<string, string | number>;

/** The statements one page takes, in order, each with its parameters but `$limit`. */
export function pageQueries(spec: PageSpec): { sql: string; params: Params }[] {
  return parts(spec).map((part) => {
    const where = [...spec.where, ...part.where];
    return {
      sql: `${spec.select} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY ${orderBy(spec)} LIMIT $limit`,
      params: { ...spec.params, ...part.params },
    };
  });
}

/** The ORDER BY clause SQL text: each key column, then rowid, all one way. */
export function orderBy(spec: Pick<PageSpec, "key" | "descending">): string {
  const way = spec.descending ? "DESC" : "ASC";
  return [...spec.key.map((c) => c.column), "rowid"].map((c) => `${c} ${way}`).join(", ");
}

interface Part {
  where: string[];
  params: Record<string, string | number>;
}

/**
 * The queries one page takes, in order: one, except where the page starts at the edge of a
 * leading nullable column's NULLs. Descending, they come last, below every value, and "after
 * this value, or NULL" is not a range an index can serve, so the NULLs are asked for second.
 * Ascending from among them, "NULL after this rowid, or any value" is not one either: the rest of
 * the NULLs first, then the values.
 */
function parts(spec: PageSpec): Part[] {
  const after = spec.after;
  if (!after) return [{ where: [], params: {} }];
  const [lead] = spec.key;
  const params: Record<string, string | number> = {};
  if (lead?.nullable && spec.descending && after[0] !== null) {
    const rest = beyond(spec.key, after, 1, true, params);
    return [
      {
        where: [`${lead.column} <= $k0`, `(${lead.column} < $k0 OR (${lead.column} = $k0 AND ${rest}))`],
        params: { ...params, k0: after[0] as string | number },
      },
      { where: [`${lead.column} IS NULL`], params: {} },
    ];
  }
  if (lead?.nullable && !spec.descending && after[0] === null) {
    const rest = beyond(spec.key, after, 1, false, params);
    return [
      { where: [`${lead.column} IS NULL`, rest], params },
      { where: [`${lead.column} IS NOT NULL`], params: {} },
    ];
  }
  const where = [beyond(spec.key, after, 0, spec.descending, params)];
  // The leading column bounds the scan: the index is entered at the previous page's last value.
  if (lead && after[0] !== null) where.unshift(`${lead.column} ${spec.descending ? "<=" : ">="} $k0`);
  return [{ where, params }];
}

/** The rows that sort after `after`, from key column `i` on (the rowid last). */
function beyond(
  key: SortColumn[],
  after: SortValue[],
  i: number,
  descending: boolean,
  params: Record<string, string | number>,
): string {
  const op = descending ? "<" : ">";
  const v = after[i];
  if (i === key.length) {
    params[`k${i}`] = v as number;
    return `rowid ${op} $k${i}`;
  }
  const { column, nullable } = key[i]!;
  const rest = beyond(key, after, i + 1, descending, params);
  if (v === null)
    return descending
      ? `(${column} IS NULL AND ${rest})`
      : `(${column} IS NOT NULL OR (${column} IS NULL AND ${rest}))`;
  params[`k${i}`] = v as string | number;
  const later =
    nullable && descending ? `${column} ${op} $k${i} OR ${column} IS NULL` : `${column} ${op} $k${i}`;
  return `(${later} OR (${column} = $k${i} AND ${rest}))`;
}

/**
 * Whether `v` could be a position of a sort with `key`: a value of each column's type (null only
 * where allowed), then a rowid. A value of another type would sort before or after every row.
 */
export function isPosition(key: SortColumn[], v: unknown): v is SortValue[] {
  if (!Array.isArray(v) || v.length !== key.length + 1 || !Number.isSafeInteger(v[key.length])) return false;
  return key.every((c, i) => {
    const x = v[i];
    return x === null ? c.nullable === true : c.text ? typeof x === "string" : Number.isSafeInteger(x);
  });
}
