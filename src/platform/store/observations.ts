import { and, asc, count, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "./db.ts";
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

const o = observations;
const p = sql.placeholder;

export class ObservationRecords {
  // Prepared once: a verdict reads the car's observation of the day.
  private readonly ofCar;
  private readonly ofZone;

  constructor(
    private readonly db: Db,
    private readonly written: WrittenRows,
  ) {
    this.ofCar = db
      .select()
      .from(o)
      .where(and(eq(o.plateNorm, p("plateNorm")), eq(o.dayStart, p("dayStart"))))
      .prepare();
    this.ofZone = db
      .select()
      .from(o)
      .where(and(eq(o.zone, p("zone")), eq(o.dayStart, p("dayStart"))))
      .orderBy(asc(o.plateNorm))
      .prepare();
  }

  /** The car's observation of the site-local day starting at `dayStart`, in whichever zone. */
  ofCarOn(plateNorm: string, dayStart: number): StoredObservation | null {
    return this.ofCar.get({ plateNorm, dayStart }) ?? null;
  }

  /** The observation stored for the phone's mark `markId`, while it is kept. */
  byMarkId(markId: string): StoredObservation | null {
    return this.db.select().from(o).where(eq(o.markId, markId)).get() ?? null;
  }

  /** The cars marked in `zone` on the day starting at `dayStart`, by plate. */
  inZoneOn(zone: number, dayStart: number): StoredObservation[] {
    return this.ofZone.all({ zone, dayStart });
  }

  /**
   * Keeps a mark as the car's observation of its day, replacing one made in another zone that
   * day (the car was seen elsewhere). Call inside an immediate transaction with the check of
   * what the car already has.
   */
  replace(previous: StoredObservation | null, values: ObservationValues): StoredObservation {
    if (previous) this.db.delete(o).where(eq(o.id, previous.id)).run();
    const row = this.db.insert(o).values(values).returning().get();
    this.written.observation();
    return row;
  }

  /** Deletes up to `batch` of the oldest observations made before the cutoff; returns how many. */
  deleteBefore(cutoff: number, batch: number): number {
    const oldest = this.db
      .select({ id: o.id })
      .from(o)
      .where(lt(o.firstSeenAt, cutoff))
      .orderBy(asc(o.firstSeenAt))
      .limit(batch);
    return this.db.delete(o).where(inArray(o.id, oldest)).returning({ id: o.id }).all().length;
  }

  /** The marks made after the office sync's cursor, oldest first. */
  after(id: number, limit: number): StoredObservation[] {
    return this.db.select().from(o).where(gt(o.id, id)).orderBy(asc(o.id)).limit(limit).all();
  }

  /** The highest id this store ever handed out (a replaced or expired mark's too). */
  lastId(): number {
    // drizzle's raw get answers the row as its values, in the order selected.
    const [id] = this.db.get<[number]>(
      sql`SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'observations'), 0),
        coalesce((SELECT max(id) FROM observations), 0))`,
    );
    return id;
  }

  /** New marks get ids above `id` (after a restore, the office holds ids handed out again). */
  continueAfter(id: number): void {
    this.db.transaction((tx) => {
      tx.run(sql`DELETE FROM sqlite_sequence WHERE name = 'observations' AND seq < ${id}`);
      tx.run(
        sql`INSERT INTO sqlite_sequence (name, seq) SELECT 'observations', ${id} WHERE changes() > 0
          OR NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'observations')`,
      );
    });
  }

  countBefore(cutoff: number): number {
    return this.db.select({ n: count() }).from(o).where(lt(o.firstSeenAt, cutoff)).get()?.n ?? 0;
  }
}
