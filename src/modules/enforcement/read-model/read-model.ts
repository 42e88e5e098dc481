import { RepeatedFault } from "../../../platform/fault-log.ts";
import { type KeptBody, keptBody } from "../../../platform/http/shared-body.ts";
import type { JobHolder } from "../../../platform/module.ts";
import { isStoreUnavailable, type Store } from "../../../platform/store/db.ts";
import type { LiveCursor, TicketRecords } from "../../../platform/store/tickets/records.ts";
import type { EnforcementDeps } from "../deps.ts";
import type { ExtendedInformation } from "../model.ts";
import {
  type Answer,
  activeList,
  type Candidate,
  candidates,
  checkAnswer,
  type ListChange,
  nextChange,
  ZoneList,
} from "./answers.ts";
import { LiveCopy, type PlateEntries } from "./held.ts";

export { ZoneList } from "./answers.ts";
export type { PlateEntries } from "./held.ts";

/** How far the clock moves on before entries that can no longer be listed are swept out. */
const SWEEP_MS = 60_000;
/** The plates of a zone's latest writes kept, so that its list can be patched rather than rebuilt. */
const PLATES_KEPT = 64;
/** Zones whose write logs are kept at most. */
const ZONES_LOGGED = 1_000;
/** What the kept answers hold, in characters; the oldest go first. */
const MAX_CHARS = 16 * 1024 * 1024;
/** Changes of a watched zone's list kept, so that a feed that reconnects soon resumes with what it missed. */
const CHANGES_KEPT = 64;
/**
 * Watched zones' lists are asked again after writes (gathered this long: at a busy site's intake,
 * 150 events a second, a round per write would be one version check per zone per event) and
 * every second (permits start and end with the clock; another process may write).
 */
const GATHER_MS = 50;
const CLOCK_MS = 1_000;
/** A round's slice: how long the watched zones hold the event loop before letting requests in. */
const SLICE_MS = 0.5;

/** What the read model asks of the store: its repositories and its one source of what changed. */
export type ReadModelStore = Pick<Store, "tickets" | "permits" | "lots" | "written" | "inTransaction">;

export interface ReadModelOptions {
  /** Tickets read per turn of the event loop while the set is (re)built. */
  slice?: number;
  /** Another process's commits are looked for at most this often (ms, monotonic); 0: every answer. */
  versionCheckMs?: number;
  /** How long a round of the watched zones waits for more writes. */
  gatherMs?: number;
  /** What the kept answers hold at most, in characters. */
  maxChars?: number;
}

/** Kinds of kept answers: check-tickets by zone, the zone list, the handheld's saved list. */
type Kind = "check" | "list" | "saved";

interface Kept {
  answer: Answer;
  /** What it was built from: the model's generation and the zone's writes (saved: the store's). */
  generation: number;
  writes: number;
  /** It holds from this instant until answer.until. */
  from: number;
  chars: number;
}

/** One change of a watched zone's list, by event ids. */
export interface Change {
  from: string;
  to: string;
  added: string[];
  removed: string[];
}

type Listener = (change: Change, list: ZoneList) => void;

interface Watched {
  /** The list last told to the listeners, and the latest changes, oldest first. */
  list: ZoneList;
  changes: Change[];
  listeners: Set<Listener>;
}

interface Build {
  horizon: number;
  version: number;
  after: LiveCursor | null;
}

/**
 * The enforcement module's read model: every lookup's answer (check-tickets by plate and by zone,
 * the zone list and its live changes, the handheld's saved list) comes from it, with ONE way of
 * knowing what changed (the store's WrittenRows: the repositories' notes of this process's writes,
 * and PRAGMA data_version for another process's) and ONE cache of answers it versions.
 *
 * It holds, in memory, the tickets and permits (the site's own and the office's) a lookup can
 * return: every one not canceled that is open-ended or ends after the horizon, started or not,
 * about a day of tickets out of the 90 kept (some 31 000 on the 1M-ticket bench store, about
 * 13 MB of heap), so a plate lookup reads a map instead of three indexed queries on the plate's
 * whole history. `forPlate` answers exactly what `TicketRecords.listedForPlate`,
 * `PermitRecords.listedForPlate` and `PermitRecords.officeForPlate` answer, and `forZone` what
 * the `listedInZone` queries answer (test/modules/enforcement/read-model.test.ts checks it on
 * random writes through every write path, builds and clock moves). It is kept current by:
 * - this process's writes: each noted row is read again before the next answer, and the zone the
 *   row was in and the zone it is in now move on (a lot written moves the generation: answers
 *   carry lot names). Notes are taken only outside a transaction, so an answer never holds a
 *   write that could still be rolled back;
 * - another process's commit, which moves the data version (looked at for every zone answer,
 *   and for plate lookups no more than every `versionCheckMs`, 100 ms: the pragma costs a few µs,
 *   more than the rest of a lookup); the set is then built again;
 * - time: entries that ended before the horizon are swept out as the clock moves on; a clock set
 *   back before the horizon builds the set again.
 * Building reads the set a slice per turn of the event loop (on the 1M-ticket bench store it is
 * about 31 000 rows scattered over the file, a few hundred ms in all), so it never holds up
 * requests; until it is done, lookups are answered by the queries themselves and zone answers are
 * not kept.
 *
 * Why a lookup has two sources: the queries read what the store holds, and this model is a copy
 * of part of it. The copy cannot answer before it is built (at start, and again after another
 * process's commit) nor for a cutoff before its horizon, and a lookup must not wait for it; so
 * the queries answer then, and read-model.test.ts holds the two to the same answers.
 *
 * A zone answer costs a few hundred µs to build from a busy zone and is asked for again and again
 * while nothing changes: it is kept while its zone's writes and the generation are unchanged and
 * the clock is inside [the instant it was built, the next instant it could change) (nextChange);
 * a zone list where only some plates' rows were written since is patched for those plates.
 */
export class ReadModel {
  private readonly copy = new LiveCopy();
  /** Rows ending at or before the horizon are not held; null while not built. */
  private horizon: number | null = null;
  private dataVersion = -1;
  /** The notes' serial when they were last taken: unchanged, there are none to take. */
  private notesSeen = -1;
  private building: Build | null = null;
  private readonly slice: number;
  private readonly versionCheckMs: number;
  private readonly gatherMs: number;
  private readonly maxChars: number;
  /** Moves with each build done and each lot written: every zone answer is built again. */
  private generation = 0;
  /** Per zone, its held rows' writes. */
  private readonly zoneWrites = new Map<number, number>();
  /** Per zone, the plates of its latest writes: the zone's write count after each, and its plates. */
  private readonly zonePlates = new Map<number, { at: number; plates: string[] }[]>();
  /** The kept answers by kind and zone, oldest first, and what they hold in characters. */
  private readonly kept = new Map<string, Kept>();
  private keptChars = 0;
  /** Set while a round of zone answers shares one look for other processes' commits. */
  private inRound = false;
  private readonly watched = new Map<number, Watched>();
  private rounds: { clock: ReturnType<typeof setInterval>; stopListening: () => void } | undefined;
  private gathering: ReturnType<typeof setTimeout> | undefined;
  /** The round under way; `again` when another was asked for meanwhile. */
  private round: { again: boolean; failures: number } | undefined;
  readonly fault = new RepeatedFault(
    "the live zone feeds could not read a zone's list; they try again at the next write or second",
  );

  constructor(
    private readonly ctx: Pick<EnforcementDeps, "config" | "now"> & { store: ReadModelStore },
    opts: ReadModelOptions = {},
  ) {
    this.slice = opts.slice ?? 500;
    this.versionCheckMs = opts.versionCheckMs ?? 100;
    this.gatherMs = opts.gatherMs ?? GATHER_MS;
    this.maxChars = opts.maxChars ?? MAX_CHARS;
    // What was noted before the model existed is in what its first build reads.
    ctx.store.written.take();
  }

  private get store(): ReadModelStore {
    return this.ctx.store;
  }

  private recentMs(): number {
    return this.ctx.config.recentHours * 3_600_000;
  }

  /**
   * As TicketRecords.listedForPlate, and PermitRecords.listedForPlate with officeForPlate:
   * started by `now`, not canceled, open-ended or ending after `cutoff`.
   */
  forPlate(plateNorm: string, now: number, cutoff: number): PlateEntries {
    if (this.update(cutoff)) return this.copy.forPlate(plateNorm, now, cutoff);
    const { tickets, permits: records } = this.store;
    const permits = records.listedForPlate(plateNorm, now, cutoff);
    for (const p of records.officeForPlate(plateNorm, now, cutoff)) permits.push(p);
    return { tickets: tickets.listedForPlate(plateNorm, now, cutoff), permits };
  }

  /**
   * As TicketRecords.listedInZone and PermitRecords.listedInZone (the office's included) at
   * `cutoff`: from the set, or from the queries while it is being built. `lookupCutoff` is the
   * lookups' own (now less the recent hours), which the set is kept current for: a zone list
   * asks with a later cutoff, which must not move the horizon past the plate lookups'.
   */
  forZone(zone: number, cutoff: number, lookupCutoff: number): PlateEntries {
    if (cutoff >= lookupCutoff && this.update(lookupCutoff)) return this.copy.inZone(zone, cutoff);
    return {
      tickets: this.store.tickets.listedInZone(zone, cutoff),
      permits: this.store.permits.listedInZone(zone, cutoff),
    };
  }

  /** How many tickets and permits are held (for tests and the bench). */
  get size(): number {
    return this.copy.size();
  }

  /** check-tickets by registration number (already normalized). */
  byPlate(plateNorm: string, at: number): ExtendedInformation[] {
    const recent = this.recentMs();
    const rows = candidates(this.forPlate(plateNorm, at, at - recent), this.lotName);
    return checkAnswer(rows, at, recent, this.ctx.config.timezone);
  }

  private readonly lotName = (id: number) => this.store.lots.nameOf(id);

  /** check-tickets by zone. */
  byZone(zone: number, at: number): ExtendedInformation[] {
    const recent = this.recentMs();
    return checkAnswer(this.inZone(zone, at - recent, at, true), at, recent, this.ctx.config.timezone);
  }

  /** check-tickets by zone as its JSON body (a large one as its bytes), kept while nothing it depends on changes. */
  byZoneJson(zone: number, at: number): { body: KeptBody; results: number } {
    return this.zoneAnswer("check", zone, at, () => {
      const recent = this.recentMs();
      const rows = this.inZone(zone, at - recent, at, true);
      const found = checkAnswer(rows, at, recent, this.ctx.config.timezone);
      return { body: JSON.stringify(found), results: found.length, until: nextChange(rows, at, recent) };
    });
  }

  /** The zone list: plates with a permit active now, each once, sorted. */
  activePlates(zone: number, at: number): string[] {
    return activeList(this.inZone(zone, at, at, false), at, this.ctx.config.timezone).plates;
  }

  /** The zone list, with its ETag, kept like byZoneJson and patched where few plates changed. */
  zoneList(zone: number, at: number): ZoneList {
    const tz = this.ctx.config.timezone;
    return this.zoneAnswer(
      "list",
      zone,
      at,
      () => {
        const rows = this.inZone(zone, at, at, false);
        return ZoneList.built(activeList(rows, at, tz), nextChange(rows, at, 0));
      },
      // Where only some plates' rows were written since, each such plate is looked at again (is
      // any of its rows in the zone active now, and how is it shown) and the sorted list patched:
      // a write then costs what its plates do, not what the zone holds.
      (kept, keptWrites) => {
        const written = this.platesWrittenSince(zone, keptWrites);
        if (!written) return null;
        const changed = new Map<string, string | null>();
        let until = Number.POSITIVE_INFINITY;
        for (const plate of written) {
          const rows = candidates(this.copy.plateInZone(plate, zone, at), null);
          until = Math.min(until, nextChange(rows, at, 0));
          changed.set(plate, activeList(rows, at, tz).first ?? null);
        }
        // The kept answer's rows change no sooner than it said; the plates read again, as theirs say.
        return ZoneList.patched(kept, kept.list.patch(changed), Math.min(until, kept.until));
      },
    );
  }

  /**
   * The normalized plates with a ticket or permit in the zone that ends after the cutoff or not
   * at all, started or not (the handheld's saved list is made for them), in plate order.
   */
  platesInZone(zone: number, cutoff: number, at: number): string[] {
    const plates = new Set<string>();
    for (const c of this.inZone(zone, cutoff, at, false)) plates.add(c.plateNorm);
    return [...plates].sort();
  }

  /**
   * A zone's saved list, made by `build` again only after a write (this process's notes, another
   * process's commit) or at the next minute: a big zone's list takes a second to make, and every
   * handheld in the zone asks for it. Within the minute only its edges move (a holding passing
   * the look-back or the day ahead), which the handheld judges by its own clock anyway.
   */
  savedList<A extends Omit<Answer, "until">>(zone: number, at: number, build: () => A): A {
    const { written } = this.store;
    const version = { generation: written.others(), writes: written.serial };
    const until = (Math.floor(at / 60_000) + 1) * 60_000;
    return this.kept_("saved", zone, at, version, () => ({ ...build(), until }));
  }

  /** The answer of this kind for `zone` at `at`: kept while its zone reads the same. */
  private zoneAnswer<A extends Answer>(
    kind: Kind,
    zone: number,
    at: number,
    build: () => A,
    patch?: (kept: A, keptWrites: number) => A | null,
  ): A {
    // Another process's commit is looked for on every zone answer (a few µs, small beside
    // building one): a kept answer is never behind one. A round looked once for all its zones.
    const built = this.update(at - this.recentMs(), !this.inRound);
    const version = built ? { generation: this.generation, writes: this.zoneWrites.get(zone) ?? 0 } : null;
    return this.kept_(kind, zone, at, version, build, patch);
  }

  private kept_<A extends Answer>(
    kind: Kind,
    zone: number,
    at: number,
    version: { generation: number; writes: number } | null,
    build: () => A,
    patch?: (kept: A, keptWrites: number) => A | null,
  ): A {
    const key = `${kind}:${zone}`;
    const kept = this.kept.get(key);
    const inTime = kept !== undefined && kept.from <= at && at < kept.answer.until;
    const same = version !== null && kept?.generation === version.generation;
    if (inTime && same && kept.writes === version.writes) return kept.answer as A;
    const patched = inTime && same && patch ? patch(kept.answer as A, kept.writes) : null;
    const answer = patched ?? build();
    if (version === null) return answer;
    if (kept) this.forget(key, kept);
    const keeping = kind === "check" ? asShared(answer) : answer;
    if (keeping instanceof ZoneList) keeping.share();
    const entry: Kept = {
      answer: keeping,
      ...version,
      from: at,
      chars: keeping.chars ?? keeping.body.length,
    };
    this.kept.set(key, entry);
    this.keptChars += entry.chars;
    for (const [k, e] of this.kept) {
      if (this.keptChars <= this.maxChars || k === key) break;
      this.forget(k, e);
    }
    return keeping;
  }

  private forget(key: string, e: Kept): void {
    this.kept.delete(key);
    this.keptChars -= e.chars;
  }

  /** How many answers are kept (for tests). */
  get keptAnswers(): number {
    return this.kept.size;
  }

  /**
   * The plates whose rows in `zone` were written since its write count was `writes`; null when
   * that cannot be told (more was written than is kept).
   */
  private platesWrittenSince(zone: number, writes: number): Set<string> | null {
    const log = this.zonePlates.get(zone) ?? [];
    if ((this.zoneWrites.get(zone) ?? 0) - writes > log.length) return null;
    const plates = new Set<string>();
    for (const w of log) if (w.at > writes) for (const p of w.plates) plates.add(p);
    return plates;
  }

  /** Tickets and permits of a zone that end after the cutoff or not at all, started or not. */
  private inZone(zone: number, cutoff: number, at: number, withNotes: boolean): Candidate[] {
    return candidates(this.forZone(zone, cutoff, at - this.recentMs()), withNotes ? this.lotName : null);
  }

  /**
   * Follows a zone's list for the live feed: `listener` hears each change, once per change
   * whatever the number of listeners, after this process's writes and every second. Returns the
   * list as of now, the changes since an earlier list's id (null when that is not among the
   * latest), and how to stop.
   */
  watch(
    zone: number,
    listener: Listener,
  ): { list: ZoneList; since(id: string): { added: string[]; removed: string[] } | null; stop(): void } {
    const list = this.zoneList(zone, this.ctx.now());
    let w = this.watched.get(zone);
    if (!w) {
      w = { list, changes: [], listeners: new Set() };
      this.watched.set(zone, w);
    } else this.refresh(zone, w);
    w.listeners.add(listener);
    this.startRounds();
    const watched = w;
    return {
      list: watched.list,
      since: (id) => changesSince(watched.changes, id),
      stop: () => {
        if (!watched.listeners.delete(listener) || watched.listeners.size > 0) return;
        this.watched.delete(zone);
        if (this.watched.size === 0) this.stopRounds();
      },
    };
  }

  /** Asks a watched zone's list again (kept, patched or built); a change is told to its listeners. */
  private refresh(zone: number, w: Watched): void {
    let list: ZoneList;
    try {
      list = this.zoneList(zone, this.ctx.now());
    } catch (e) {
      // Asked again at the next write or second; logged once while it lasts, never swallowed.
      this.fault.failed(e, isStoreUnavailable(e), { zone });
      return;
    }
    if (list.etag === w.list.etag) return;
    const { added, removed }: ListChange = list.changeFrom(w.list);
    const change = { from: w.list.id, to: list.id, added, removed };
    w.changes.push(change);
    if (w.changes.length > CHANGES_KEPT) w.changes.shift();
    w.list = list;
    for (const listen of w.listeners) listen(change, list);
  }

  private startRounds(): void {
    if (this.rounds) return;
    const clock = setInterval(() => this.allWatched(), CLOCK_MS);
    clock.unref?.();
    const stopListening = this.store.written.onWrite(() => {
      this.gathering ??= setTimeout(() => {
        this.gathering = undefined;
        this.allWatched();
      }, this.gatherMs);
    });
    this.rounds = { clock, stopListening };
  }

  private stopRounds(): void {
    // A round under way ends at its next slice: nothing is watched any more.
    this.round = undefined;
    clearInterval(this.rounds?.clock);
    this.rounds?.stopListening();
    this.rounds = undefined;
    clearTimeout(this.gathering);
    this.gathering = undefined;
  }

  /**
   * A round over every watched zone, in slices of about SLICE_MS with a turn of the event loop
   * between them, so that a request arriving during a round waits for one slice, not for every
   * watched zone; a round asked for while one runs follows it.
   */
  private allWatched(): void {
    if (this.round) {
      this.round.again = true;
      return;
    }
    const round = { again: false, failures: this.fault.failures };
    this.round = round;
    const zones = [...this.watched.keys()];
    let next = 0;
    const slice = () => {
      if (this.round !== round) return;
      try {
        // One look for another process's commits for the slice's zones, not one per zone.
        this.update(this.ctx.now() - this.recentMs(), true);
        this.inRound = true;
        const started = performance.now();
        while (next < zones.length) {
          const w = this.watched.get(zones[next++]!);
          if (w) this.refresh(zones[next - 1]!, w);
          if (performance.now() - started > SLICE_MS) break;
        }
      } catch (e) {
        this.fault.failed(e, isStoreUnavailable(e));
        next = zones.length;
      } finally {
        this.inRound = false;
      }
      if (next < zones.length) {
        setImmediate(slice);
        return;
      }
      this.round = undefined;
      if (this.fault.failures === round.failures) this.fault.recovered();
      // The next round after a turn of the event loop too, not straight after this slice.
      if (round.again) setImmediate(() => this.allWatched());
    };
    slice();
  }

  /**
   * Reads the model in soon after start (not during the first answers: it is a few hundred ms of
   * reads, in slices) rather than at the first lookup, and takes in what was written every second
   * even while nobody looks, so notes never pile up.
   */
  keepCurrent(hold: JobHolder): void {
    const fault = new RepeatedFault("reading the lookups' read model failed; the next lookup tries again");
    const refresh = () => {
      try {
        this.update(this.ctx.now() - this.recentMs());
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

  /** True when the set is built and current for answers with this cutoff; else starts building it. */
  update(cutoff: number, exact = false): boolean {
    const { written } = this.store;
    const version = written.others(exact ? 0 : this.versionCheckMs);
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.horizon = null;
    }
    if (this.horizon !== null && cutoff < this.horizon) this.horizon = null;
    if (this.horizon === null) {
      // Never built from inside a transaction: it would read rows a rollback could still take back.
      if (this.store.inTransaction) return false;
      // A build that started before what made this one needed is started over.
      if (this.building?.version !== this.dataVersion || this.building.horizon > cutoff) this.build(cutoff);
      return false;
    }
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
      if (notes.lots) this.generation++;
    }
    // Drops what ended at or before the new horizon: no later answer (cutoff ≥ horizon) lists it,
    // so no zone moves.
    if (cutoff - this.horizon >= SWEEP_MS) {
      this.horizon = cutoff;
      this.copy.dropEnded(cutoff);
    }
    return true;
  }

  /** Starts reading the whole set afresh, a slice per turn of the event loop. */
  private build(horizon: number): void {
    const build: Build = { horizon, version: this.dataVersion, after: null };
    this.building = build;
    this.copy.clear();
    // The logs patch answers of the build before; the next build's generation differs anyway.
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
      this.generation++;
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
}

/** The changes since version `from`, as one (what was added and then removed cancels out); null when `from` is not among them. */
function changesSince(
  changes: readonly Change[],
  from: string,
): { added: string[]; removed: string[] } | null {
  const start = changes.findIndex((c) => c.from === from);
  if (start < 0) return null;
  const added = new Set<string>();
  const removed = new Set<string>();
  for (const c of changes.slice(start)) {
    for (const p of c.added) if (!removed.delete(p)) added.add(p);
    for (const p of c.removed) if (!added.delete(p)) removed.add(p);
  }
  return { added: [...added], removed: [...removed] };
}

/**
 * A check-tickets answer as it is kept: a large body as its bytes, which every request for it is
 * written from. Only a kept answer is: one built for a single request (the model still building)
 * stays text, so that the connection that sends it counts it as its own output.
 */
function asShared<A extends Answer>(answer: A): A {
  return typeof answer.body === "string" ? { ...answer, body: keptBody(answer.body) } : answer;
}
