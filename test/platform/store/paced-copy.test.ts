import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openStore, storePath } from "../../../src/platform/store/db.ts";
import { copyStorePaced } from "../../../src/platform/store/paced-copy.ts";
import { tempDirs } from "../../support/temp.ts";

const newDir = tempDirs("parkd-paced-copy-");

/** Every object's definition and every table's rows (with rowids where a table has them). */
function contents(file: string): { schema: unknown[]; rows: Record<string, unknown[]> } {
  const db = new Database(file, { readonly: true });
  try {
    const schema = db
      .query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
      .all() as { type: string; name: string; sql: string | null }[];
    const rows: Record<string, unknown[]> = {};
    for (const t of schema.filter((o) => o.type === "table")) {
      const withoutRowid = /WITHOUT\s+ROWID/i.test(t.sql ?? "");
      rows[t.name] = db
        .query(`SELECT ${withoutRowid ? "" : "rowid AS _rowid_, "}* FROM "${t.name}" ORDER BY 1, 2`)
        .all();
    }
    return { schema, rows };
  } finally {
    db.close(false);
  }
}

/** A store made by the migrations, with rows in the tables a busy site fills, and gaps in their rowids. */
function filledStore(): string {
  const dataDir = newDir();
  openStore(dataDir, { create: true }).close();
  const db = new Database(storePath(dataDir));
  db.run("PRAGMA journal_mode = WAL");
  db.transaction(() => {
    const lookup = db.prepare(
      "INSERT INTO permit_lookups (at, credential, by, query, results) VALUES (?, 'token:handheld', 'registration_number', ?, 1)",
    );
    for (let i = 0; i < 40_000; i++) lookup.run(1_780_000_000_000 + i, `ABC${i}`);
    const ticket = db.prepare(
      `INSERT INTO tickets (ticket_id, zone, start_at, end_at, plate, plate_norm, status, created_at, updated_at)
       VALUES (?, 1002, ?, ?, 'ABC 1', 'ABC1', 'stopped', ?, ?)`,
    );
    for (let i = 0; i < 3000; i++) ticket.run(`t-${i}`, i, i + 60, i, i);
    // Gaps in the rowids, which the copy keeps.
    db.run("DELETE FROM permit_lookups WHERE id % 7 = 0");
    db.run("DELETE FROM tickets WHERE rowid % 5 = 0");
  })();
  db.run("ANALYZE");
  db.close();
  return dataDir;
}

describe("a backup's copy of the store, in steps", () => {
  test("holds every object and every row of the store, rowids and the planner's statistics kept, in steps with rests", () => {
    const dataDir = filledStore();
    const target = join(newDir(), "copy.db");
    const rests: number[] = [];
    copyStorePaced(storePath(dataDir), target, (ms) => rests.push(ms));
    expect(contents(target)).toEqual(contents(storePath(dataDir)));
    // 40,000 lookup records are a few megabytes: more than one step.
    expect(rests.length).toBeGreaterThan(2);
    const copy = new Database(target, { readonly: true });
    expect(copy.query("PRAGMA integrity_check").values()).toEqual([["ok"]]);
    expect(copy.query("PRAGMA journal_mode").values()).toEqual([["delete"]]);
    copy.close(false);
  });

  test("is one instant's store: what serve commits during the copy is not in it", () => {
    const dataDir = filledStore();
    const before = contents(storePath(dataDir));
    const target = join(newDir(), "copy.db");
    const serve = new Database(storePath(dataDir));
    serve.run("PRAGMA busy_timeout = 5000");
    let n = 0;
    copyStorePaced(storePath(dataDir), target, () => {
      // A ticket event and a lookup committed between two steps, on another connection.
      serve.run(
        `INSERT INTO tickets (ticket_id, zone, start_at, end_at, plate, plate_norm, status, created_at, updated_at)
         VALUES (?, 1002, 1, 2, 'NEW 1', 'NEW1', 'stopped', 1, 1)`,
        [`during-${n++}`],
      );
      serve.run(
        "INSERT INTO permit_lookups (at, credential, by, query, results) VALUES (1, 'token:h', 'registration_number', 'NEW1', 0)",
      );
    });
    serve.close();
    expect(n).toBeGreaterThan(0);
    expect(contents(target)).toEqual(before);
  });
});

/** What VACUUM INTO keeps, read by SQL: the header's values, and each row's values with their types and rowid. */
function exactly(file: string): Record<string, unknown> {
  const db = new Database(file, { readonly: true, safeIntegers: true });
  try {
    const out: Record<string, unknown> = {};
    for (const p of ["user_version", "application_id", "page_size"])
      out[p] = String(db.query(`PRAGMA ${p}`).values()[0]![0]);
    const tables = db.query("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
      sql: string;
    }[];
    for (const t of tables) {
      const q = (n: string) => `"${n.replaceAll('"', '""')}"`;
      const cols = (db.query(`PRAGMA table_info(${q(t.name)})`).all() as { name: string }[]).map((c) =>
        q(c.name),
      );
      const withRowid = !/WITHOUT\s+ROWID/i.test(t.sql);
      const row = cols.map((c) => `typeof(${c}) || ':' || quote(${c})`).join(" || '|' || ");
      out[t.name] = db
        .query(`SELECT ${withRowid ? "_rowid_ || '#' || " : ""}${row} FROM ${q(t.name)} ORDER BY 1`)
        .values()
        .map((v) => String(v[0]));
    }
    return out;
  } finally {
    db.close(false);
  }
}

describe("a backup's copy of the store, as VACUUM INTO makes it", () => {
  test("keeps the header's user_version and application_id, rowids below -2^53, a STRICT WITHOUT ROWID table, a column called rowid", () => {
    const dir = newDir();
    const source = join(dir, "store.db");
    const db = new Database(source, { create: true });
    db.run("PRAGMA journal_mode = WAL");
    db.run("PRAGMA user_version = 7");
    db.run("PRAGMA application_id = 1885434724");
    db.run("CREATE TABLE far (id INTEGER PRIMARY KEY, v TEXT)");
    db.run(
      "INSERT INTO far VALUES (-9223372036854775808, 'least'), (-9007199254740993, 'below'), (1, 'one')",
    );
    db.run("CREATE TABLE book (k TEXT PRIMARY KEY, v INTEGER) STRICT, WITHOUT ROWID");
    db.run("INSERT INTO book VALUES ('a', 1)");
    db.run("CREATE TABLE odd (rowid TEXT, v)");
    db.run("INSERT INTO odd VALUES ('z', 1), ('a', 2)");
    const vacuumed = join(dir, "vacuumed.db");
    db.query("VACUUM INTO ?").run(vacuumed);
    db.close();
    const target = join(dir, "copy.db");
    copyStorePaced(source, target, () => {});
    expect(exactly(target)).toEqual(exactly(vacuumed));
  });
});
