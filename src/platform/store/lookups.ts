import type { Database, Statement } from "bun:sqlite";
import { commitRelaxed } from "./connection.ts";

/** The one owner of the `permit_lookups` table: who looked up what, when, with how many results. */

export type LookupKind = "registration_number" | "zone" | "zone_list" | "verdict";

export interface LookupRecord {
  at: number;
  credential: string;
  by: LookupKind;
  /** The normalized plate or the zone number; a verdict: `PLATE@ZONE`. */
  query: string;
  results: number;
}

/** A stored record with its id, as the office gets it. */
export interface StoredLookup extends LookupRecord {
  id: number;
}

const MANY = 50;

export class LookupRecords {
  private readonly insert: Statement<void, [number, string, string, string, number]>;
  private readonly insertMany: Statement<void, (string | number)[]>;
  private readonly deleteOldest: Statement<void, [number, number]>;
  private readonly countOlder: Statement<{ n: number }, [number]>;
  private readonly afterId: Statement<StoredLookup, [number, number]>;

  constructor(private readonly sqlite: Database) {
    this.insert = sqlite.prepare(
      "INSERT INTO permit_lookups (at, credential, by, query, results) VALUES (?1, ?2, ?3, ?4, ?5)",
    );
    this.insertMany = sqlite.prepare(
      `INSERT INTO permit_lookups (at, credential, by, query, results) VALUES ${Array(MANY).fill("(?, ?, ?, ?, ?)").join(", ")}`,
    );
    this.deleteOldest = sqlite.prepare(
      "DELETE FROM permit_lookups WHERE id IN (SELECT id FROM permit_lookups WHERE at < ?1 ORDER BY at LIMIT ?2)",
    );
    this.countOlder = sqlite.prepare("SELECT count(*) AS n FROM permit_lookups WHERE at < ?1");
    this.afterId = sqlite.prepare(
      "SELECT id, at, credential, by, query, results FROM permit_lookups WHERE id > ?1 ORDER BY id LIMIT ?2",
    );
  }

  /** One relaxed commit for the batch: records are not acknowledged to anyone (see LookupRecorder). */
  append(batch: readonly LookupRecord[]): void {
    commitRelaxed(this.sqlite, () => {
      let i = 0;
      // Many rows per statement: a statement run costs about as much as the rows it writes.
      for (; i + MANY <= batch.length; i += MANY) {
        const values: (string | number)[] = [];
        for (let k = i; k < i + MANY; k++) {
          const r = batch[k]!;
          values.push(r.at, r.credential, r.by, r.query, r.results);
        }
        this.insertMany.run(...values);
      }
      for (; i < batch.length; i++) {
        const r = batch[i]!;
        this.insert.run(r.at, r.credential, r.by, r.query, r.results);
      }
    });
  }

  /** Deletes up to `batch` of the oldest records before the cutoff; returns how many. */
  deleteBefore(cutoff: number, batch: number): number {
    return this.deleteOldest.run(cutoff, batch).changes;
  }

  countBefore(cutoff: number): number {
    return this.countOlder.get(cutoff)?.n ?? 0;
  }

  /** The next records after the cursor, in id order (sync with the office). */
  after(id: number, limit: number): StoredLookup[] {
    return this.afterId.all(id, limit);
  }

  /** The highest id ever handed out (AUTOINCREMENT keeps it past deletions). */
  lastId(): number {
    const q = `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'permit_lookups'), 0),
      coalesce((SELECT max(id) FROM permit_lookups), 0)) AS id`;
    return this.sqlite.query<{ id: number }, []>(q).get()!.id;
  }

  /** New records get ids above `id` (after a restore, the office holds ids handed out again). */
  continueAfter(id: number): void {
    this.sqlite.transaction(() => {
      this.sqlite.run("DELETE FROM sqlite_sequence WHERE name = 'permit_lookups' AND seq < ?1", [id]);
      const add =
        "INSERT INTO sqlite_sequence (name, seq) SELECT 'permit_lookups', ?1 WHERE changes() > 0 OR";
      this.sqlite.run(`${add} NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'permit_lookups')`, [
        id,
      ]);
    })();
  }

  /** Records newest first, before the record with id `before` (exclusive). */
  page(before: number | undefined, limit: number): (LookupRecord & { id: number })[] {
    return this.sqlite
      .prepare<LookupRecord & { id: number }, [number, number]>(
        `SELECT id, at, credential, by, query, results FROM permit_lookups WHERE id < ?1
         ORDER BY id DESC LIMIT ?2`,
      )
      .all(before ?? Number.MAX_SAFE_INTEGER, limit);
  }
}
