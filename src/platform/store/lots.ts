import type { Database, Statement } from "bun:sqlite";
import { count, eq, sql } from "drizzle-orm";
import type { ParkingLot } from "../../domain/lots/lot.ts";
import type { Db } from "./db.ts";
import { parkingLots } from "./schema/index.ts";
import type { WrittenRows } from "./written.ts";

/**
 * The one owner of the `parking_lots` table. Rows go in and out as the domain's ParkingLot.
 * Drizzle's builder, but for four statements prepared by hand: the name by id (the intake's
 * unknown-lot flag and every plate answer's ticket note ask it), the fingerprint the office sync
 * compares every round, `PRAGMA data_version`, and the next id, which reads SQLite's own
 * sqlite_sequence (not a table of the schema).
 */

type Row = typeof parkingLots.$inferSelect;
/** A lot as stored, with when and by whom it was last written (sync with the office). */
export type StoredLot = Row;

function lotFromRow(r: Row): ParkingLot {
  return {
    id: r.id,
    name: r.name,
    number_of_spaces: r.numberOfSpaces,
    zone_number: r.zoneNumber,
    max_time: r.maxTime,
    parking_lot_fee: r.parkingLotFee,
    variable_fees: r.variableFees,
    parking_lot_open: r.parkingLotOpen,
    parking_lot_location: r.parkingLotLocation,
    active: r.active,
    max_fee: r.maxFee,
  };
}

function rowValues(lot: ParkingLot) {
  return {
    name: lot.name,
    numberOfSpaces: lot.number_of_spaces,
    zoneNumber: lot.zone_number,
    maxTime: lot.max_time,
    parkingLotFee: lot.parking_lot_fee,
    variableFees: lot.variable_fees,
    parkingLotOpen: lot.parking_lot_open,
    parkingLotLocation: lot.parking_lot_location,
    active: lot.active,
    maxFee: lot.max_fee,
  };
}

const NAMES_CHECK_MS = 100;
/** Far more lots than a site has; past it the kept names start over. */
const MAX_NAMES = 10_000;

export class LotRecords {
  private readonly selectAll;
  private readonly selectOne;
  private readonly nameById: Statement<{ name: string }, [number]>;
  private readonly nextIdQuery: Statement<{ n: number }, []>;
  private readonly fingerprintQuery: Statement<{ f: string }, []>;
  /** Names as read, for ticket notes: every plate answer with a ticket asks for one. */
  private readonly names = new Map<number, string | null>();
  private namesVersion = -1;

  constructor(
    private readonly sqlite: Database,
    private readonly db: Db,
    private readonly written: WrittenRows,
  ) {
    this.selectAll = db.select().from(parkingLots).orderBy(parkingLots.id).prepare();
    this.selectOne = db
      .select()
      .from(parkingLots)
      .where(eq(parkingLots.id, sql.placeholder("id")))
      .prepare();
    // Ticket notes and the intake's unknown-lot flag ask by id for every ticket: a plain statement.
    this.nameById = sqlite.prepare("SELECT name FROM parking_lots WHERE id = ?1");
    this.fingerprintQuery = sqlite.prepare(
      `SELECT count(*) || ':' || coalesce(sum(id), 0) || ':' || coalesce(sum(updated_at), 0) || ':' ||
         coalesce(max(updated_at), 0) AS f FROM parking_lots`,
    );
    this.nextIdQuery = sqlite.prepare(
      "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'parking_lots'), 0), coalesce((SELECT max(id) FROM parking_lots), 0)) AS n",
    );
  }

  /** Every lot as stored, by id. */
  rows(): StoredLot[] {
    return this.selectAll.all();
  }

  /**
   * Moves with every insert, update and delete: count and id sum for adds and deletes, the sum
   * and max of updated_at for edits (each write sets it to the clock). Cheaper than reading the lots.
   */
  fingerprint(): string {
    return this.fingerprintQuery.get()!.f;
  }

  all(): ParkingLot[] {
    return this.selectAll.all().map(lotFromRow);
  }

  get(id: number): ParkingLot | null {
    const row = this.selectOne.get({ id });
    return row ? lotFromRow(row) : null;
  }

  exists(id: number): boolean {
    return this.nameById.get(id) !== null;
  }

  /**
   * The lot's name, or null when no lot has this id. Kept once read: every write to the lots goes
   * through this owner, which forgets them; another process's commit (a CLI import) moves
   * the store's data version (WrittenRows.others), looked at no more than every 100 ms. Inside a
   * transaction the name is read afresh, since a rollback could take it back.
   */
  nameOf(id: number): string | null {
    if (this.sqlite.inTransaction) return this.readName(id);
    const version = this.written.others(NAMES_CHECK_MS);
    if (version !== this.namesVersion) {
      this.namesVersion = version;
      this.names.clear();
    }
    let name = this.names.get(id);
    if (name === undefined) {
      name = this.readName(id);
      if (this.names.size >= MAX_NAMES) this.names.clear();
      this.names.set(id, name);
    }
    return name;
  }

  private readName(id: number): string | null {
    return this.nameById.get(id)?.name ?? null;
  }

  /** Inserts the lot; with `keepId` under the id it carries, else under the next free one. */
  insert(lot: ParkingLot, keepId: boolean, at: number, by: string): ParkingLot {
    this.names.clear();
    this.written.lots();
    const row = this.db
      .insert(parkingLots)
      .values({
        ...(keepId ? { id: lot.id } : {}),
        ...rowValues(lot),
        createdAt: at,
        updatedAt: at,
        updatedBy: by,
      })
      .returning()
      .get();
    return lotFromRow(row);
  }

  update(lot: ParkingLot, at: number, by: string): void {
    this.names.clear();
    this.written.lots();
    this.db
      .update(parkingLots)
      .set({ ...rowValues(lot), updatedAt: at, updatedBy: by })
      .where(eq(parkingLots.id, lot.id))
      .run();
  }

  /** False when there was no lot with this id. */
  delete(id: number): boolean {
    this.names.clear();
    this.written.lots();
    return (
      this.db.delete(parkingLots).where(eq(parkingLots.id, id)).returning({ id: parkingLots.id }).all()
        .length > 0
    );
  }

  /** Replaces by id, creating the lots that do not exist yet, in one transaction. */
  importAll(lots: readonly ParkingLot[], at: number, by: string): { created: number; replaced: number } {
    let created = 0;
    let replaced = 0;
    this.sqlite.transaction(() => {
      for (const lot of lots) {
        if (this.exists(lot.id)) {
          this.update(lot, at, by);
          replaced++;
        } else {
          this.insert(lot, true, at, by);
          created++;
        }
      }
    })();
    return { created, replaced };
  }

  /** The next id AUTOINCREMENT would give, for import entries that carry none. */
  nextId(): number {
    return this.nextIdQuery.get()!.n + 1;
  }

  count(): number {
    return this.db.select({ n: count() }).from(parkingLots).get()!.n;
  }
}
