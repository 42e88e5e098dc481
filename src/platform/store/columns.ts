import { type Column, getTableColumns, type SQL, sql, type Table } from "drizzle-orm";

/** A table's columns by the schema's keys (`ticketId`, `plateNorm`). */
export type ColumnKey<T extends Table> = keyof T["_"]["columns"] & string;

/** Each key's SQL name; a key the table does not have throws when the list is made (at start-up). */
function sqlNames(table: Table, keys?: readonly string[]): { key: string; name: string }[] {
  const columns = getTableColumns(table) as Record<string, { name: string } | undefined>;
  return (keys ?? Object.keys(columns)).map((key) => {
    const column = columns[key];
    if (!column) throw new Error(`no column ${key} in the schema`);
    return { key, name: column.name };
  });
}

/**
 * `sql_name AS key, …` for some columns of a table, from the drizzle schema: the statements the
 * hot paths prepare by hand (drizzle's builder costs more per call than they do) name their
 * columns as the schema does, in one list per shape, and a column renamed in the schema renames
 * them. Without keys: every column, in the schema's order.
 */
export function columnList<T extends Table>(table: T, keys?: readonly ColumnKey<T>[]): string {
  return sqlNames(table, keys)
    .map(({ key, name }) => (name === key ? key : `${name} AS ${key}`))
    .join(", ");
}

/** Which parameter binds a column, where it is not the column's own key (one instant for two columns). */
export type BoundTo<T extends Table> = Partial<Record<ColumnKey<T>, string>>;

const param = (key: string, bound: Record<string, string | undefined>) => `$${bound[key] ?? key}`;

/**
 * An INSERT's `(sql_name, …) VALUES ($key, …)` for some columns of a table, from the drizzle
 * schema: the statement binds a row object named as the schema names its columns (on a strict
 * connection bun:sqlite takes the keys without the `$`), never a positional tuple. `bound` names
 * another parameter for a column (`{ createdAt: "at" }`).
 */
export function insertColumns<T extends Table>(
  table: T,
  keys: readonly ColumnKey<T>[],
  bound: BoundTo<T> = {},
): string {
  return `(${columnNames(table, keys)}) VALUES (${keys.map((k) => param(k, bound)).join(", ")})`;
}

/** An UPDATE's `sql_name = $key, …` for some columns of a table, bound as insertColumns binds them. */
export function setColumns<T extends Table>(
  table: T,
  keys: readonly ColumnKey<T>[],
  bound: BoundTo<T> = {},
): string {
  return sqlNames(table, keys)
    .map(({ key, name }) => `${name} = ${param(key, bound)}`)
    .join(", ");
}

/** `sql_name, …` of some columns of a table, as an INSERT names them. */
export function columnNames<T extends Table>(table: T, keys: readonly ColumnKey<T>[]): string {
  return sqlNames(table, keys)
    .map(({ name }) => name)
    .join(", ");
}

/** The value an upsert's conflicting row was offered for a column (`excluded.sql_name`). */
export function excluded(column: Column): SQL {
  return sql`excluded.${sql.identifier(column.name)}`;
}

/** The rowid of a table whose key is not an integer (so the schema has no column for it): insertion order. */
export const ROWID = sql<number>`rowid`;
