/**
 * Retention: tickets, their events and permit-lookup records are deleted `retentionDays` after
 * they ended; the change history of operator writes and the attendants' timed observations
 * (marks) `retentionDays` after each was made; control notices `retentionDays` after they were
 * issued (or voided, if later), with their photos' records and the files no notice holds any
 * more (and any such file a stopped purge left behind). When a ticket "ended":
 *   - canceled: at canceled_at (the moment it stopped counting as a permit), whatever its end_at;
 *   - otherwise: at end_at; a ticket with no end_at is running and is never deleted.
 * Operator-issued permits are never deleted by retention: an operator deletes them.
 *
 * Work goes in small steps (a window of `batch` rows per transaction) with a yield to the event
 * loop between steps, so requests are answered while a large backlog is worked off.
 */
import type { Store } from "../../platform/store/db.ts";
import type { DiskWatch } from "./disk-watch.ts";
import type { PurgeReport } from "./model.ts";

export const DAY_MS = 86_400_000;

export interface PurgeOptions {
  now: number;
  retentionDays: number;
  /** Rows per transaction. */
  batch?: number;
  dryRun?: boolean;
  /** Called between steps; the default lets the event loop run. */
  pause?: () => Promise<void>;
  /** Set to stop early (shutdown); what was done stays done. */
  signal?: AbortSignal;
}

const noticesCounted = (c: { notices: number; photos: number }) => ({
  notices: c.notices,
  noticePhotos: c.photos,
});

export function cutoffOf(now: number, retentionDays: number): number {
  return now - retentionDays * DAY_MS;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A purge beside a serving box rests at least this long between steps, */
const REST_MIN_MS = 50;
/** and this many times as long as its last step took: it holds the write lock a third of the time at most. */
const REST_RATIO = 2;

/**
 * The pause for a purge run in another process than `serve` (parkd purge by hand). Serve's
 * writes wait for the store's write lock holding their thread, the event loop's included: a
 * purge that took the lock back at once after each step kept a serving box from answering for
 * seconds. Resting between steps, in proportion to each, leaves the lock free most of the time;
 * a purge of millions of records takes minutes instead of seconds (bench/notes.md).
 */
export function restingBesideServe(now: () => number = () => performance.now()): () => Promise<void> {
  let stepStarted = now();
  return async () => {
    const took = now() - stepStarted;
    await Bun.sleep(Math.max(REST_MIN_MS, took * REST_RATIO));
    stepStarted = now();
  };
}

/** Tries of one step while another process holds the store's write lock (each after the busy timeout). */
const BUSY_TRIES = 6;

function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/**
 * A purge that stopped before its end: what it deleted, and why it stopped. Each step is its own
 * transaction, so what was deleted stays deleted and the rest is left whole for the next run.
 */
export class PurgeIncomplete extends Error {
  constructor(
    readonly done: PurgeReport,
    reason: string,
  ) {
    super(reason);
  }
}

/** One step, tried again while the store is busy with another process's writes. */
async function step<T>(run: () => T, done: PurgeReport, pause: () => Promise<void>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return run();
    } catch (e) {
      if (!isBusy(e)) throw e;
      if (attempt >= BUSY_TRIES)
        throw new PurgeIncomplete(
          done,
          `the store stayed busy with another process's writes (${(e as Error).message})`,
        );
      await pause();
      await Bun.sleep(50 * attempt);
    }
  }
}

/** How many photo files a purge removes between two rests. */
const PHOTO_FILES_BETWEEN_RESTS = 50;

/** The tables retention deletes from: tickets and their log, lookup records, operator changes. */
export type RetentionStore = Pick<
  Store,
  | "tickets"
  | "lookups"
  | "changes"
  | "observations"
  | "notices"
  | "photos"
  | "transaction"
  | "photoHashesNamed"
>;

/** Deletes (or with dryRun, counts) what retention removes; returns how many rows of each kind. */
export async function purgeExpired(store: RetentionStore, opts: PurgeOptions): Promise<PurgeReport> {
  const cutoff = cutoffOf(opts.now, opts.retentionDays);
  if (opts.dryRun) {
    const ended = store.tickets.countEndedBefore(cutoff);
    return {
      tickets: ended.tickets,
      ticketEvents: ended.events,
      permitLookups: store.lookups.countBefore(cutoff),
      operatorChanges: store.changes.countBefore(cutoff),
      observations: store.observations.countBefore(cutoff),
      ...noticesCounted(store.notices.countBefore(cutoff)),
    };
  }
  const batch = Math.max(1, opts.batch ?? 1000);
  // A notice weighs more than a ticket's row: its photos' records, and their files after.
  const noticeBatch = Math.max(1, Math.ceil(batch / 10));
  const pause = opts.pause ?? yieldToLoop;
  const report: PurgeReport = {
    tickets: 0,
    ticketEvents: 0,
    permitLookups: 0,
    operatorChanges: 0,
    observations: 0,
    notices: 0,
    noticePhotos: 0,
  };

  const { lo, hi } = store.tickets.rowids();
  for (let from = lo - 1; from < hi; from += batch) {
    if (opts.signal?.aborted) return report;
    const gone = await step(() => store.tickets.purgeWindow(from, from + batch, cutoff), report, pause);
    report.tickets += gone.tickets;
    report.ticketEvents += gone.events;
    await pause();
  }

  for (;;) {
    if (opts.signal?.aborted) return report;
    const n = await step(() => store.lookups.deleteBefore(cutoff, batch), report, pause);
    report.permitLookups += n;
    if (n < batch) break;
    await pause();
  }

  for (;;) {
    if (opts.signal?.aborted) return report;
    const n = store.changes.deleteBefore(cutoff, batch);
    report.operatorChanges += n;
    if (n < batch) break;
    await pause();
  }

  for (;;) {
    if (opts.signal?.aborted) return report;
    const n = await step(() => store.observations.deleteBefore(cutoff, batch), report, pause);
    report.observations += n;
    if (n < batch) break;
    await pause();
  }

  for (;;) {
    if (opts.signal?.aborted) return report;
    const gone = await step(() => store.notices.deleteBefore(cutoff, noticeBatch), report, pause);
    report.notices += gone.notices;
    // After the commit: a file is removed only once no stored notice can name it. Asked again
    // here, since the same photo may have come back on a new notice meanwhile (a purge run by
    // hand while serve takes photos). A rest every PHOTO_FILES_BETWEEN_RESTS files: each removal
    // is the file system's work, which serve's own syncs queue behind.
    let removed = 0;
    for (const hash of gone.unheld)
      if (await step(() => removeUnheldPhoto(store, hash), report, pause)) {
        report.noticePhotos++;
        if (++removed % PHOTO_FILES_BETWEEN_RESTS === 0) await pause();
      }
    if (gone.notices < noticeBatch) break;
    await pause();
  }

  // Files no notice names: a purge stopped between a commit and its removals (kill -9, a power
  // cut) left them, and no later purge would see their notices again. By the system's clock, as
  // the files' times are; an hour is far more than a photo takes from its file to its record.
  // The store the latest restore set aside names photos too: it may be restored back.
  if (opts.signal?.aborted) return report;
  const named = store.photoHashesNamed();
  const left = store.photos.leftovers(named ?? new Set(), Date.now() - LEFTOVER_AGE_MS);
  for (const name of left.unfinished) store.photos.removeUnfinished(name);
  if (named === null) return report;
  let removed = 0;
  for (const hash of left.photos) {
    if (opts.signal?.aborted) return report;
    if (await step(() => removeUnheldPhoto(store, hash), report, pause)) report.noticePhotos++;
    if (++removed % PHOTO_FILES_BETWEEN_RESTS === 0) await pause();
  }
  return report;
}

/** A file in the photos folder older than this that no notice names is a leftover. */
const LEFTOVER_AGE_MS = 3_600_000;

/**
 * Removes a photo's file if no notice names it, holding the store's write lock from the question
 * to the removal: a notice that takes the same photo meanwhile (notices/service.ts) either
 * committed first, and the file stays, or finds it gone after its commit and writes it again.
 */
function removeUnheldPhoto(store: RetentionStore, hash: string): boolean {
  return store
    .transaction(() => {
      if (store.notices.photoUses(hash) !== 0) return false;
      store.photos.remove(hash);
      return true;
    })
    .immediate();
}

export interface RetentionSchedule {
  /** Resolves when a run in progress has stopped. */
  stop(): Promise<void>;
  /** The run in progress or the next one; for tests and `serve` start-up. */
  runNow(): Promise<PurgeReport | undefined>;
}

function added(a: PurgeReport, b: PurgeReport): PurgeReport {
  const out = { ...a };
  for (const k of Object.keys(b) as (keyof PurgeReport)[]) out[k] += b[k];
  return out;
}

/**
 * While the disk is at its reserve: deletes a day more of the oldest records at a time, reading
 * the room after each (a day that holds nothing costs one pass of small reads), until the disk
 * has room above the reserve or retention is down to its minimum of days. Deleted rows' pages
 * are reused by the store before it grows, and photo files leave the disk: both count as room
 * for records (photos need the disk's own free space).
 */
async function makeRoom(
  store: RetentionStore,
  watch: DiskWatch,
  now: number,
  signal: AbortSignal,
): Promise<{ report: PurgeReport | null; short: boolean }> {
  let r = watch.read();
  if (!r) return { report: null, short: false };
  if (r.state !== "at") {
    watch.settle(r);
    return { report: null, short: false };
  }
  let report: PurgeReport | null = null;
  while (r.state === "at" && watch.daysKept > watch.setting.minDays && !signal.aborted) {
    const days = watch.settle(r);
    const gone = await purgeExpired(store, { now, retentionDays: days, signal });
    report = report ? added(report, gone) : gone;
    r = watch.read()!;
  }
  return { report, short: r.state === "at" };
}

/**
 * Runs purgeExpired at start and then every `everyMs` (default hourly), keeping the days the
 * disk watch allows (the setting while the disk has room); and, every `roomEveryMs` (default a
 * minute), as soon as the disk is at its reserve. A failed run is logged and retried at the
 * next tick; it never takes the server down.
 */
export function scheduleRetention(opts: {
  store: RetentionStore;
  now: () => number;
  retentionDays: number;
  watch?: DiskWatch;
  everyMs?: number;
  roomEveryMs?: number;
  onRun?: (report: PurgeReport, daysKept: number) => void;
  onShort?: (daysKept: number) => void;
  onError?: (error: unknown) => void;
}): RetentionSchedule {
  const abort = new AbortController();
  let running: Promise<PurgeReport | undefined> | undefined;
  const once = async (): Promise<PurgeReport> => {
    const now = opts.now();
    const days = opts.watch?.daysKept ?? opts.retentionDays;
    let report = await purgeExpired(opts.store, { now, retentionDays: days, signal: abort.signal });
    if (opts.watch) {
      const room = await makeRoom(opts.store, opts.watch, now, abort.signal);
      if (room.report) report = added(report, room.report);
      if (room.short) opts.onShort?.(opts.watch.daysKept);
    }
    opts.onRun?.(report, opts.watch?.daysKept ?? opts.retentionDays);
    return report;
  };
  const run = (): Promise<PurgeReport | undefined> => {
    if (running) return running;
    running = once()
      .catch((e) => {
        opts.onError?.(e);
        return undefined;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void run(), opts.everyMs ?? 3_600_000);
  timer.unref?.();
  const roomTimer = setInterval(() => {
    try {
      if (opts.watch?.read()?.state === "at") void run();
    } catch (e) {
      opts.onError?.(e);
    }
  }, opts.roomEveryMs ?? 60_000);
  roomTimer.unref?.();
  const first = setTimeout(() => void run(), 0);
  return {
    async stop() {
      clearInterval(timer);
      clearInterval(roomTimer);
      clearTimeout(first);
      abort.abort();
      await running;
    },
    runNow: run,
  };
}
