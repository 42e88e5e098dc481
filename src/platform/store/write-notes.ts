import type { Database, Statement } from "bun:sqlite";

/**
 * The id of every row written to a table on this connection, by whatever code (a repository, a
 * test's own insert, retention), noted by temporary triggers until taken: what LivePermits reads
 * again. A write rolled back takes its note back with it. Made by the table's repository, which
 * names the table; one set of notes per table and connection.
 */
export class WriteNotes<Id extends string | number> {
  private readonly take: Statement<{ id: Id }, []>;
  private readonly clear: Statement<void, []>;

  constructor(sqlite: Database, table: string, idColumn: string, idType: "TEXT" | "INTEGER") {
    const notes = `parkd_written_${table}`;
    sqlite.run(`CREATE TEMP TABLE IF NOT EXISTS ${notes} (id ${idType} PRIMARY KEY)`);
    // Not INSERT OR IGNORE: an upsert on the table (the office pull's) imposes its own conflict
    // handling on the trigger's insert, and a second note for the same id would fail it.
    for (const [op, row] of [
      ["INSERT", "NEW"],
      ["UPDATE", "OLD"],
      ["DELETE", "OLD"],
    ] as const)
      sqlite.run(
        `CREATE TEMP TRIGGER IF NOT EXISTS ${notes}_${op.toLowerCase()} AFTER ${op} ON main.${table}
         BEGIN INSERT INTO ${notes} (id) SELECT ${row}.${idColumn}
           WHERE NOT EXISTS (SELECT 1 FROM ${notes} WHERE id = ${row}.${idColumn}); END`,
      );
    this.take = sqlite.prepare(`SELECT id FROM ${notes}`);
    this.clear = sqlite.prepare(`DELETE FROM ${notes}`);
  }

  /** The ids noted since the last call. */
  taken(): Id[] {
    const rows = this.take.all();
    if (rows.length === 0) return [];
    this.clear.run();
    return rows.map((r) => r.id);
  }
}
