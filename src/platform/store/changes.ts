import type { Database, Statement } from "bun:sqlite";
import type { Change, ChangeSubject, Fields } from "../../domain/changes.ts";
import { columnList, insertColumns } from "./columns.ts";
import { operatorChanges } from "./schema/index.ts";

/**
 * The one owner of the `operator_changes` table: the history of operator writes. Hand SQL for one
 * reason: every operator write records a change in its own transaction, and the history's pages
 * are index-checked statement by statement (query-plans.test.ts reads changePageSql).
 */

export interface StoredChange extends Change {
  id: number;
}

export interface ChangeFilter {
  subject?: ChangeSubject;
  subjectId?: string;
  actor?: string;
  /** Inclusive lower bound on `at` (ms). */
  from?: number;
  /** Exclusive upper bound on `at` (ms). */
  to?: number;
}

/** A change as stored: its fields before and after as JSON text. */
type Row = Omit<StoredChange, "before" | "after"> & { before: string | null; after: string | null };

const parse = (json: string | null): Fields | null => (json === null ? null : (JSON.parse(json) as Fields));

const COLUMNS = columnList(operatorChanges);

/**
 * A page newest first, with the filters given. Each filter is served by an index: one record's
 * history by (subject, subject_id, id), one kind by (subject, id), one actor's writes by
 * (actor, id), a date range alone by (at), sorting only what the range holds (checked in
 * test/platform/store/query-plans.test.ts).
 */
export function changePageSql(filter: ChangeFilter): string {
  const where = ["id < $before"];
  if (filter.subject !== undefined) where.push("subject = $subject");
  if (filter.subjectId !== undefined) where.push("subject_id = $subjectId");
  if (filter.actor !== undefined) where.push("actor = $actor");
  if (filter.from !== undefined) where.push("at >= $from");
  if (filter.to !== undefined) where.push("at < $to");
  return `SELECT ${COLUMNS} FROM operator_changes WHERE ${where.join(" AND ")} ORDER BY id DESC LIMIT $limit`;
}

/** Named parameters as bun:sqlite takes them on a strict connection: without the `$`. */
type Params = Record<string, string | number>;

export class ChangeRecords {
  private readonly insert: Statement<void, [Omit<Row, "id">]>;
  private readonly deleteOldest: Statement<void, [number, number]>;
  private readonly countOlder: Statement<{ n: number }, [number]>;
  private readonly pages = new Map<string, Statement<Row, [Params]>>();

  constructor(private readonly sqlite: Database) {
    this.insert = sqlite.prepare(
      `INSERT INTO operator_changes ${insertColumns(operatorChanges, [
        "at",
        "actor",
        "via",
        "subject",
        "subjectId",
        "action",
        "before",
        "after",
      ])}`,
    );
    this.deleteOldest = sqlite.prepare(
      "DELETE FROM operator_changes WHERE id IN (SELECT id FROM operator_changes WHERE at < ?1 ORDER BY at LIMIT ?2)",
    );
    this.countOlder = sqlite.prepare("SELECT count(*) AS n FROM operator_changes WHERE at < ?1");
  }

  /** Keeps one change; call it inside the write's transaction, so both stand or fall together. */
  record(c: Change): void {
    this.insert.run({
      ...c,
      before: c.before === null ? null : JSON.stringify(c.before),
      after: c.after === null ? null : JSON.stringify(c.after),
    });
  }

  /** Changes newest first, before the change with id `before` (exclusive). */
  page(filter: ChangeFilter, before: number | undefined, limit: number): StoredChange[] {
    const sql = changePageSql(filter);
    let statement = this.pages.get(sql);
    if (!statement) {
      statement = this.sqlite.prepare<Row, [Params]>(sql);
      this.pages.set(sql, statement);
    }
    const params: Params = { before: before ?? Number.MAX_SAFE_INTEGER, limit };
    if (filter.subject !== undefined) params.subject = filter.subject;
    if (filter.subjectId !== undefined) params.subjectId = filter.subjectId;
    if (filter.actor !== undefined) params.actor = filter.actor;
    if (filter.from !== undefined) params.from = filter.from;
    if (filter.to !== undefined) params.to = filter.to;
    return statement.all(params).map((r) => ({ ...r, before: parse(r.before), after: parse(r.after) }));
  }

  /** Deletes up to `batch` of the oldest changes before the cutoff; returns how many. */
  deleteBefore(cutoff: number, batch: number): number {
    return this.deleteOldest.run(cutoff, batch).changes;
  }

  countBefore(cutoff: number): number {
    return this.countOlder.get(cutoff)?.n ?? 0;
  }
}
