import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  type SQLWrapper,
} from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * Keyset pages of the console's sorted lists, as drizzle conditions on the schema's columns. A
 * page continues after the last row of the previous one (its key values and its rowid), so a deep
 * page costs what the first one does, and a row written meanwhile never shifts a page the way an
 * offset would.
 *
 * NULL sorts as SQLite (and so an index) keeps it: first ascending, last descending. The owner of
 * the table builds its own select with these conditions and this order, so its query stays in its file.
 */

export type SortValue = number | string | null;

/** One column of a sort key: a column of the schema (its type and NOT NULL say what a position holds). */
export type SortColumn = SQLiteColumn;

export interface Keyset {
  /** The sort's columns; the tiebreaker follows them, so every order is total. */
  key: readonly SortColumn[];
  /** The rowid (or the integer primary key that is it). */
  tie: SQLWrapper;
  descending: boolean;
  /** The previous page's last row: its key values, then its rowid. */
  after?: SortValue[];
}

/** A list's sort as its statements take it: the ORDER BY terms, and each page statement's condition. */
export interface SortedKeyset extends Keyset {
  order: SQL[];
  parts: (SQL | undefined)[];
}

export function sortedBy(k: Keyset): SortedKeyset {
  return { ...k, order: keysetOrder(k), parts: keysetParts(k) };
}

/** The ORDER BY terms: each key column, then the tiebreaker, all one way. */
function keysetOrder(k: Keyset): SQL[] {
  return [...k.key, k.tie].map((c) => (k.descending ? desc(c) : asc(c)));
}

const nullable = (c: SortColumn) => !c.notNull;

/**
 * The conditions of the statements one page takes, in order: one, except where the page starts
 * at the edge of a leading nullable column's NULLs. Descending, they come last, below every value,
 * and "after this value, or NULL" is not a range an index can serve, so the NULLs are asked for
 * second. Ascending from among them, "NULL after this rowid, or any value" is not one either: the
 * rest of the NULLs first, then the values. The first page has no condition of its own.
 */
function keysetParts(k: Keyset): (SQL | undefined)[] {
  const { after, key, descending } = k;
  if (!after) return [undefined];
  const [lead] = key;
  const v0 = after[0];
  if (lead && nullable(lead) && descending && v0 !== null && v0 !== undefined)
    return [and(lte(lead, v0), or(lt(lead, v0), and(eq(lead, v0), beyond(k, after, 1)))), isNull(lead)];
  if (lead && nullable(lead) && !descending && v0 === null)
    return [and(isNull(lead), beyond(k, after, 1)), isNotNull(lead)];
  // The leading column bounds the scan: the index is entered at the previous page's last value.
  if (lead && v0 !== null && v0 !== undefined)
    return [and(descending ? lte(lead, v0) : gte(lead, v0), beyond(k, after, 0))];
  return [beyond(k, after, 0)];
}

/** The rows that sort after `after`, from key column `i` on (the tiebreaker last). */
function beyond(k: Keyset, after: SortValue[], i: number): SQL | undefined {
  const later = k.descending ? lt : gt;
  const v = after[i] ?? null;
  if (i === k.key.length) return later(k.tie, v);
  const column = k.key[i]!;
  const rest = beyond(k, after, i + 1);
  if (v === null)
    return k.descending ? and(isNull(column), rest) : or(isNotNull(column), and(isNull(column), rest));
  const past = nullable(column) && k.descending ? or(later(column, v), isNull(column)) : later(column, v);
  return or(past, and(eq(column, v), rest));
}

/**
 * Up to `limit` rows, read by `read` with each of the page's conditions in turn (it applies the
 * list's filters, `k.order` and the limit it is given), and the position to pass as `after` for
 * the next page (null on the last one): the last row's key values, then its rowid. `fields` is
 * what the select reads: every key column among them, and the tiebreaker as `position`.
 */
export function keysetPage<T extends { position: number }>(
  k: SortedKeyset,
  limit: number,
  fields: Record<string, unknown>,
  read: (where: SQL | undefined, limit: number) => T[],
): { rows: T[]; next: SortValue[] | null } {
  const names = k.key.map((c) => {
    const name = Object.keys(fields).find((f) => fields[f] === c);
    if (name === undefined) throw new Error(`the sort column ${c.name} is not selected`);
    return name;
  });
  const want = limit + 1;
  const rows: T[] = [];
  for (const where of k.parts) {
    if (rows.length >= want) break;
    // A loop, not push(...): a list asked for without a limit may hold more rows than a call takes arguments.
    for (const row of read(where, want - rows.length)) rows.push(row);
  }
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1] as (T & Record<string, SortValue>) | undefined;
  return { rows: kept, next: more && last ? [...names.map((n) => last[n] ?? null), last.position] : null };
}

/**
 * Whether `v` could be a position of a sort with `key`: a value of each column's type (null only
 * where allowed), then a rowid. A value of another type would sort before or after every row.
 */
export function isPosition(key: readonly SortColumn[], v: unknown): v is SortValue[] {
  if (!Array.isArray(v) || v.length !== key.length + 1 || !Number.isSafeInteger(v[key.length])) return false;
  return key.every((c, i) => {
    const x = v[i];
    return x === null
      ? nullable(c)
      : c.dataType === "string"
        ? typeof x === "string"
        : Number.isSafeInteger(x);
  });
}
