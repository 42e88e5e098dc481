import type { Statement } from "bun:sqlite";
import type { Store } from "../store/db.ts";

/** Tables a zone answer is read from: a write to any of them may change it. */
const SOURCES = ["tickets", "permits", "parking_lots"] as const;
const COUNTER = "parkd_lookup_source_changes";

/** Bodies kept, in string length; the oldest go first. 200 busy zones of check-tickets take ~11 M. */
const MAX_CHARS = 16 * 1024 * 1024;

export interface ZoneAnswer {
  body: string;
  /** How many entries the answer holds (for the lookup record). */
  results: number;
  /** Filled in by whoever needs it, once per answer. */
  etag?: string;
}

interface Entry extends ZoneAnswer {
  from: number;
  until: number;
}

/**
 * Zone answers (check-tickets by zone, the zone list) cost a few hundred µs to build from a busy
 * zone and are asked for again and again while nothing changes. An answer is reused only while
 * it must read the same:
 * - the store is unchanged: a temporary trigger on this connection counts writes to the source
 *   tables (whatever code makes them), and `PRAGMA data_version` moves when another connection
 *   (a CLI command, say) commits. A write rolled back takes its count back with it.
 * - the clock is inside [the instant it was built, the next instant it could change), which
 *   the builder works out from the rows (see nextChange); a clock set back rebuilds it too.
 */
export class ZoneAnswers {
  private readonly versionQuery: Statement<{ n: number; v: number }, []>;
  private readonly entries = new Map<string, Entry>();
  private version = "";
  private chars = 0;

  constructor(
    store: Store,
    private readonly maxChars = MAX_CHARS,
  ) {
    const s = store.sqlite;
    s.run(`CREATE TEMP TABLE IF NOT EXISTS ${COUNTER} (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)`);
    s.run(`INSERT OR IGNORE INTO ${COUNTER} (id, n) VALUES (1, 0)`);
    for (const table of SOURCES)
      for (const op of ["INSERT", "UPDATE", "DELETE"])
        s.run(
          `CREATE TEMP TRIGGER IF NOT EXISTS ${COUNTER}_${table}_${op.toLowerCase()} AFTER ${op} ON main.${table}
           BEGIN UPDATE ${COUNTER} SET n = n + 1; END`,
        );
    this.versionQuery = s.prepare(
      `SELECT (SELECT n FROM temp.${COUNTER} WHERE id = 1) AS n, (SELECT data_version FROM pragma_data_version) AS v`,
    );
  }

  private currentVersion(): string {
    const r = this.versionQuery.get()!;
    return `${r.n}:${r.v}`;
  }

  /** The answer under `key` at `at`: reused if it still holds, else built and kept. */
  get(key: string, at: number, build: () => ZoneAnswer & { until: number }): ZoneAnswer {
    const version = this.currentVersion();
    if (version !== this.version) {
      this.entries.clear();
      this.chars = 0;
      this.version = version;
    }
    const kept = this.entries.get(key);
    if (kept && kept.from <= at && at < kept.until) return kept;
    const built = build();
    const entry: Entry = { body: built.body, results: built.results, from: at, until: built.until };
    if (kept) this.forget(key, kept);
    this.entries.set(key, entry);
    this.chars += entry.body.length;
    for (const [k, e] of this.entries) {
      if (this.chars <= this.maxChars || k === key) break;
      this.forget(k, e);
    }
    return entry;
  }

  private forget(key: string, e: Entry): void {
    this.entries.delete(key);
    this.chars -= e.body.length;
  }

  /** How many answers are kept (for tests). */
  get size(): number {
    return this.entries.size;
  }
}
