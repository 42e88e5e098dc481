import type { Database, Statement } from "bun:sqlite";
import { columnList, columnNames, insertColumns } from "./columns.ts";
import { commitRelaxed } from "./connection.ts";
import { LOOKUP_STRETCH_BITS, permitLookups } from "./schema/index.ts";

/**
 * The one owner of the `permit_lookups` table: who looked up what, when, with how many results.
 * Hand-prepared: every attendant lookup records one (the enforcement hot path, in relaxed
 * batches), the sync pushes them to the office in bulk, and the audit's pages are index-checked
 * statement by statement (query-plans.test.ts).
 */

export type { LookupKind } from "./lookup-kinds.ts";

import type { LookupKind } from "./lookup-kinds.ts";

/** A type, not an interface: bun:sqlite binds it as named parameters. */
export type LookupRecord = {
  at: number;
  credential: string;
  by: LookupKind;
  /** The normalized plate (a plate lookup, a read of its checks) or the zone number; a verdict, a mark (observation) or a notice: `PLATE@ZONE`. */
  query: string;
  results: number;
  /** A verdict's state, or the verdict a notice follows; null for every other lookup. */
  verdict: "valid_here" | "grace" | "over_time_limit" | "valid_elsewhere" | "outside_hours" | "none" | null;
  /** A verdict's plate as the handheld's camera read it (it may have been corrected since); null when typed. */
  cameraRead: string | null;
};

const RECORD_KEYS = [
  "at",
  "credential",
  "by",
  "query",
  "results",
  "verdict",
  "cameraRead",
] as const satisfies readonly (keyof LookupRecord)[];

/** A stored record with its id, as the office gets it. */
export interface StoredLookup extends LookupRecord {
  id: number;
}

const MANY = 50;

/** What the audit narrows the lookup records to; every field optional. */
export interface LookupFilter {
  /** A normalized plate: its plate lookups and its verdicts (recorded as PLATE@ZONE). */
  plate?: string;
  /** A credential label, e.g. token:handheld-1. */
  credential?: string;
  /** Inclusive lower bound on `at` (ms). */
  from?: number;
  /** Exclusive upper bound on `at` (ms). */
  to?: number;
  /** Only these kinds of record (a plate check is registration_number, verdict, offline_verdict). */
  kinds?: readonly LookupKind[];
}

/** Named parameters as bun:sqlite takes them on a strict connection: without the `$`. */
type Params = Record<string, string | number>;

/**
 * The plate index (`permit_lookups_plate`) orders what was asked within stretches of 2^14 records
 * by id. A batch of records then writes into the newest stretch's few pages; one index on
 * (query, id) over the whole table took a random page per record, and a batch of 500 against a
 * million rows spent 20 ms in its commit (bench/notes.md, "The lookup records' index in
 * stretches"). A plate's page reads the stretches newest first, STRETCHES_READ at a time, one
 * search each inside SQLite, down to the table's first record: a time filter only filters, so a
 * record made before the clock was stepped back is found as it was with the old index.
 */
const STRETCH = `(id >> ${LOOKUP_STRETCH_BITS})`;
/** Records per stretch. Division by it, not JS's 32-bit `>>`: ids pass 2^31 on a busy box within its years. */
const STRETCH_SIZE = 2 ** LOOKUP_STRETCH_BITS;
/** Stretches one statement reads: about 3 µs each, against about 20 µs for a statement of one. */
const STRETCHES_READ = 64;
const STRETCH_LIST = Array.from({ length: STRETCHES_READ }, (_, i) => `$s${i}`).join(", ");

/** A record by its instant (the time index), credential, kind and query. */
export const SAME_RECORD_SQL =
  "SELECT id FROM permit_lookups WHERE at = ?1 AND credential = ?2 AND by = ?3 AND query = ?4 LIMIT 1";

/** The newest record below an id: where a plate's next stretches start, past any gap in the ids. */
export const RECORD_BELOW_SQL = "SELECT id FROM permit_lookups WHERE id < ?1 ORDER BY id DESC LIMIT 1";

/**
 * One statement per shape of filter, each served by an index (test/platform/store/query-plans.test.ts).
 * With a plate, the statement reads STRETCHES_READ stretches (`$s0`...) of the plate index.
 */
export function lookupPageSql(filter: LookupFilter): string {
  const where = ["id < $before"];
  // A plate's own lookups, and its verdicts by their PLATE@ prefix: two ranges in one stretch.
  if (filter.plate !== undefined)
    where.push(
      `${STRETCH} IN (${STRETCH_LIST}) AND (query = $plate OR (query > $verdictFrom AND query < $verdictTo))`,
    );
  if (filter.credential !== undefined) where.push("credential = $credential");
  // Kinds alone are read one kind at a time from the kind index (page() merges them); beside a
  // plate or a credential, whose records are few, they only filter.
  if (filter.kinds !== undefined)
    where.push(
      filter.kinds.length === 1 ? "by = $k0" : `by IN (${filter.kinds.map((_, i) => `$k${i}`).join(", ")})`,
    );
  if (filter.from !== undefined) where.push("at >= $from");
  if (filter.to !== undefined) where.push("at < $to");
  // A plate's stretch is read from the plate index whatever else narrows it: the credential's or
  // the time's index would read the same rows again for every stretch.
  const indexed = filter.plate === undefined ? "" : " INDEXED BY permit_lookups_plate";
  return `SELECT ${columnList(permitLookups)} FROM permit_lookups${indexed} WHERE ${where.join(" AND ")}
    ORDER BY id DESC LIMIT $limit`;
}

export class LookupRecords {
  private readonly pages = new Map<string, Statement<LookupRecord & { id: number }, [Params]>>();
  private readonly insert: Statement<void, [LookupRecord]>;
  private readonly insertMany: Statement<void, (string | number | null)[]>;
  private readonly deleteOldest: Statement<void, [number, number]>;
  private readonly countOlder: Statement<{ n: number }, [number]>;
  private readonly afterId: Statement<StoredLookup, [number, number]>;
  private readonly recordBelow: Statement<{ id: number }, [number]>;
  private readonly sameRecord: Statement<{ id: number }, [number, string, string, string]>;

  constructor(private readonly sqlite: Database) {
    this.insert = sqlite.prepare(`INSERT INTO permit_lookups ${insertColumns(permitLookups, RECORD_KEYS)}`);
    this.insertMany = sqlite.prepare(
      // Positional here alone: fifty rows' values in one flat list, in RECORD_KEYS order.
      `INSERT INTO permit_lookups (${columnNames(permitLookups, RECORD_KEYS)}) VALUES ${Array(MANY)
        .fill(`(${RECORD_KEYS.map(() => "?").join(", ")})`)
        .join(", ")}`,
    );
    this.deleteOldest = sqlite.prepare(
      "DELETE FROM permit_lookups WHERE id IN (SELECT id FROM permit_lookups WHERE at < ?1 ORDER BY at LIMIT ?2)",
    );
    this.countOlder = sqlite.prepare("SELECT count(*) AS n FROM permit_lookups WHERE at < ?1");
    this.afterId = sqlite.prepare(
      `SELECT ${columnList(permitLookups)} FROM permit_lookups WHERE id > ?1 ORDER BY id LIMIT ?2`,
    );
    this.recordBelow = sqlite.prepare(RECORD_BELOW_SQL);
    this.sameRecord = sqlite.prepare(SAME_RECORD_SQL);
  }

  /** Whether a record of this instant, credential, kind and query is stored (a batch sent again). */
  has(r: Pick<LookupRecord, "at" | "credential" | "by" | "query">): boolean {
    return this.sameRecord.get(r.at, r.credential, r.by, r.query) !== null;
  }

  /** One relaxed commit for the batch: records are not acknowledged to anyone (see LookupRecorder). */
  append(batch: readonly LookupRecord[]): void {
    commitRelaxed(this.sqlite, () => {
      let i = 0;
      // Many rows per statement: a statement run costs about as much as the rows it writes.
      for (; i + MANY <= batch.length; i += MANY) {
        const values: (string | number | null)[] = [];
        // In RECORD_KEYS' order, the statement's: a column added there is bound here too.
        for (let k = i; k < i + MANY; k++) for (const key of RECORD_KEYS) values.push(batch[k]![key]);
        this.insertMany.run(...values);
      }
      for (; i < batch.length; i++) {
        const r = batch[i]!;
        this.insert.run(r);
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

  /** Records newest first, before the record with id `before` (exclusive), as the filter says. */
  page(filter: LookupFilter, before: number | undefined, limit: number): (LookupRecord & { id: number })[] {
    const kinds = filter.kinds;
    if (
      kinds !== undefined &&
      kinds.length > 1 &&
      filter.plate === undefined &&
      filter.credential === undefined
    ) {
      // Each kind's newest records from the kind index, merged newest first: one seek a kind,
      // where one statement over all of them would read every record of every kind and sort.
      const rows = kinds.flatMap((k) => this.page({ ...filter, kinds: [k] }, before, limit));
      return rows.sort((a, b) => b.id - a.id).slice(0, limit);
    }
    const sql = lookupPageSql(filter);
    let statement = this.pages.get(sql);
    if (!statement) {
      statement = this.sqlite.prepare<LookupRecord & { id: number }, [Params]>(sql);
      this.pages.set(sql, statement);
    }
    const params: Params = { before: before ?? Number.MAX_SAFE_INTEGER, limit };
    if (filter.credential !== undefined) params.credential = filter.credential;
    if (filter.from !== undefined) params.from = filter.from;
    if (filter.to !== undefined) params.to = filter.to;
    filter.kinds?.forEach((k, i) => {
      params[`k${i}`] = k;
    });
    if (filter.plate === undefined) return statement.all(params);
    params.plate = filter.plate;
    params.verdictFrom = `${filter.plate}@`;
    params.verdictTo = `${filter.plate}A`;
    return this.plateStretches(statement, params, limit);
  }

  /** A plate's page: its stretches newest first, from the one `before` falls in, until `limit` rows. */
  private plateStretches(
    statement: Statement<LookupRecord & { id: number }, [Params]>,
    params: Params,
    limit: number,
  ): (LookupRecord & { id: number })[] {
    const rows: (LookupRecord & { id: number })[] = [];
    let below = params.before as number;
    while (rows.length < limit) {
      const newest = this.recordBelow.get(below)?.id;
      if (newest === undefined) break;
      const top = Math.floor(newest / STRETCH_SIZE);
      for (let i = 0; i < STRETCHES_READ; i++) params[`s${i}`] = top - i;
      params.limit = limit - rows.length;
      for (const r of statement.all(params)) rows.push(r);
      below = (top - STRETCHES_READ + 1) * STRETCH_SIZE;
      if (below <= 0) break;
    }
    return rows;
  }
}
