/**
 * Before `serve` opens the store for requests: the long steps (the copy taken before a schema
 * upgrade, the upgrade, the revenue book built again), run on a thread of their own
 * (preparation-worker.ts) while the main thread's listener answers with what is being done. A
 * store that needs none of them is not handed to the thread at all. The step in progress is also
 * written to the data folder (`starting.json`), so that `doctor` and the other commands say
 * "upgrading, step 1 of 3" instead of "nothing wrong" or a lock error.
 */
import { Database } from "bun:sqlite";
import {
  accessSync,
  constants,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { DataFolderError, processAlive, STORE_FILE, serveLockHeld } from "./lock.ts";
import { MIGRATIONS } from "./migrations.ts";
import { revenueBookBuiltFor } from "./revenue.ts";
import {
  removeCopiesOfUpgradesNotMade,
  type StoreUpgrade,
  schemaState,
  UPGRADE_BACKUP_DIR,
} from "./upgrade.ts";

/** What the listener, the log and doctor say while the store is prepared. */
export interface StartingStep {
  /** 1-based. */
  step: number;
  of: number;
  /** In words: "copying the store aside before upgrading its schema from version 9 to 14". */
  what: string;
  /** 0..1 where it can be told (the copy's bytes), else null. */
  progress: number | null;
  /** When this step began (ms). */
  since: number;
  /** When preparing began (ms). */
  started: number;
}

/** The file in the data folder that says what a starting serve is doing. */
export const STARTING_FILE = "starting.json";

/** What a command other than serve reads of a serve that is preparing the store; null: none is. */
export function startingStep(dataDir: string): (StartingStep & { pid: number }) | null {
  try {
    const s = JSON.parse(readFileSync(join(dataDir, STARTING_FILE), "utf8")) as StartingStep & {
      pid: number;
    };
    // A file left by a serve that died is not a serve starting: the serve lock is held only while
    // a serve runs (a pid alone can be another process's since: pid 1 in a container).
    if (!serveLockHeld(dataDir) || !processAlive(s.pid)) return null;
    return s;
  } catch {
    return null;
  }
}

/** How long the copy's size must stand still to be said as written (its check and sync running). */
const COPY_STILL_MS = 2_000;

/** "upgrading the store: step 2 of 3, changing its schema (1 min 20 s so far)" */
export function startingText(s: StartingStep, now: number): string {
  const pct = s.progress === null ? "" : `, ${Math.floor(s.progress * 100)} %`;
  const so = Math.round((now - s.started) / 1000);
  return `step ${s.step} of ${s.of}: ${s.what}${pct} (${so < 90 ? `${so} s` : `${Math.floor(so / 60)} min ${so % 60} s`} so far)`;
}

interface Needed {
  upgrade: { from: number; to: number } | null;
  revenue: boolean;
}

/** What the store needs before serving, read in a moment on a read-only connection; null: nothing. */
function needed(path: string, timezone: string, currency: string): Needed | null {
  if (!existsSync(path)) return null;
  // A write-protected store is opened as before, on this thread: its reads served, its writes
  // 503 until it is writable (Store.recoverWrites); there is nothing to prepare on it.
  try {
    accessSync(path, constants.W_OK);
  } catch {
    return null;
  }
  let db: Database | undefined;
  try {
    db = new Database(path, { readonly: true });
    const state = schemaState(db, MIGRATIONS);
    // A newer store is refused by the open itself, in words; an empty one migrates in a moment.
    if (state.unknown > 0 || state.applied === 0) return null;
    const upgrade =
      state.pending.length > 0 ? { from: state.applied, to: state.applied + state.pending.length } : null;
    const revenue = !revenueBookBuiltFor(db, timezone, currency);
    return upgrade || revenue ? { upgrade, revenue } : null;
  } catch {
    // Unreadable here: the open says why, in words.
    return null;
  } finally {
    db?.close(false);
  }
}

function workerUrl(): string {
  return import.meta.url.includes("/$bunfs/")
    ? new URL("./platform/store/preparation-worker.ts", Bun.pathToFileURL(Bun.main)).href
    : new URL("./preparation-worker.ts", import.meta.url).href;
}

/**
 * The copy a schema upgrade takes first (this process's): how far it is while it is written
 * (its partial file's size against the store's), "done" once it is written whole.
 */
function copyState(dataDir: string, of: number, since: number): number | "done" | null {
  const dir = join(dataDir, UPGRADE_BACKUP_DIR);
  try {
    const names = readdirSync(dir);
    const partial = names.find((f) => f.endsWith(`.partial-${process.pid}`));
    if (partial) return of > 0 ? Math.min(0.99, statSync(join(dir, partial)).size / of) : null;
    const made = names.some(
      (f) =>
        (f.endsWith(".db") || f.endsWith(".unchecked")) && statSync(join(dir, f)).mtimeMs >= since - 1_000,
    );
    return made ? "done" : null;
  } catch {
    return null;
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * Prepares the store in dataDir for serving, telling each step to `onStep` (and every second
 * while one runs); resolves with the upgrade made, if any. Rejects as opening would (a newer
 * store, a folder or disk that cannot take it), with the reason in words.
 */
export async function prepareStore(
  dataDir: string,
  opts: {
    timezone: string;
    currency: string;
    aloneWhenFull: boolean;
    now?: () => number;
    /** Aborted (SIGTERM): the thread is ended, its partial copy removed; rejects with PreparationStopped. */
    signal?: AbortSignal;
  },
  onStep: (s: StartingStep) => void,
): Promise<StoreUpgrade | null> {
  const now = opts.now ?? Date.now;
  const path = join(dataDir, STORE_FILE);
  const file = join(dataDir, STARTING_FILE);
  // One left by a serve that was killed while it prepared: this serve holds the lock now.
  rmSync(file, { force: true });
  rmSync(`${file}.tmp`, { force: true });
  const need = needed(path, opts.timezone, opts.currency);
  if (!need) return null;
  const steps: string[] = [];
  const up = need.upgrade;
  if (up) {
    steps.push(`copying the store aside before upgrading its schema from version ${up.from} to ${up.to}`);
    steps.push(`upgrading the store's schema from version ${up.from} to ${up.to}`);
  }
  if (need.revenue) steps.push("building the revenue book from the tickets held");
  const started = now();
  const storeBytes = sizeOf(path) + sizeOf(`${path}-wal`);
  let current: StartingStep = {
    step: 1,
    of: steps.length,
    what: steps[0]!,
    progress: null,
    since: started,
    started,
  };
  const tell = (s: StartingStep) => {
    current = s;
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify({ ...s, pid: process.pid }), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    } catch {
      // A folder that cannot take the file cannot take the upgrade either: that is said below.
    }
    onStep(s);
  };
  const go = (index: number) =>
    index + 1 !== current.step &&
    tell({ step: index + 1, of: steps.length, what: steps[index]!, progress: null, since: now(), started });
  tell(current);

  const worker = new Worker(workerUrl());
  // The copy is smaller than the store (VACUUM INTO leaves free pages out): a size that stopped
  // growing is said as that, not as a percentage standing still. (Its check and sync come after
  // serve answers: copy-check-worker.ts.)
  let lastCopy: number | null = null;
  let stillSince = started;
  const ticker = setInterval(() => {
    // The copy's progress is its file's size; the schema's, the revenue book's: not told.
    if (up && current.step === 1) {
      const copy = copyState(dataDir, storeBytes, started);
      // The copy is written whole: the schema's change runs.
      if (copy === "done") go(1);
      else {
        if (copy !== lastCopy) stillSince = now();
        lastCopy = copy;
        const written = copy !== null && copy > 0 && now() - stillSince >= COPY_STILL_MS;
        tell(
          written
            ? {
                ...current,
                what: `${steps[0]}: the copy is written, finishing it`,
                progress: null,
              }
            : { ...current, what: steps[0]!, progress: copy },
        );
      }
    } else tell(current);
  }, 1_000);
  try {
    return await new Promise<StoreUpgrade | null>((resolve, reject) => {
      const stop = () => reject(new PreparationStopped());
      if (opts.signal?.aborted) stop();
      opts.signal?.addEventListener("abort", stop, { once: true });
      worker.onerror = (e) => reject(new Error(e.message));
      worker.onmessage = (event: MessageEvent) => {
        const m = event.data as {
          kind: string;
          step?: string;
          upgrade?: StoreUpgrade | null;
          message?: string;
        };
        if (m.kind === "step" && m.step === "revenue") go(steps.length - 1);
        else if (m.kind === "done") resolve(m.upgrade ?? null);
        // Said as opening on this thread says a folder or disk that cannot take the store.
        else if (m.kind === "failed") {
          // The copy may have got its name since the last look: the step that failed is the next.
          if (up && current.step === 1 && copyState(dataDir, storeBytes, started) === "done") go(1);
          reject(new DataFolderError(m.message ?? "the store could not be prepared for serving"));
        }
      };
      worker.postMessage({
        dataDir,
        timezone: opts.timezone,
        currency: opts.currency,
        aloneWhenFull: opts.aloneWhenFull,
      });
    });
  } finally {
    clearInterval(ticker);
    worker.terminate();
    rmSync(file, { force: true });
    if (opts.signal?.aborted) {
      removePartialCopies(dataDir);
      if (up) removeCopiesOfUpgradesNotMade(dataDir, up.from);
    }
  }
}

/** serve was told to stop while it prepared the store: nothing was changed. */
export class PreparationStopped extends Error {
  constructor() {
    super("stopped while preparing the store");
  }
}

/** This process's copy that was being written when it was stopped (and its journal). */
function removePartialCopies(dataDir: string): void {
  const dir = join(dataDir, UPGRADE_BACKUP_DIR);
  try {
    for (const f of readdirSync(dir))
      if (f.includes(`.partial-${process.pid}`)) rmSync(join(dir, f), { force: true });
  } catch {
    // No copy begun.
  }
}
