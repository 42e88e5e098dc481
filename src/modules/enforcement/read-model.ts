import { RepeatedFault } from "../../platform/fault-log.ts";
import type { JobHolder } from "../../platform/module.ts";
import { isStoreUnavailable, type Store } from "../../platform/store/db.ts";
import type { LiveCursor, TicketRecords } from "../../platform/store/tickets/records.ts";
import { LiveCopy, type PlateEntries } from "./live-copy.ts";

export type { PlateEntries } from "./live-copy.ts";

/** How far the clock moves on before entries that can no longer be listed are swept out. */
const SWEEP_MS = 60_000;
/** The plates of a zone's latest writes kept, so that its list can be patched rather than rebuilt. */
const PLATES_KEPT = 64;
/** Zones whose write logs are kept at most. */
const ZONES_LOGGED = 1_000;

/** What the read model asks of the store: its repositories, its write notes and its data version. */
export type ReadModelStore = Pick<Store, "tickets" | "permits" | "written" | "dataVersion" | "inTransaction">;

export interface ReadModelOptions {
  /** Tickets read per turn of the event loop while the set is (re)built. */
  slice?: number;
  /** Another process's commits are looked for at most this often (ms, monotonic); 0: every answer. */
  versionCheckMs?: number;
}

interface Build {
  horizon: number;
  version: number;
  after: LiveCursor | null;
}

/**
 * The enforcement module's read model: the tickets and permits (the site's own and the office's)
 * a lookup can return, held in memory, and a version per zone for the answers built from them.
 * It holds every one not canceled that is open-ended or ends after the horizon, started or not:
 * about a day of tickets out of the 90 kept (some 31 000 on the 1M-ticket bench store, about
 * 13 MB of heap), so a plate lookup reads a map instead of three indexed queries on the plate's
 * whole history. `forPlate` answers exactly what `TicketRecords.listedForPlate`,
 * `PermitRecords.listedForPlate` and `PermitRecords.officeForPlate` answer
 * (test/modules/enforcement/read-model.test.ts checks it on random writes through every write
 * path, builds and clock moves). It is kept current by:
 * - this process's writes: every repository notes what it writes (WrittenRows, the store's one
 *   notice of writes); each noted row is read again before the next answer, and a zone answer's
 *   version moves for the zone the row was in and the zone it is in now. A lot written moves every
 *   zone's (answers carry lot names). Notes are taken only outside a transaction, so an answer
 *   never holds a write that could still be rolled back;
 * - another process's commit (a CLI command on the same store), which moves `PRAGMA data_version`,
 *   looked at no more than every `versionCheckMs` (100 ms: the pragma costs a few µs, more than
 *   the rest of a lookup); the set is then built again;
 * - time: entries that ended before the horizon are swept out as the clock moves on; a clock set
 *   back before the horizon builds the set again.
 * Building reads the set a slice per turn of the event loop (on the 1M-ticket bench store it is
 * about 31 000 rows scattered over the file, a few hundred ms in all), so it never holds up
 * requests; until it is done, lookups are answered by the queries themselves and zone answers are
 * not reused.
 */
export class LookupReadModel {
  private readonly copy = new LiveCopy();
  /** Rows ending at or before the horizon are not held; null while not built. */
  private horizon: number | null = null;
  private dataVersion = -1;
  private versionCheckedAt = Number.NEGATIVE_INFINITY;
  /** The notes' serial when they were last taken: unchanged, there are none to take. */
  private notesSeen = -1;
  private building: Build | null = null;
  private readonly slice: number;
  private readonly versionCheckMs: number;
  /** Zone versions: a build, a lot written, and per zone each held row's change. */
  private builds = 0;
  private lotWrites = 0;
  private readonly zoneWrites = new Map<number, number>();
  /** Per zone, the plates of its latest writes: the zone's write count after each, and its plates. */
  private readonly zonePlates = new Map<number, { at: number; plates: string[] }[]>();

  constructor(
    private readonly store: ReadModelStore,
    opts: ReadModelOptions = {},
  ) {
    this.slice = opts.slice ?? 500;
    this.versionCheckMs = opts.versionCheckMs ?? 100;
    // What was noted before the model existed is in what its first build reads.
    this.store.written.take();
  }

  /**
   * As TicketRecords.listedForPlate, and PermitRecords.listedForPlate with officeForPlate:
   * started by `now`, not canceled, open-ended or ending after `cutoff`.
   */
  forPlate(plateNorm: string, now: number, cutoff: number): PlateEntries {
    if (!this.update(cutoff)) {
      const { tickets, permits: records } = this.store;
      const permits = records.listedForPlate(plateNorm, now, cutoff);
      for (const p of records.officeForPlate(plateNorm, now, cutoff)) permits.push(p);
      return { tickets: tickets.listedForPlate(plateNorm, now, cutoff), permits };
    }
    return this.copy.forPlate(plateNorm, now, cutoff);
  }

  /**
   * As TicketRecords.listedInZone and PermitRecords.listedInZone (the office's included) at
   * `cutoff`; null while the set is not built (the caller asks the queries). `lookupCutoff` is
   * the lookups' own (now less the recent hours), which the set is kept current for: a zone list
   * asks with a later cutoff, which must not move the horizon past the plate lookups'.
   */
  forZone(zone: number, cutoff: number, lookupCutoff: number): PlateEntries | null {
    if (cutoff < lookupCutoff || !this.update(lookupCutoff)) return null;
    return this.copy.inZone(zone, cutoff);
  }

  /**
   * What a zone's answers (check-tickets by zone, the zone list) are built from, as a version:
   * equal versions, equal rows. Null while the set is not built: such answers are not reused.
   * `cutoff` is the lookups' (now less the recent hours): a zone answer reads no row ending
   * before it, so every row it reads is held here.
   */
  zoneVersion(zone: number, cutoff: number, exact = true): string | null {
    // Another process's commit is looked for on every zone answer (a few µs, small beside
    // building one): a reused answer is never behind one. A round of answers that looked once
    // for all of them passes exact = false.
    if (!this.update(cutoff, exact)) return null;
    return `${this.builds}.${this.lotWrites}.${this.zoneWrites.get(zone) ?? 0}`;
  }

  /**
   * The plates whose rows in `zone` were written since `version` (a zoneVersion of this zone), so
   * that an answer built then can be patched; null when that cannot be told (the set was built
   * again, a lot was written, or more was written than is kept). Call after zoneVersion, which
   * takes in what was written.
   */
  platesWrittenSince(zone: number, version: string): Set<string> | null {
    const [builds, lots, writes] = version.split(".").map(Number) as [number, number, number];
    if (builds !== this.builds || lots !== this.lotWrites) return null;
    const log = this.zonePlates.get(zone) ?? [];
    const now = this.zoneWrites.get(zone) ?? 0;
    if (now - writes > log.length) return null;
    const plates = new Set<string>();
    for (const w of log) if (w.at > writes) for (const p of w.plates) plates.add(p);
    return plates;
  }

  /** One plate's entries in a zone, as forZone answers them (null while the set is not built). */
  plateInZone(plateNorm: string, zone: number, cutoff: number, lookupCutoff: number): PlateEntries | null {
    if (cutoff < lookupCutoff || !this.update(lookupCutoff)) return null;
    return this.copy.plateInZone(plateNorm, zone, cutoff);
  }

  /** How many tickets and permits are held (for tests and the bench). */
  get size(): number {
    return this.copy.size();
  }

  /** True when the set is built and current for answers with this cutoff; else starts building it. */
  update(cutoff: number, exact = false): boolean {
    const at = performance.now();
    if (exact || at - this.versionCheckedAt >= this.versionCheckMs) {
      this.versionCheckedAt = at;
      const version = this.store.dataVersion();
      if (version !== this.dataVersion) {
        this.dataVersion = version;
        this.horizon = null;
      }
    }
    if (this.horizon !== null && cutoff < this.horizon) this.horizon = null;
    if (this.horizon === null) {
      // Never built from inside a transaction: it would read rows a rollback could still take back.
      if (this.store.inTransaction) return false;
      // A build that started before what made this one needed is started over.
      if (this.building?.version !== this.dataVersion || this.building.horizon > cutoff) this.build(cutoff);
      return false;
    }
    const written = this.store.written;
    if (written.serial !== this.notesSeen) {
      // A row written inside a transaction still open could be rolled back: not taken in yet.
      if (this.store.inTransaction) return false;
      this.notesSeen = written.serial;
      const notes = written.take();
      // Past MAX_NOTED_TICKETS written since the last answer, reading the whole set again is cheaper.
      if (notes.tooMany) {
        this.horizon = null;
        this.build(cutoff);
        return false;
      }
      for (const id of notes.tickets) this.rereadTicket(id);
      for (const id of notes.permits) this.rereadPermit(id, false);
      for (const id of notes.office) this.rereadPermit(id, true);
      if (notes.lots) this.lotWrites++;
    }
    if (cutoff - this.horizon >= SWEEP_MS) this.sweep(cutoff);
    return true;
  }

  /** Starts reading the whole set afresh, a slice per turn of the event loop. */
  private build(horizon: number): void {
    const build: Build = { horizon, version: this.dataVersion, after: null };
    this.building = build;
    this.copy.clear();
    // The logs patch answers of the build before; the next build's versions differ anyway.
    this.zonePlates.clear();
    // Whatever was written before now is in what is read from now on; later writes leave notes.
    this.store.written.take();
    this.notesSeen = this.store.written.serial;
    for (const p of this.store.permits.live(horizon)) this.copy.putPermit(p);
    const step = () => {
      if (this.building !== build) return;
      let slice: ReturnType<TicketRecords["live"]>;
      try {
        slice = this.store.tickets.live(horizon, this.slice, build.after);
      } catch {
        // The connection closed under the build (shutdown, or Store.recoverWrites moved to a new
        // one, whose data version differs): the build is dropped; a later update starts another.
        this.building = null;
        return;
      }
      for (const t of slice.rows) this.copy.putTicket(t);
      build.after = slice.next;
      if (slice.next) {
        setImmediate(step);
        return;
      }
      this.building = null;
      this.horizon = horizon;
      this.builds++;
    };
    step();
  }

  private rereadTicket(id: string): void {
    const before = this.copy.ticket(id);
    this.copy.dropTicket(id);
    const t = this.store.tickets.listed(id);
    const after = t && t.status !== "canceled" && this.holds(t.endAt) ? t : undefined;
    if (after) this.copy.putTicket(after);
    this.zoneWritten(before, after);
  }

  private rereadPermit(id: number, office: boolean): void {
    const before = this.copy.permit(id, office);
    this.copy.dropPermit(id, office);
    const p = office ? this.store.permits.officeListed(id) : this.store.permits.listed(id);
    const after = p && this.holds(p.endAt) ? p : undefined;
    if (after) this.copy.putPermit(after);
    this.zoneWritten(before, after);
  }

  /**
   * A held row changed, came or went: the answers of its zone before and after are built again
   * (or patched for its plates, before and after).
   */
  private zoneWritten(
    before: { zone: number; plateNorm: string } | undefined,
    after: { zone: number; plateNorm: string } | undefined,
  ): void {
    for (const zone of new Set([before?.zone, after?.zone])) {
      if (zone === undefined) continue;
      const at = (this.zoneWrites.get(zone) ?? 0) + 1;
      this.zoneWrites.set(zone, at);
      const plates = [before, after].filter((r) => r?.zone === zone).map((r) => r!.plateNorm);
      const log = this.zonePlates.get(zone) ?? [];
      log.push({ at, plates });
      if (log.length > PLATES_KEPT) log.shift();
      // Zones come and go (any number a terminal sends): the least recently written lose their
      // logs first (a Map keeps insertion order), and their next answer is built whole.
      this.zonePlates.delete(zone);
      this.zonePlates.set(zone, log);
      for (const old of this.zonePlates.keys()) {
        if (this.zonePlates.size <= ZONES_LOGGED) break;
        this.zonePlates.delete(old);
      }
    }
  }

  private holds(endAt: number | null): boolean {
    return endAt === null || endAt > this.horizon!;
  }

  /**
   * Drops what ended at or before the new horizon: no later answer (cutoff ≥ horizon) lists it,
   * so no zone's version moves.
   */
  private sweep(horizon: number): void {
    this.horizon = horizon;
    this.copy.dropEnded(horizon);
  }
}

/**
 * Reads the model in soon after start (not during the first answers: it is a few hundred ms of
 * reads, in slices) rather than at the first lookup, and takes in what was written every second
 * even while nobody looks, so notes never pile up.
 */
export function keepReadModelCurrent(
  ctx: { readModel: LookupReadModel; now: () => number; config: { recentHours: number } },
  hold: JobHolder,
): void {
  const fault = new RepeatedFault("reading the lookups' read model failed; the next lookup tries again");
  const refresh = () => {
    try {
      ctx.readModel.update(ctx.now() - ctx.config.recentHours * 3_600_000);
      fault.recovered();
    } catch (e) {
      fault.failed(e, isStoreUnavailable(e));
    }
  };
  const warmUp = setTimeout(refresh, 500);
  const catchUp = setInterval(refresh, 1_000);
  catchUp.unref();
  hold("lookups' read model", () => {
    clearTimeout(warmUp);
    clearInterval(catchUp);
  });
}
