import { conflict, type FieldError, invalid, notFound, stale } from "../../../domain/errors.ts";
import type { LotInput, ParkingLot } from "../../../domain/lots/lot.ts";
import { completeLot, lotRuleErrors } from "../../../domain/lots/rules.ts";
import { etagOf, ifMatchHolds } from "../../../platform/http/conditional.ts";
import type { Store } from "../../../platform/store/db.ts";
import type { ParkingLotPatch } from "./model.ts";

/** A body ready to send, with its strong ETag. */
export interface Rendered {
  body: string;
  etag: string;
}

export function render(value: unknown): Rendered {
  const body = JSON.stringify(value);
  return { body, etag: etagOf(body) };
}

export const lotNotFound = (id: number | string) =>
  notFound("lot-not-found", "Parking lot not found", `There is no parking lot ${id}`);

const notThisLot = (given: number, id: number) =>
  invalid(
    [{ pointer: "/id", message: `Must be ${id}, the lot in the path, or left out` }],
    `/id: ${given} is not the lot in the path (${id})`,
  );

/** Validates a complete lot's consistency; throws 400 with pointers under `prefix`. */
function ensureConsistent(lot: ParkingLot, prefix = ""): void {
  const errors = lotRuleErrors(lot).map((e): FieldError => ({ ...e, pointer: prefix + e.pointer }));
  if (errors.length) throw invalid(errors);
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
  private localWrites = 0;
  private snapshot: Snapshot | null = null;

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  private version(): string {
    return `${this.store.dataVersion()}:${this.localWrites}`;
  }

  private current(): Snapshot {
    const version = this.version();
    if (this.snapshot?.version !== version)
      this.snapshot = { version, lots: this.store.lots.all(), one: new Map() };
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
    return this.store.lots.get(id);
  }

  require(id: number): ParkingLot {
    const lot = this.get(id);
    if (!lot) throw lotNotFound(id);
    return lot;
  }

  private changed(): void {
    this.localWrites++;
  }

  create(input: LotInput, by: string): ParkingLot {
    const lot = this.store.transaction(() => {
      if (input.id !== undefined && this.store.lots.exists(input.id))
        throw conflict("lot-exists", "Parking lot exists", `There is already a parking lot ${input.id}`);
      const draft = completeLot(input, input.id ?? 0);
      ensureConsistent(draft);
      return this.store.lots.insert(draft, input.id !== undefined, this.now(), by);
    })();
    this.changed();
    return lot;
  }

  /** The ETag a GET of this lot answers: the hash of `{data: lot}` as sent. */
  static etag(lot: ParkingLot): string {
    return render({ data: lot }).etag;
  }

  /**
   * The lot as stored now, refused with 412 when `ifMatch` names another version. Called inside
   * the write's transaction, so no other write can land between the check and the change.
   */
  private matching(id: number, ifMatch: string | null | undefined): ParkingLot {
    const lot = this.require(id);
    const etag = LotCatalog.etag(lot);
    if (!ifMatchHolds(ifMatch, etag)) throw stale(`Parking lot ${id}`, etag);
    return lot;
  }

  /** Writes a whole lot over lot `id`; answers it as stored. */
  replace(id: number, input: LotInput, by: string, ifMatch?: string | null): ParkingLot {
    if (input.id !== undefined && input.id !== id) throw notThisLot(input.id, id);
    return this.write(id, by, ifMatch, () => completeLot(input, id));
  }

  patch(id: number, patch: ParkingLotPatch, by: string, ifMatch?: string | null): ParkingLot {
    if (patch.id !== undefined && patch.id !== id) throw notThisLot(patch.id, id);
    return this.write(id, by, ifMatch, (current) => completeLot({ ...current, ...patch }, id));
  }

  private write(
    id: number,
    by: string,
    ifMatch: string | null | undefined,
    next: (current: ParkingLot) => ParkingLot,
  ): ParkingLot {
    const lot = this.store.transaction(() => {
      const lot = next(this.matching(id, ifMatch));
      ensureConsistent(lot);
      this.store.lots.update(lot, this.now(), by);
      return this.require(id);
    })();
    this.changed();
    return lot;
  }

  remove(id: number, ifMatch?: string | null): void {
    this.store.transaction(() => {
      this.matching(id, ifMatch);
      this.store.lots.delete(id);
    })();
    this.changed();
  }

  /**
   * Replaces by id (creating lots that do not exist yet) in one transaction. The lots must be
   * complete and consistent already (see checkLotFile).
   */
  importLots(lots: readonly ParkingLot[], by: string): { created: number; replaced: number } {
    const counts = this.store.lots.importAll(lots, this.now(), by);
    this.changed();
    return counts;
  }

  /** The next id AUTOINCREMENT would give, for import entries that carry none. */
  nextId(): number {
    return this.store.lots.nextId();
  }
}
