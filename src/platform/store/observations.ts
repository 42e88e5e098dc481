import type { Database, Statement } from "bun:sqlite";
import { columnList, insertColumns } from "./columns.ts";
import { observations } from "./schema/index.ts";
import type { WrittenRows } from "./written.ts";

/**
 * The one owner of `observations`: the cars attendants marked in zones with a time limit
 * ("chalking"), one a car and site-local day.
 */

/** A type, not an interface: bun:sqlite binds it as named parameters. */
export type ObservationValues = {
  plate: string;
  plateNorm: string;
  zone: number;
  dayStart: number;
  firstSeenAt: number;
  limitSeconds: number;
  note: string;
  markedBy: string;
  /** The phone's id for the mark, when it sent one. */
  markId: string | null;
};

export type StoredObservation = ObservationValues & { id: number };

const COLUMNS = columnList(observations);

export class ObservationRecords {
  private readonly ofCar: Statement<StoredObservation, [string, number]>;
  private readonly ofMark: Statement<StoredObservation, [string]>;
  private readonly ofZone: Statement<StoredObservation, [number, number]>;
  private readonly insertRow: Statement<StoredObservation, [ObservationValues]>;
  private readonly deleteRow: Statement<void, [number]>;
  private readonly deleteOldest: Statement<void, [number, number]>;
  private readonly countOlder: Statement<{ n: number }, [number]>;

  constructor(
    sqlite: Database,
    private readonly written: WrittenRows,
  ) {
    this.ofCar = sqlite.prepare(
      `SELECT ${COLUMNS} FROM observations WHERE plate_norm = ?1 AND day_start = ?2`,
    );
    this.ofMark = sqlite.prepare(`SELECT ${COLUMNS} FROM observations WHERE mark_id = ?1`);
    this.ofZone = sqlite.prepare(
      `SELECT ${COLUMNS} FROM observations WHERE zone = ?1 AND day_start = ?2 ORDER BY plate_norm`,
    );
    this.insertRow = sqlite.prepare(
      `INSERT INTO observations ${insertColumns(observations, [
        "plate",
        "plateNorm",
        "zone",
        "dayStart",
        "firstSeenAt",
        "limitSeconds",
        "note",
        "markedBy",
        "markId",
      ])} RETURNING ${COLUMNS}`,
    );
    this.deleteRow = sqlite.prepare("DELETE FROM observations WHERE id = ?1");
    this.deleteOldest = sqlite.prepare(
      "DELETE FROM observations WHERE id IN (SELECT id FROM observations WHERE first_seen_at < ?1 ORDER BY first_seen_at LIMIT ?2)",
    );
    this.countOlder = sqlite.prepare("SELECT count(*) AS n FROM observations WHERE first_seen_at < ?1");
  }

  /** The car's observation of the site-local day starting at `dayStart`, in whichever zone. */
  ofCarOn(plateNorm: string, dayStart: number): StoredObservation | null {
    return this.ofCar.get(plateNorm, dayStart) ?? null;
  }

  /** The observation stored for the phone's mark `markId`, while it is kept. */
  byMarkId(markId: string): StoredObservation | null {
    return this.ofMark.get(markId) ?? null;
  }

  /** The cars marked in `zone` on the day starting at `dayStart`, by plate. */
  inZoneOn(zone: number, dayStart: number): StoredObservation[] {
    return this.ofZone.all(zone, dayStart);
  }

  /**
   * Keeps a mark as the car's observation of its day, replacing one made in another zone that
   * day (the car was seen elsewhere). Call inside an immediate transaction with the check of
   * what the car already has.
   */
  replace(previous: StoredObservation | null, values: ObservationValues): StoredObservation {
    if (previous) this.deleteRow.run(previous.id);
    const row = this.insertRow.get(values)!;
    this.written.observation();
    return row;
  }

  /** Deletes up to `batch` of the oldest observations made before the cutoff; returns how many. */
  deleteBefore(cutoff: number, batch: number): number {
    return this.deleteOldest.run(cutoff, batch).changes;
  }

  countBefore(cutoff: number): number {
    return this.countOlder.get(cutoff)?.n ?? 0;
  }
}
