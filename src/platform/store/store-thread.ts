import type { Store } from "./db.ts";
import type { StoreThreadMessage } from "./store-thread-worker.ts";

export interface CheckpointResult {
  /** Frames in the WAL, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

export interface StoreThread {
  /** The latest checkpoint's result, once one has run. */
  last(): CheckpointResult | undefined;
  /** `sql` (a repository's `SELECT count(*) AS n …`) answered on the thread's own connection. */
  count(sql: string): Promise<number>;
  /** A final checkpoint, then the thread ends. */
  stop(): Promise<void>;
}

/**
 * Inside the compiled binary the worker is an entry point of the build (see build.sh) at its path
 * below src/, from the binary's root (where the main entry, Bun.main, sits); from source it sits
 * beside this file.
 */
function workerUrl(): string {
  return import.meta.url.includes("/$bunfs/")
    ? new URL("./platform/store/store-thread-worker.ts", Bun.pathToFileURL(Bun.main)).href
    : new URL("./store-thread-worker.ts", import.meta.url).href;
}

/** The server's own checkpoint, past what the thread keeps up with: 12 MB of WAL at 4 KB pages. */
const AUTO_CHECKPOINT_PAGES = 3_000;

/**
 * Starts the store's thread for `serve` (see store-thread-worker.ts): WAL checkpoints and large
 * counts off the event loop. At the write rates of a site the thread keeps the WAL short and the
 * server's own auto-checkpoint never has work to do; under a sustained flood both share the work.
 * Measured on the bench's HTTPS floods, alternated (bench/notes.md): SQLite's default (1,000 pages,
 * the thread every 250 ms) gave plate lookups a p99 of 16-18 ms; 10,000 pages took it to 12-13 ms
 * but the intake mix's to 93-96 ms (the server's rarer checkpoints were each ten times longer);
 * 3,000 pages with the thread every 100 ms gave 14-15 ms and 52-57 ms (56-57 before), with more
 * events a second (4,300 against 3,900).
 */
export async function startStoreThread(store: Store, intervalMs = 100): Promise<StoreThread> {
  const limitWal = () => {
    // A WAL that grew during a burst is cut back once it restarts, so the disk gets the space back.
    store.sqlite.run(`PRAGMA journal_size_limit = ${64 * 1024 * 1024}`);
    // The thread checkpoints; the server's own connection only once the WAL holds this many pages
    // (a thread that fell behind). At SQLite's default of 1,000 a flood of plate lookups (their
    // records, ~11,000 pages a second) made the server checkpoint, and sync the database, inside
    // a request's commit every few batches.
    store.sqlite.run(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
  };
  limitWal();
  const worker = new Worker(workerUrl());
  const send = (m: StoreThreadMessage) => worker.postMessage(m);
  // A store that recovered from a read-only start has a new connection; the thread needs one too.
  store.onReopen(() => {
    limitWal();
    send({ kind: "reopen" });
  });
  let last: CheckpointResult | undefined;
  let onStopped: (() => void) | undefined;
  let nextCount = 0;
  const counts = new Map<number, { resolve: (n: number) => void; reject: (e: Error) => void }>();
  const started = new Promise<void>((resolve, reject) => {
    worker.onerror = (e) => reject(e);
    worker.onmessage = (event: MessageEvent) => {
      const m = event.data as {
        kind: string;
        log?: number;
        checkpointed?: number;
        id?: number;
        n?: number;
        error?: string;
      };
      if (m.kind === "started") resolve();
      else if (m.kind === "checkpointed") last = { log: m.log!, checkpointed: m.checkpointed! };
      else if (m.kind === "counted") {
        const waiting = counts.get(m.id!);
        counts.delete(m.id!);
        if (m.error === undefined) waiting?.resolve(m.n!);
        else waiting?.reject(new Error(m.error));
      } else if (m.kind === "stopped") onStopped?.();
    };
  });
  send({ kind: "start", path: store.path, intervalMs });
  await started;
  return {
    last: () => last,
    count(sql) {
      return new Promise<number>((resolve, reject) => {
        const id = nextCount++;
        counts.set(id, { resolve, reject });
        send({ kind: "count", id, sql });
      });
    },
    stop() {
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(force);
          worker.terminate();
          for (const waiting of counts.values()) waiting.reject(new Error("the store thread stopped"));
          counts.clear();
          resolve();
        };
        const force = setTimeout(done, 5_000);
        onStopped = done;
        send({ kind: "stop" });
      });
    },
  };
}
