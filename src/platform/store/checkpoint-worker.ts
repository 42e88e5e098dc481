/**
 * Runs WAL checkpoints on a thread of its own. A checkpoint copies committed pages from the WAL
 * into the database file and syncs it; run by SQLite's auto-checkpoint it would happen inside
 * some request's commit on the event loop and stall every request in flight. PASSIVE mode never
 * blocks the server's readers or its writer.
 */
import { Database } from "bun:sqlite";

declare const self: Worker;

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

let path = "";

function open(): void {
  db = new Database(path);
  db.run("PRAGMA busy_timeout = 5000");
}

self.onmessage = (
  event: MessageEvent<
    { kind: "start"; path: string; intervalMs: number } | { kind: "stop" } | { kind: "reopen" }
  >,
) => {
  const m = event.data;
  if (m.kind === "start") {
    path = m.path;
    open();
    timer = setInterval(checkpoint, m.intervalMs);
    postMessage({ kind: "started" });
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
