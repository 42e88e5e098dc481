/**
 * The store's work that must not hold the event loop, on a thread of its own with its own
 * connection:
 * - WAL checkpoints. A checkpoint copies committed pages from the WAL into the database file and
 *   syncs it; run by SQLite's auto-checkpoint it would happen inside some request's commit on the
 *   event loop and stall every request in flight. PASSIVE mode never blocks the server's readers
 *   or its writer.
 * - Counts over large tables that `serve` reports (the start-up summary): a million tickets take
 *   20-50 ms to count, which the first requests would otherwise wait for. The SQL is the owning
 *   repository's.
 */
import { Database } from "bun:sqlite";

declare const self: Worker;

export type StoreThreadMessage =
  | { kind: "start"; path: string; intervalMs: number }
  | { kind: "stop" }
  | { kind: "reopen" }
  | { kind: "count"; id: number; sql: string };

let db: Database | undefined;
let timer: ReturnType<typeof setInterval> | undefined;

function checkpoint(): void {
  if (!db) return;
  try {
    const r = db.query("PRAGMA wal_checkpoint(PASSIVE)").get() as {
      busy: number;
      log: number;
      checkpointed: number;
    };
    postMessage({ kind: "checkpointed", log: r.log, checkpointed: r.checkpointed });
  } catch (e) {
    // A full or read-only disk: the server reports that on its own writes; try again later.
    postMessage({ kind: "failed", message: (e as Error).message });
  }
}

function count(id: number, sql: string): void {
  try {
    if (!db) throw new Error("the store thread has no connection");
    const row = db.query(sql).get() as { n: number };
    postMessage({ kind: "counted", id, n: row.n });
  } catch (e) {
    postMessage({ kind: "counted", id, error: (e as Error).message });
  }
}

let path = "";

function open(): void {
  db = new Database(path);
  db.run("PRAGMA busy_timeout = 5000");
}

self.onmessage = (event: MessageEvent<StoreThreadMessage>) => {
  const m = event.data;
  if (m.kind === "start") {
    path = m.path;
    open();
    timer = setInterval(checkpoint, m.intervalMs);
    postMessage({ kind: "started" });
  } else if (m.kind === "count") {
    count(m.id, m.sql);
  } else if (m.kind === "reopen") {
    // Opened while the store was write-protected, this connection stays read-only for life.
    db?.close(false);
    try {
      open();
    } catch (e) {
      db = undefined;
      postMessage({ kind: "failed", message: (e as Error).message });
    }
  } else {
    if (timer) clearInterval(timer);
    checkpoint();
    db?.close(false);
    db = undefined;
    postMessage({ kind: "stopped" });
  }
};
