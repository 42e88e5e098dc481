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

self.onmessage = (
  event: MessageEvent<{ kind: "start"; path: string; intervalMs: number } | { kind: "stop" }>,
) => {
  const m = event.data;
  if (m.kind === "start") {
    db = new Database(m.path);
    db.run("PRAGMA busy_timeout = 5000");
    timer = setInterval(checkpoint, m.intervalMs);
    postMessage({ kind: "started" });
  } else {
    if (timer) clearInterval(timer);
    checkpoint();
    db?.close(false);
    db = undefined;
    postMessage({ kind: "stopped" });
  }
};
