/**
 * A consistent copy of a store written in small synced steps with rests between, for a backup
 * beside a serving box. `VACUUM INTO` writes the whole copy at the disk's full pace in one
 * statement: on a small box the hundreds of megabytes it leaves for the kernel to write back
 * make every ticket event's sync (each waits on one) queue behind them for up to a second.
 *
 * What VACUUM INTO does, made by hand: one transaction on a connection to the new file with the
 * store attached, so every read of the store is one snapshot (WAL: serve keeps committing); the
 * schema's tables and indexes made first, each table's rows copied in rowid order a step at a
 * time, what SQLite wrote synced and dropped from the page cache (page-cache.ts) after each step,
 * then `rest`. The new file has no journal and no syncs of SQLite's own: it has no name yet and
 * any failure deletes it; the caller checks and syncs it before it is named.
 */
import { Database } from "bun:sqlite";
import { closeSync, fdatasyncSync, openSync } from "node:fs";
import { forgetPages } from "./page-cache.ts";

/** Bytes written to the copy between two syncs (and rests). */
const STEP_BYTES = 1024 * 1024;
/** The rows of the first step of a table; later steps are sized from the bytes rows took. */
const FIRST_STEP_ROWS = 1000;
const MAX_STEP_ROWS = 100_000;

interface SchemaObject {
  type: "table" | "index" | "trigger" | "view";
  name: string;
  sql: string;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Copies the store at `source` into the new file `target`; `rest` is called after each step with the time it took. */
export function copyStorePaced(source: string, target: string, rest: (tookMs: number) => void): void {
  const out = new Database(target, { create: true, readwrite: true });
  let fd: number | undefined;
  try {
    out.run("PRAGMA journal_mode = OFF");
    out.run("PRAGMA synchronous = OFF");
    out.run("PRAGMA busy_timeout = 5000");
    out.query("ATTACH ? AS src").run(source);
    const pragma = (name: string) =>
      (out.query(`PRAGMA src.${name}`).values()[0]?.[0] as number | undefined) ?? 0;
    // Before the first table: both are fixed once the file has one.
    out.run(`PRAGMA main.page_size = ${pragma("page_size")}`);
    out.run(`PRAGMA main.auto_vacuum = ${pragma("auto_vacuum")}`);
    // The header's own values, which VACUUM INTO copies too.
    out.run(`PRAGMA main.user_version = ${pragma("user_version")}`);
    out.run(`PRAGMA main.application_id = ${pragma("application_id")}`);
    fd = openSync(target, "r");
    out.run("BEGIN");
    // The first read of src takes the snapshot the whole copy is of.
    const objects = out
      .query(
        "SELECT type, name, sql FROM src.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
      )
      .all() as SchemaObject[];
    const tables = objects.filter((o) => o.type === "table");
    // Indexes first: the rows' inserts then build them, paced with the rows, rather than a
    // CREATE INDEX writing each at once at the end.
    for (const o of objects) if (o.type === "table" || o.type === "index") out.run(o.sql);
    let stepStarted = performance.now();
    let written = pageBytes(out);
    const stepDone = (force: boolean) => {
      const now = pageBytes(out);
      if (!force && now - written < STEP_BYTES) return;
      // SQLite's own cache still holds the step's last pages; they reach the file at the commit,
      // or when the cache spills. What is in the file now goes to the disk and out of memory.
      fdatasyncSync(fd!);
      forgetPages(fd!);
      written = now;
      rest(performance.now() - stepStarted);
      stepStarted = performance.now();
    };
    for (const t of tables) {
      const name = quoted(t.name);
      const info = out
        .query("SELECT wr FROM pragma_table_list WHERE schema = 'src' AND name = ?")
        .get(t.name) as { wr: number } | null;
      const columnList = out.query(`PRAGMA src.table_info(${name})`).all() as { name: string }[];
      // The rowid by a name no column takes (a column may be called rowid).
      const taken = new Set(columnList.map((c) => c.name.toLowerCase()));
      const rowid = ["rowid", "_rowid_", "oid"].find((n) => !taken.has(n));
      if (info?.wr === 1 || rowid === undefined) {
        // WITHOUT ROWID (the revenue book: one row a day and zone, small), or a table whose
        // columns take every name of its rowid (none here): copied whole.
        out.run(`INSERT INTO main.${name} SELECT * FROM src.${name}`);
        stepDone(false);
        continue;
      }
      const columns = columnList.map((c) => quoted(c.name)).join(", ");
      // The rowid is kept, as VACUUM keeps it where a column names it.
      const copyStep = out.query(
        `INSERT INTO main.${name} (${rowid}, ${columns}) SELECT ${rowid}, ${columns} FROM src.${name} WHERE ${rowid} > ?1 ORDER BY ${rowid} LIMIT ?2`,
      );
      const firstStep = out.query(
        `INSERT INTO main.${name} (${rowid}, ${columns}) SELECT ${rowid}, ${columns} FROM src.${name} ORDER BY ${rowid} LIMIT ?1`,
      );
      const lastCopied = out.query(`SELECT max(${rowid}) AS last FROM main.${name}`);
      // None yet: the first step starts at the least rowid, which may be as low as -2^63.
      let after: number | bigint | null = null;
      let rows = FIRST_STEP_ROWS;
      for (;;) {
        const before = pageBytes(out);
        const copied = (after === null ? firstStep.run(rows) : copyStep.run(after, rows)).changes;
        if (copied > 0) after = (lastCopied.get() as { last: number | bigint }).last;
        stepDone(false);
        if (copied < rows) break;
        // The next step's rows, from what these took: about STEP_BYTES a step.
        const perRow = Math.max(1, (pageBytes(out) - before) / copied);
        rows = Math.min(MAX_STEP_ROWS, Math.max(100, Math.round(STEP_BYTES / perRow)));
      }
    }
    if (hasTable(out, "src", "sqlite_sequence")) {
      out.run("DELETE FROM main.sqlite_sequence");
      out.run("INSERT INTO main.sqlite_sequence SELECT * FROM src.sqlite_sequence");
    }
    if (hasTable(out, "src", "sqlite_stat1")) {
      // The planner's statistics: ANALYZE of the schema table alone makes the table to hold them.
      out.run("ANALYZE main.sqlite_master");
      out.run("DELETE FROM main.sqlite_stat1");
      out.run("INSERT INTO main.sqlite_stat1 SELECT * FROM src.sqlite_stat1");
    }
    for (const o of objects) if (o.type === "view" || o.type === "trigger") out.run(o.sql);
    out.run("COMMIT");
    stepDone(true);
  } finally {
    if (fd !== undefined) closeSync(fd);
    out.close(false);
  }
}

/** The copy's size as SQLite counts it: its pages. */
function pageBytes(db: Database): number {
  const count = db.query("PRAGMA main.page_count").values()[0]![0] as number;
  const size = db.query("PRAGMA main.page_size").values()[0]![0] as number;
  return count * size;
}

function hasTable(db: Database, schema: string, name: string): boolean {
  return (
    db.query(`SELECT 1 FROM ${schema}.sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== null
  );
}
