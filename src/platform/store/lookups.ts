import type { Database, Statement } from "bun:sqlite";
import { commitRelaxed } from "./connection.ts";

/** The one owner of the `permit_lookups` table: who looked up what, when, with how many results. */

export type LookupKind = "registration_number" | "zone" | "zone_list";

export interface LookupRecord {
  at: number;
  credential: string;
  by: LookupKind;
  /** The normalized plate or the zone number. */
  query: string;
  results: number;
}

const MANY = 50;

export class LookupRecords {
  private readonly insert: Statement<void, [number, string, string, string, number]>;
  private readonly insertMany: Statement<void, (string | number)[]>;
  private readonly deleteOldest: Statement<void, [number, number]>;
  private readonly countOlder: Statement<{ n: number }, [number]>;

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
