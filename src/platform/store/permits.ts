import type { Database, Statement } from "bun:sqlite";
import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "./db.ts";
import { permits } from "./schema/index.ts";
import { WriteNotes } from "./write-notes.ts";

/** The one owner of the `permits` table (operator-issued permits). */

export type StoredPermit = typeof permits.$inferSelect;
export type PermitValues = Omit<typeof permits.$inferInsert, "id" | "createdAt" | "updatedAt" | "createdBy">;

/** What the attendant lookups read of a permit; `days` is the JSON text of its weekly windows. */
export interface ListedPermit {
  id: number;
  zone: number;
  startAt: number;
  endAt: number | null;
  plate: string;
  plateNorm: string;
  note: string;
  days: string | null;
}

const LISTED = `SELECT id, zone, start_at AS startAt, end_at AS endAt, plate, plate_norm AS plateNorm,
  note, days FROM permits`;

/** As TICKET_LOOKUP_SQL: by plate ?1 plate, ?2 now, ?3 cutoff; by zone ?1 zone, ?2 cutoff. */
export const PERMIT_LOOKUP_SQL = {
  permitsByPlate: `${LISTED} WHERE plate_norm = ?1 AND start_at <= ?2 AND (end_at IS NULL OR end_at > ?3)`,
  permitsInZoneEnding: `${LISTED} WHERE zone = ?1 AND end_at > ?2`,
  permitsInZoneOpen: `${LISTED} WHERE zone = ?1 AND end_at IS NULL`,
  /** As TICKET_LOOKUP_SQL.ticketsLive*: ?1 the horizon. */
  permitsLive: `${LISTED} WHERE end_at > ?1 OR end_at IS NULL`,
  permitListed: `${LISTED} WHERE id = ?1`,
} as const;

export class PermitRecords {
  private readonly byPlate: Statement<ListedPermit, [string, number, number]>;
  private readonly inZoneEnding: Statement<ListedPermit, [number, number]>;
  private readonly inZoneOpen: Statement<ListedPermit, [number]>;
  private readonly countAll: Statement<{ n: number }, []>;
  private readonly liveAll: Statement<ListedPermit, [number]>;
  private readonly listedOne: Statement<ListedPermit, [number]>;
  private readonly byId;
  private written?: WriteNotes<number>;

  constructor(
    private readonly sqlite: Database,
    private readonly db: Db,
  ) {
    this.byPlate = sqlite.prepare(PERMIT_LOOKUP_SQL.permitsByPlate);
    this.inZoneEnding = sqlite.prepare(PERMIT_LOOKUP_SQL.permitsInZoneEnding);
    this.inZoneOpen = sqlite.prepare(PERMIT_LOOKUP_SQL.permitsInZoneOpen);
    this.countAll = sqlite.prepare("SELECT count(*) AS n FROM permits");
    this.liveAll = sqlite.prepare(PERMIT_LOOKUP_SQL.permitsLive);
    this.listedOne = sqlite.prepare(PERMIT_LOOKUP_SQL.permitListed);
    this.byId = db
      .select()
      .from(permits)
      .where(eq(permits.id, sql.placeholder("id")))
      .prepare();
  }

  insert(values: PermitValues, at: number, by: string): StoredPermit {
    return this.db
      .insert(permits)
      .values({ ...values, createdAt: at, updatedAt: at, createdBy: by })
      .returning()
      .get();
  }

  get(id: number): StoredPermit | null {
    return this.byId.get({ id }) ?? null;
  }

  list(filter: { plateNorm?: string; zone?: number }): StoredPermit[] {
    const where: SQL[] = [];
    if (filter.plateNorm !== undefined) where.push(eq(permits.plateNorm, filter.plateNorm));
    if (filter.zone !== undefined) where.push(eq(permits.zone, filter.zone));
    return this.db
      .select()
      .from(permits)
      .where(and(...where))
      .orderBy(asc(permits.id))
      .all();
  }

  /** The permit after the update, or null when there is none with this id. */
  update(id: number, values: PermitValues, at: number): StoredPermit | null {
    return (
      this.db
        .update(permits)
        .set({ ...values, updatedAt: at })
        .where(eq(permits.id, id))
        .returning()
        .get() ?? null
    );
  }

  /** False when there was no permit with this id. */
  delete(id: number): boolean {
    return (
      this.db.delete(permits).where(eq(permits.id, id)).returning({ id: permits.id }).get() !== undefined
    );
  }

  listedForPlate(plateNorm: string, now: number, cutoff: number): ListedPermit[] {
    return this.byPlate.all(plateNorm, now, cutoff);
  }

  /** Notes of the permits written on this connection since the last call (see WriteNotes). */
  takeWritten(): number[] {
    this.written ??= new WriteNotes<number>(this.sqlite, "permits", "id", "INTEGER");
    return this.written.taken();
  }

  /** Every permit that ends after `horizon` or not at all, started or not. */
  live(horizon: number): ListedPermit[] {
    return this.liveAll.all(horizon);
  }

  listed(id: number): ListedPermit | null {
    return this.listedOne.get(id);
  }

  /** Permits of a zone that end after the cutoff or not at all, started or not. */
  listedInZone(zone: number, cutoff: number): ListedPermit[] {
    const rows = this.inZoneEnding.all(zone, cutoff);
    for (const p of this.inZoneOpen.all(zone)) rows.push(p);
    return rows;
  }

  count(): number {
    return this.countAll.get()!.n;
  }

  /** Permits whose validity covers `now`, weekly windows not applied (read at scrape time). */
  countValid(now: number): number {
    return (
      this.sqlite
        .query<{ n: number }, [number]>(
          "SELECT count(*) AS n FROM permits WHERE (end_at IS NULL OR end_at > ?1) AND start_at <= ?1",
        )
        .get(now)?.n ?? 0
    );
  }
}
