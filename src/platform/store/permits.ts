import type { Database, Statement } from "bun:sqlite";
import { and, count, eq, getTableColumns, gt, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { columnList, insertColumns } from "./columns.ts";
import type { Db } from "./db.ts";
import { keysetPage, type SortColumn, type SortedKeyset, type SortValue, sortedBy } from "./keyset.ts";
import { centralPermits, permits } from "./schema/index.ts";
import type { PermitWindow } from "./schema/permits.ts";
import type { WrittenRows } from "./written.ts";

/**
 * The one owner of the `permits` table (permits the site's operator issued) and of
 * `central_permits` (those the office issued for this site, as last pulled). Hand-prepared SQL
 * serves the attendant's plate and zone lookups and the lookups' read model (PERMIT_LOOKUP_SQL,
 * index-checked by the plan tests) and the office pull's bulk upsert; the operator's permits
 * (writes, the sorted list, counts) go through drizzle's builder.
 */

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
  /** Set on permits issued at the office (their ids are the office's numbering). */
  office?: 1;
}

/** An office permit in the box's form, to keep (sync). */
export interface OfficePermit {
  id: number;
  plate: string;
  plateNorm: string;
  zone: number;
  startAt: number;
  endAt: number | null;
  note: string;
  days: PermitWindow[] | null;
}

/** The columns ListedPermit has, in both tables (an office permit also says it is one). */
const LISTED_KEYS = [
  "id",
  "zone",
  "startAt",
  "endAt",
  "plate",
  "plateNorm",
  "note",
  "days",
] as const satisfies readonly (keyof ListedPermit)[];

const LISTED_OFFICE = `SELECT ${columnList(centralPermits, LISTED_KEYS)}, 1 AS office FROM central_permits`;

const LISTED = `SELECT ${columnList(permits, LISTED_KEYS)} FROM permits`;

/** An office permit as kept: its weekly windows as JSON text, and when it was pulled. */
type KeptOfficePermit = Omit<OfficePermit, "days"> & { days: string | null; pulledAt: number };

/** As TICKET_LOOKUP_SQL: by plate ?1 plate, ?2 now, ?3 cutoff; by zone ?1 zone, ?2 cutoff. */
export const PERMIT_LOOKUP_SQL = {
  permitsByPlate: `${LISTED} WHERE plate_norm = ?1 AND start_at <= ?2 AND (end_at IS NULL OR end_at > ?3)`,
  permitsInZoneEnding: `${LISTED} WHERE zone = ?1 AND end_at > ?2`,
  permitsInZoneOpen: `${LISTED} WHERE zone = ?1 AND end_at IS NULL`,
  /** As TICKET_LOOKUP_SQL.ticketsLive*: ?1 the horizon. */
  permitsLive: `${LISTED} WHERE end_at > ?1 OR end_at IS NULL`,
  permitListed: `${LISTED} WHERE id = ?1`,
  officeLive: `${LISTED_OFFICE} WHERE end_at > ?1 OR end_at IS NULL`,
  officeListed: `${LISTED_OFFICE} WHERE id = ?1`,
  officeByPlate: `${LISTED_OFFICE} WHERE plate_norm = ?1 AND start_at <= ?2 AND (end_at IS NULL OR end_at > ?3)`,
  officeInZoneEnding: `${LISTED_OFFICE} WHERE zone = ?1 AND end_at > ?2`,
  officeInZoneOpen: `${LISTED_OFFICE} WHERE zone = ?1 AND end_at IS NULL`,
  // The zones with a permit (the site's or the office's) that ended after ?1 or runs on.
  zonesSince: `SELECT zone FROM permits WHERE end_at > ?1 OR end_at IS NULL
    UNION SELECT zone FROM central_permits WHERE end_at > ?1 OR end_at IS NULL`,
} as const;

/** The orders the console lists permits in, each by an index (the id is the rowid itself). */
export const PERMIT_ORDERS = {
  id: [],
  registration_number: [permits.plateNorm],
  zone: [permits.zone, permits.endAt],
  start_at: [permits.startAt],
  end_at: [permits.endAt],
} satisfies Record<string, SortColumn[]>;

export type PermitOrder = keyof typeof PERMIT_ORDERS;

export interface PermitListing {
  plateNorm?: string;
  zone?: number;
  order: PermitOrder;
  descending: boolean;
  after?: SortValue[];
  /** All of them when not given. */
  limit?: number;
}

const STORED = { ...getTableColumns(permits), position: permits.id };

const keysetOf = (q: PermitListing): SortedKeyset =>
  sortedBy({
    key: PERMIT_ORDERS[q.order],
    tie: permits.id,
    descending: q.descending,
    after: q.after,
  });

const ALL = 2 ** 31;

function pageQuery(db: Db, q: PermitListing, k: SortedKeyset, where: SQL | undefined, limit: number) {
  return db
    .select(STORED)
    .from(permits)
    .where(
      and(
        q.plateNorm === undefined ? undefined : eq(permits.plateNorm, q.plateNorm),
        q.zone === undefined ? undefined : eq(permits.zone, q.zone),
        where,
      ),
    )
    .orderBy(...k.order)
    .limit(limit);
}

/** The statements a page of the listing takes, in order (the plan tests read their SQL). */
export function permitPageQueries(db: Db, q: PermitListing) {
  const k = keysetOf(q);
  return k.parts.map((where) => pageQuery(db, q, k, where, (q.limit ?? ALL) + 1));
}

export class PermitRecords {
  private readonly byPlate: Statement<ListedPermit, [string, number, number]>;
  private readonly inZoneEnding: Statement<ListedPermit, [number, number]>;
  private readonly inZoneOpen: Statement<ListedPermit, [number]>;
  private readonly liveAll: Statement<ListedPermit, [number]>;
  private readonly listedOne: Statement<ListedPermit, [number]>;
  private readonly byId;
  private readonly zonesSinceRows: Statement<{ zone: number }, [number]>;
  private readonly office: {
    byPlate: Statement<ListedPermit, [string, number, number]>;
    live: Statement<ListedPermit, [number]>;
    listed: Statement<ListedPermit, [number]>;
    inZoneEnding: Statement<ListedPermit, [number, number]>;
    inZoneOpen: Statement<ListedPermit, [number]>;
    upsert: Statement<void, [KeptOfficePermit]>;
    remove: Statement<void, [number]>;
    removeEnded: Statement<{ id: number }, [number]>;
  };

  constructor(
    sqlite: Database,
    private readonly db: Db,
    private readonly written: WrittenRows,
  ) {
    this.byPlate = sqlite.prepare(PERMIT_LOOKUP_SQL.permitsByPlate);
    this.inZoneEnding = sqlite.prepare(PERMIT_LOOKUP_SQL.permitsInZoneEnding);
    this.inZoneOpen = sqlite.prepare(PERMIT_LOOKUP_SQL.permitsInZoneOpen);
    this.liveAll = sqlite.prepare(PERMIT_LOOKUP_SQL.permitsLive);
    this.listedOne = sqlite.prepare(PERMIT_LOOKUP_SQL.permitListed);
    this.zonesSinceRows = sqlite.prepare(PERMIT_LOOKUP_SQL.zonesSince);
    this.office = {
      byPlate: sqlite.prepare(PERMIT_LOOKUP_SQL.officeByPlate),
      live: sqlite.prepare(PERMIT_LOOKUP_SQL.officeLive),
      listed: sqlite.prepare(PERMIT_LOOKUP_SQL.officeListed),
      inZoneEnding: sqlite.prepare(PERMIT_LOOKUP_SQL.officeInZoneEnding),
      inZoneOpen: sqlite.prepare(PERMIT_LOOKUP_SQL.officeInZoneOpen),
      upsert: sqlite.prepare(
        `INSERT INTO central_permits ${insertColumns(centralPermits, [
          "id",
          "plate",
          "plateNorm",
          "zone",
          "startAt",
          "endAt",
          "note",
          "days",
          "pulledAt",
        ])}
         ON CONFLICT (id) DO UPDATE SET plate = excluded.plate, plate_norm = excluded.plate_norm,
           zone = excluded.zone, start_at = excluded.start_at, end_at = excluded.end_at, note = excluded.note,
           days = excluded.days, pulled_at = excluded.pulled_at`,
      ),
      remove: sqlite.prepare("DELETE FROM central_permits WHERE id = ?1"),
      removeEnded: sqlite.prepare(
        "DELETE FROM central_permits WHERE end_at IS NOT NULL AND end_at < ?1 RETURNING id",
      ),
    };
    this.byId = db
      .select()
      .from(permits)
      .where(eq(permits.id, sql.placeholder("id")))
      .prepare();
  }

  insert(values: PermitValues, at: number, by: string): StoredPermit {
    const row = this.db
      .insert(permits)
      .values({ ...values, createdAt: at, updatedAt: at, createdBy: by })
      .returning()
      .get();
    this.written.permit(row.id);
    return row;
  }

  get(id: number): StoredPermit | null {
    return this.byId.get({ id }) ?? null;
  }

  /** A page of permits in the order asked for (ties by id); the filters given, ANDed. */
  list(q: PermitListing): { rows: StoredPermit[]; next: SortValue[] | null } {
    const k = keysetOf(q);
    const page = keysetPage(k, q.limit ?? ALL, STORED, (where, limit) =>
      pageQuery(this.db, q, k, where, limit).all(),
    );
    return { rows: page.rows.map(({ position: _, ...p }) => p), next: page.next };
  }

  /** The permit after the update, or null when there is none with this id. */
  update(id: number, values: PermitValues, at: number): StoredPermit | null {
    this.written.permit(id);
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
    this.written.permit(id);
    return (
      this.db.delete(permits).where(eq(permits.id, id)).returning({ id: permits.id }).get() !== undefined
    );
  }

  /** The zones with a permit of the site's or the office's that ended after `since` or has not ended. */
  zonesSince(since: number): number[] {
    return this.zonesSinceRows.all(since).map((r) => r.zone);
  }

  listedForPlate(plateNorm: string, now: number, cutoff: number): ListedPermit[] {
    return this.byPlate.all(plateNorm, now, cutoff);
  }

  /** Every permit, the site's own and the office's, that ends after `horizon` or not at all. */
  live(horizon: number): ListedPermit[] {
    const rows = this.liveAll.all(horizon);
    for (const p of this.office.live.all(horizon)) rows.push(p);
    return rows;
  }

  listed(id: number): ListedPermit | null {
    return this.listedOne.get(id);
  }

  officeListed(id: number): ListedPermit | null {
    return this.office.listed.get(id);
  }

  /** Permits of a zone (own and office) that end after the cutoff or not at all, started or not. */
  listedInZone(zone: number, cutoff: number): ListedPermit[] {
    const rows = this.inZoneEnding.all(zone, cutoff);
    for (const p of this.inZoneOpen.all(zone)) rows.push(p);
    for (const p of this.office.inZoneEnding.all(zone, cutoff)) rows.push(p);
    for (const p of this.office.inZoneOpen.all(zone)) rows.push(p);
    return rows;
  }

  /** Office permits for this plate, as listedForPlate answers for the site's own. */
  officeForPlate(plateNorm: string, now: number, cutoff: number): ListedPermit[] {
    return this.office.byPlate.all(plateNorm, now, cutoff);
  }

  /**
   * One pull from the office, inside the caller's transaction: keeps the permits valid here,
   * removes the ones it names (deleted, moved to other sites) and those ended before `endedBefore`.
   */
  applyOfficePull(
    keep: readonly OfficePermit[],
    drop: readonly number[],
    endedBefore: number,
    at: number,
  ): void {
    for (const p of keep) {
      this.office.upsert.run({ ...p, days: p.days === null ? null : JSON.stringify(p.days), pulledAt: at });
      this.written.officePermit(p.id);
    }
    for (const id of drop) {
      this.office.remove.run(id);
      this.written.officePermit(id);
    }
    for (const { id } of this.office.removeEnded.all(endedBefore)) this.written.officePermit(id);
  }

  officeCount(): number {
    return this.db.select({ n: count() }).from(centralPermits).get()!.n;
  }

  count(): number {
    return this.db.select({ n: count() }).from(permits).get()!.n;
  }

  /** Permits whose validity covers `now`, weekly windows not applied (read at scrape time). */
  countValid(now: number): number {
    return (
      this.db
        .select({ n: count() })
        .from(permits)
        .where(and(or(isNull(permits.endAt), gt(permits.endAt, now)), lte(permits.startAt, now)))
        .get()?.n ?? 0
    );
  }
}
