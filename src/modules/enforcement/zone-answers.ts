import type { Statement } from "bun:sqlite";
import type { Store } from "../../platform/store/db.ts";

const CHANGES = "parkd_zone_changes";
/** The counter for changes that touch every zone (a lot renamed: ticket notes name lots). */
const ALL_ZONES = -1;

/** Bodies kept, in string length; the oldest go first. 200 busy zones of check-tickets take ~11 M. */
const MAX_CHARS = 16 * 1024 * 1024;

export type ZoneAnswerKind = "check" | "list";

export interface ZoneAnswer {
  body: string;
  /** How many entries the answer holds (for the lookup record). */
  results: number;
  /** Filled in by whoever needs it, once per answer. */
  etag?: string;
}

interface Entry extends ZoneAnswer {
  zoneChanges: number;
  allChanges: number;
  dataVersion: number;
  from: number;
  until: number;
}

interface Version {
  zoneChanges: number;
  allChanges: number;
  dataVersion: number;
}

/**
 * Zone answers (check-tickets by zone, the zone list) cost a few hundred µs to build from a busy
 * zone and are asked for again and again while nothing changes. An answer is reused only while
 * it must read the same:
 * - its zone is unchanged: temporary triggers on this connection count writes to tickets and
 *   permits per zone (the old and the new zone of an update) and to parking_lots for all zones,
 *   whatever code makes them, and `PRAGMA data_version` moves when another connection (a CLI
 *   command, say) commits. A write rolled back takes its count back with it. Lookup records and
 *   other tables change nothing here.
 * - the clock is inside [the instant it was built, the next instant it could change), which
 *   the builder works out from the rows (see nextChange); a clock set back rebuilds it too.
 */
export class ZoneAnswers {
  private readonly versionQuery: Statement<Version, [number]>;
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  constructor(
    store: Store,
    private readonly maxChars = MAX_CHARS,
  ) {
    const s = store.sqlite;
    s.run(`CREATE TEMP TABLE IF NOT EXISTS ${CHANGES} (zone INTEGER PRIMARY KEY, n INTEGER NOT NULL)`);
    const bump = (zone: string) =>
      `INSERT INTO ${CHANGES} (zone, n) VALUES (${zone}, 1) ON CONFLICT (zone) DO UPDATE SET n = n + 1;`;
    const triggers: [string, string, string][] = [];
    for (const table of ["tickets", "permits"]) {
      triggers.push([table, "INSERT", bump("NEW.zone")]);
      triggers.push([table, "UPDATE", bump("OLD.zone") + bump("NEW.zone")]);
      triggers.push([table, "DELETE", bump("OLD.zone")]);
    }
    for (const op of ["INSERT", "UPDATE", "DELETE"])
      triggers.push(["parking_lots", op, bump(String(ALL_ZONES))]);
    for (const [table, op, body] of triggers)
      s.run(
        `CREATE TEMP TRIGGER IF NOT EXISTS ${CHANGES}_${table}_${op.toLowerCase()} AFTER ${op} ON main.${table}
         BEGIN ${body} END`,
      );
    this.versionQuery = s.prepare(
      `SELECT coalesce((SELECT n FROM temp.${CHANGES} WHERE zone = ?1), 0) AS zoneChanges,
         coalesce((SELECT n FROM temp.${CHANGES} WHERE zone = ${ALL_ZONES}), 0) AS allChanges,
         (SELECT data_version FROM pragma_data_version) AS dataVersion`,
    );
  }

  /** The answer of this kind for `zone` at `at`: reused if it still holds, else built and kept. */
  get(
    kind: ZoneAnswerKind,
    zone: number,
    at: number,
    build: () => ZoneAnswer & { until: number },
  ): ZoneAnswer {
    const v = this.versionQuery.get(zone)!;
    const key = `${kind}:${zone}`;
    const kept = this.entries.get(key);
    if (
      kept &&
      kept.zoneChanges === v.zoneChanges &&
      kept.allChanges === v.allChanges &&
      kept.dataVersion === v.dataVersion &&
      kept.from <= at &&
      at < kept.until
    )
      return kept;
    const built = build();
    const entry: Entry = { body: built.body, results: built.results, ...v, from: at, until: built.until };
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
