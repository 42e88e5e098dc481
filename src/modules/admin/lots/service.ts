import type { Statement } from "bun:sqlite";
import { eq, sql } from "drizzle-orm";
import { completeLot, lotRuleErrors } from "../../../domain/lots/rules.ts";
import { etagOf } from "../../../platform/http/conditional.ts";
import { type FieldError, problems } from "../../../platform/http/problem.ts";
import type { Store } from "../../../platform/store/db.ts";
import { parkingLots } from "../../../platform/store/schema/index.ts";
import type { ParkingLot, ParkingLotInput, ParkingLotPatch } from "./model.ts";

type Row = typeof parkingLots.$inferSelect;

/** A body ready to send, with its strong ETag. */
export interface Rendered {
  body: string;
  etag: string;
}

export function render(value: unknown): Rendered {
  const body = JSON.stringify(value);
  return { body, etag: etagOf(body) };
}

export function lotFromRow(r: Row): ParkingLot {
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

export const lotNotFound = (id: number | string) =>
  problems.notFound("lot-not-found", "Parking lot not found", `There is no parking lot ${id}`);

/** Validates a complete lot's consistency; throws 400 with pointers under `prefix`. */
function ensureConsistent(lot: ParkingLot, prefix = ""): void {
  const errors = lotRuleErrors(lot).map((e): FieldError => ({ ...e, pointer: prefix + e.pointer }));
  if (errors.length)
    throw problems.validation(
      errors.length === 1
        ? `${errors[0]!.pointer}: ${errors[0]!.message}`
        : `${errors.length} fields failed validation`,
      errors,
    );
}

interface Snapshot {
  version: string;
  lots: ParkingLot[];
  list?: Rendered;
  active?: Rendered;
  inactive?: Rendered;
  one: Map<number, Rendered>;
}

/**
 * The parking lots of the store, with the rendered list cached until the lots change. Writes
 * here bump a local counter; writes by another process (`parkd lots import` while serve runs)
 * change SQLite's data_version, which is checked on every read (one cheap pragma).
 */
export class LotCatalog {
  private readonly store: Store;
  private readonly now: () => number;
  private readonly dataVersion: Statement<{ data_version: number }>;
  private localWrites = 0;
  private snapshot: Snapshot | null = null;
  private readonly selectAll;
  private readonly selectOne;

  constructor(store: Store, now: () => number = Date.now) {
    this.store = store;
    this.now = now;
    this.dataVersion = store.sqlite.prepare("PRAGMA data_version");
    this.selectAll = store.db.select().from(parkingLots).orderBy(parkingLots.id).prepare();
    this.selectOne = store.db
      .select()
      .from(parkingLots)
      .where(eq(parkingLots.id, sql.placeholder("id")))
      .prepare();
  }

  private version(): string {
    return `${this.dataVersion.get()!.data_version}:${this.localWrites}`;
  }

  private current(): Snapshot {
    const version = this.version();
    if (this.snapshot?.version !== version)
      this.snapshot = { version, lots: this.selectAll.all().map(lotFromRow), one: new Map() };
    return this.snapshot;
  }

  all(): ParkingLot[] {
    return this.current().lots;
  }

  /** `{data: [...]}` for the list, optionally only active (true) or inactive (false) lots. */
  renderedList(active?: boolean): Rendered {
    const s = this.current();
    const key = active === undefined ? "list" : active ? "active" : "inactive";
    s[key] ??= render({ data: active === undefined ? s.lots : s.lots.filter((l) => l.active === active) });
    return s[key];
  }

  renderedLot(id: number): Rendered {
    const s = this.current();
    let r = s.one.get(id);
    if (!r) {
      const lot = s.lots.find((l) => l.id === id);
      if (!lot) throw lotNotFound(id);
      r = render({ data: lot });
      s.one.set(id, r);
    }
    return r;
  }

  get(id: number): ParkingLot | null {
    const row = this.selectOne.get({ id });
    return row ? lotFromRow(row) : null;
  }

  require(id: number): ParkingLot {
    const lot = this.get(id);
    if (!lot) throw lotNotFound(id);
    return lot;
  }

  private changed(): void {
    this.localWrites++;
  }

  create(input: ParkingLotInput, by: string): ParkingLot {
    const at = this.now();
    const lot = this.store.sqlite.transaction(() => {
      if (input.id !== undefined && this.get(input.id))
        throw problems.conflict(
          "lot-exists",
          "Parking lot exists",
          `There is already a parking lot ${input.id}`,
        );
      const draft = completeLot(input, input.id ?? 0);
      ensureConsistent(draft);
      const row = this.store.db
        .insert(parkingLots)
        .values({
          ...(input.id !== undefined ? { id: input.id } : {}),
          ...rowValues(draft),
          createdAt: at,
          updatedAt: at,
          updatedBy: by,
        })
        .returning()
        .get();
      return lotFromRow(row);
    })();
    this.changed();
    return lot;
  }

  replace(id: number, input: ParkingLotInput, by: string): ParkingLot {
    if (input.id !== undefined && input.id !== id)
      throw problems.validation(`/id: ${input.id} is not the lot in the path (${id})`, [
        { pointer: "/id", message: `Must be ${id}, the lot in the path, or left out` },
      ]);
    this.require(id);
    const lot = completeLot(input, id);
    ensureConsistent(lot);
    this.write(lot, by);
    return lot;
  }

  patch(id: number, patch: ParkingLotPatch, by: string): ParkingLot {
    if (patch.id !== undefined && patch.id !== id)
      throw problems.validation(`/id: ${patch.id} is not the lot in the path (${id})`, [
        { pointer: "/id", message: `Must be ${id}, the lot in the path, or left out` },
      ]);
    const current = this.require(id);
    const lot = completeLot({ ...current, ...patch }, id);
    ensureConsistent(lot);
    this.write(lot, by);
    return lot;
  }

  private write(lot: ParkingLot, by: string): void {
    this.store.db
      .update(parkingLots)
      .set({ ...rowValues(lot), updatedAt: this.now(), updatedBy: by })
      .where(eq(parkingLots.id, lot.id))
      .run();
    this.changed();
  }

  remove(id: number): void {
    const gone = this.store.db
      .delete(parkingLots)
      .where(eq(parkingLots.id, id))
      .returning({ id: parkingLots.id })
      .all();
    if (gone.length === 0) throw lotNotFound(id);
    this.changed();
  }

  /**
   * Replaces by id (creating lots that do not exist yet) in one transaction. The lots must be
   * complete and consistent already (see checkLotFile).
   */
  importLots(lots: readonly ParkingLot[], by: string): { created: number; replaced: number } {
    const at = this.now();
    let created = 0;
    let replaced = 0;
    this.store.sqlite.transaction(() => {
      for (const lot of lots) {
        const values = { ...rowValues(lot), updatedAt: at, updatedBy: by };
        if (this.get(lot.id)) {
          this.store.db.update(parkingLots).set(values).where(eq(parkingLots.id, lot.id)).run();
          replaced++;
        } else {
          this.store.db
            .insert(parkingLots)
            .values({ id: lot.id, ...values, createdAt: at })
            .run();
          created++;
        }
      }
    })();
    this.changed();
    return { created, replaced };
  }

  /** The next id AUTOINCREMENT would give, for import entries that carry none. */
  nextId(): number {
    const row = this.store.sqlite
      .query(
        "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'parking_lots'), 0), coalesce((SELECT max(id) FROM parking_lots), 0)) AS n",
      )
      .get() as { n: number };
    return row.n + 1;
  }
}
