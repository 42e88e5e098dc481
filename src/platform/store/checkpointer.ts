import type { Store } from "./db.ts";

export interface CheckpointResult {
  /** Frames in the WAL, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

export interface Checkpointer {
  /** The latest checkpoint's result, once one has run. */
  last(): CheckpointResult | undefined;
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
    ? new URL("./platform/store/checkpoint-worker.ts", Bun.pathToFileURL(Bun.main)).href
    : new URL("./checkpoint-worker.ts", import.meta.url).href;
}

/**
 * Moves WAL checkpoints off the event loop for `serve` (see checkpoint-worker.ts). At the write
 * rates of a site the thread keeps the WAL short and SQLite's own auto-checkpoint (at its
 * default 1000 pages) never has work to do; under a sustained flood of events both share the
 * work. A larger auto-checkpoint threshold was measured: fewer but longer stalls, and a worse
 * p99 (40 ms against 16 ms at 12k events/s).
 */
export async function startCheckpointer(store: Store, intervalMs = 250): Promise<Checkpointer> {
  // A WAL that grew during a burst is cut back once it restarts, so the disk gets the space back.
  const limitWal = () => store.sqlite.run(`PRAGMA journal_size_limit = ${64 * 1024 * 1024}`);
  limitWal();
  const worker = new Worker(workerUrl());
  // A store that recovered from a read-only start has a new connection; the thread needs one too.
  store.onReopen(() => {
    limitWal();
    worker.postMessage({ kind: "reopen" });
  });
  let last: CheckpointResult | undefined;
  let onStopped: (() => void) | undefined;
  const started = new Promise<void>((resolve, reject) => {
    worker.onerror = (e) => reject(e);
    worker.onmessage = (event: MessageEvent) => {
      const m = event.data as { kind: string; log?: number; checkpointed?: number };
      if (m.kind === "started") resolve();
      else if (m.kind === "checkpointed") last = { log: m.log!, checkpointed: m.checkpointed! };
      else if (m.kind === "stopped") onStopped?.();
    };
  });
  worker.postMessage({ kind: "start", path: store.path, intervalMs });
  await started;
  return {
    last: () => last,
    stop() {
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(force);
          worker.terminate();
          resolve();
        };
        const force = setTimeout(done, 5_000);
        onStopped = done;
        worker.postMessage({ kind: "stop" });
      });
    },
  };
}
