import { type Actor, type Fields, fieldChanges } from "../../../domain/changes.ts";
import { type FieldError, invalid, refuse, stale } from "../../../domain/errors.ts";
import type { LotInput, ParkingLot } from "../../../domain/lots/lot.ts";
import { completeLot, lotNotFound, lotRuleErrors } from "../../../domain/lots/rules.ts";
import type { ParkingLotPatch } from "../../../domain/lots/schema.ts";
import { ID_MAX } from "../../../domain/zones.ts";
import { ifMatchHolds, renderJson } from "../../../platform/http/conditional.ts";
import type { Store } from "../../../platform/store/db.ts";
import { planImport } from "./import.ts";
import type { ImportReport } from "./model.ts";

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

/**
 * The operators' writes to the parking lots: each checked against the lot's rules, guarded by
 * If-Match and kept in the change history in its own transaction. Reads (with their rendered
 * cache) are the public module's; both meet in the store, whose lot version every write moves.
 */
export class LotCatalog {
  constructor(
    private readonly store: Pick<Store, "lots" | "changes" | "transaction">,
    private readonly now: () => number = Date.now,
  ) {}

  /** Every lot as stored (what `parkd lots export` writes). */
  all(): ParkingLot[] {
    return this.store.lots.all();
  }

  get(id: number): ParkingLot | null {
    return this.store.lots.get(id);
  }

  require(id: number): ParkingLot {
    const lot = this.get(id);
    if (!lot) throw lotNotFound(id);
    return lot;
  }

  /** Keeps the write in the change history (inside the write's transaction); nothing if nothing changed. */
  private record(actor: Actor, id: number, before: ParkingLot | null, after: ParkingLot | null): void {
    const fields = fieldChanges(before as Fields | null, after as Fields | null);
    if (!fields) return;
    const action = before === null ? "create" : after === null ? "delete" : "update";
    this.store.changes.record({
      at: this.now(),
      actor: actor.who,
      via: actor.via,
      subject: "lot",
      subjectId: String(id),
      action,
      ...fields,
    });
  }

  create(input: LotInput, actor: Actor): ParkingLot {
    const lot = this.store.transaction(() => {
      if (input.id !== undefined && this.store.lots.exists(input.id))
        throw refuse("lot-exists", `There is already a parking lot ${input.id}`);
      // The next id would be past the largest the API takes: the lot could never be read again.
      if (input.id === undefined && this.store.lots.nextId() > ID_MAX)
        throw refuse(
          "lot-exists",
          `No free lot id is left at or below ${ID_MAX}: create the lot with an id that is free`,
        );
      const draft = completeLot(input, input.id ?? 0);
      ensureConsistent(draft);
      const lot = this.store.lots.insert(draft, input.id !== undefined, this.now(), actor.who);
      this.record(actor, lot.id, null, lot);
      return lot;
    })();
    return lot;
  }

  /** The ETag a GET of this lot answers: the hash of `{data: lot}` as sent. */
  static etag(lot: ParkingLot): string {
    return renderJson({ data: lot }).etag;
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
  replace(id: number, input: LotInput, actor: Actor, ifMatch?: string | null): ParkingLot {
    if (input.id !== undefined && input.id !== id) throw notThisLot(input.id, id);
    return this.write(id, actor, ifMatch, () => completeLot(input, id));
  }

  patch(id: number, patch: ParkingLotPatch, actor: Actor, ifMatch?: string | null): ParkingLot {
    if (patch.id !== undefined && patch.id !== id) throw notThisLot(patch.id, id);
    return this.write(id, actor, ifMatch, (current) => completeLot({ ...current, ...patch }, id));
  }

  private write(
    id: number,
    actor: Actor,
    ifMatch: string | null | undefined,
    next: (current: ParkingLot) => ParkingLot,
  ): ParkingLot {
    const lot = this.store.transaction(() => {
      const before = this.matching(id, ifMatch);
      const lot = next(before);
      ensureConsistent(lot);
      this.store.lots.update(lot, this.now(), actor.who);
      const after = this.require(id);
      this.record(actor, id, before, after);
      return after;
    })();
    return lot;
  }

  remove(id: number, actor: Actor, ifMatch?: string | null): void {
    this.store.transaction(() => {
      const before = this.matching(id, ifMatch);
      this.store.lots.delete(id);
      this.record(actor, id, before, null);
    })();
  }

  /**
   * Reads an import file against the stored lots and, unless `dryRun` or anything was refused,
   * writes every created and changed lot in one transaction: all or nothing. The plan is made
   * inside that transaction, so the report says what was really written.
   */
  importFile(value: unknown, actor: Actor, dryRun: boolean): ImportReport {
    const report = this.store.transaction(() => {
      const plan = planImport(value, this.store.lots.all(), this.store.lots.nextId());
      const apply = !dryRun && plan.report.refused === 0 && plan.report.file_errors.length === 0;
      if (apply && plan.writes.length) {
        const stored = new Map(this.store.lots.all().map((l) => [l.id, l]));
        this.store.lots.importAll(
          plan.writes.map((w) => w.lot),
          this.now(),
          actor.who,
        );
        for (const { lot } of plan.writes)
          this.record(actor, lot.id, stored.get(lot.id) ?? null, this.require(lot.id));
      }
      return { dry_run: dryRun, applied: apply, ...plan.report };
    })();
    return report;
  }
}
