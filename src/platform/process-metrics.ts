import { statSync } from "node:fs";
import { COMMIT, VERSION } from "../version.ts";
import { Metrics } from "./metrics.ts";
import type { Store } from "./store/db.ts";
import { SCHEMA_VERSION } from "./store/db.ts";

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

const startedAt = Date.now() / 1000;

/** A Metrics registry with the gauges every process has: build, store files, memory. */
export function processMetrics(store: Store): Metrics {
  const metrics = new Metrics();
  metrics.addGauges(() => ({
    name: "parkd_build_info",
    help: "Version, commit and schema version of the running binary (always 1).",
    samples: [
      {
        labels: { version: VERSION, commit: COMMIT, schema: String(SCHEMA_VERSION) },
        value: 1,
      },
    ],
  }));
  metrics.addGauges(() => ({
    name: "parkd_store_file_bytes",
    help: "Size of the store's files on disk (db: the SQLite file, wal: its write-ahead log).",
    samples:
      store.path === ":memory:"
        ? []
        : [
            { labels: { file: "db" }, value: fileSize(store.path) },
            { labels: { file: "wal" }, value: fileSize(`${store.path}-wal`) },
          ],
  }));
  metrics.addGauges(() => ({
    name: "process_resident_memory_bytes",
    help: "Resident set size of the process.",
    samples: [{ value: process.memoryUsage.rss() }],
  }));
  metrics.addGauges(() => {
    const m = process.memoryUsage();
    return {
      name: "parkd_heap_bytes",
      help: "JavaScript heap: used and total.",
      samples: [
        { labels: { kind: "used" }, value: m.heapUsed },
        { labels: { kind: "total" }, value: m.heapTotal },
      ],
    };
  });
  metrics.addGauges(() => ({
    name: "process_start_time_seconds",
    help: "Start time of the process since the Unix epoch, in seconds.",
    samples: [{ value: Math.floor(startedAt) }],
  }));
  return metrics;
}
