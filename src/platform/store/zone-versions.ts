import type { Database, Statement } from "bun:sqlite";

const CHANGES = "parkd_zone_changes";
/** The counter for changes that touch every zone (a lot renamed: ticket notes name lots). */
const ALL_ZONES = -1;

export interface ZoneVersion {
  zoneChanges: number;
  allChanges: number;
  dataVersion: number;
}

/**
 * A version per zone that moves whenever anything a zone's permit answers depend on may have
 * changed. It lives with the store because it watches the tables themselves: temporary triggers
 * on this connection count writes to tickets, permits and office permits per zone (the old and
 * the new zone of an update) and to parking_lots for all zones, whatever code makes them, and
 * `PRAGMA data_version` moves when another connection (a CLI command, say) commits. A write rolled back takes its
 * count back with it.
 */
export class ZoneVersions {
  private readonly query: Statement<ZoneVersion, [number]>;

  constructor(sqlite: Database) {
    sqlite.run(`CREATE TEMP TABLE IF NOT EXISTS ${CHANGES} (zone INTEGER PRIMARY KEY, n INTEGER NOT NULL)`);
    const bump = (zone: string) =>
      `INSERT INTO ${CHANGES} (zone, n) VALUES (${zone}, 1) ON CONFLICT (zone) DO UPDATE SET n = n + 1;`;
    const triggers: [string, string, string][] = [];
    for (const table of ["tickets", "permits", "central_permits"]) {
      triggers.push([table, "INSERT", bump("NEW.zone")]);
      triggers.push([table, "UPDATE", bump("OLD.zone") + bump("NEW.zone")]);
      triggers.push([table, "DELETE", bump("OLD.zone")]);
    }
    for (const op of ["INSERT", "UPDATE", "DELETE"])
      triggers.push(["parking_lots", op, bump(String(ALL_ZONES))]);
    for (const [table, op, body] of triggers)
      sqlite.run(
        `CREATE TEMP TRIGGER IF NOT EXISTS ${CHANGES}_${table}_${op.toLowerCase()} AFTER ${op} ON main.${table}
         BEGIN ${body} END`,
      );
    this.query = sqlite.prepare(
      `SELECT coalesce((SELECT n FROM temp.${CHANGES} WHERE zone = ?1), 0) AS zoneChanges,
         coalesce((SELECT n FROM temp.${CHANGES} WHERE zone = ${ALL_ZONES}), 0) AS allChanges,
         (SELECT data_version FROM pragma_data_version) AS dataVersion`,
    );
  }

  of(zone: number): ZoneVersion {
    return this.query.get(zone)!;
  }
}
