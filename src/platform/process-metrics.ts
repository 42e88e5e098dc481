import { readdirSync, readFileSync, statSync } from "node:fs";
import { COMMIT, VERSION } from "../version.ts";
import { Metrics } from "./metrics.ts";
import type { Store } from "./store/db.ts";
import { SCHEMA_VERSION } from "./store/db.ts";
import { addStoreGauges } from "./store-gauges.ts";

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

const startedAt = Date.now() / 1000;

function openFds(): number {
  // The listing itself holds one descriptor open while it reads.
  return readdirSync("/proc/self/fd").length - 1;
}

function maxFds(): number | undefined {
  const line = readFileSync("/proc/self/limits", "utf8")
    .split("\n")
    .find((l) => l.startsWith("Max open files"));
  const soft = line?.split(/\s{2,}/)[1];
  return soft === undefined || soft === "unlimited" ? undefined : Number(soft);
}

/**
 * A Metrics registry with the gauges every process has (build, store files, memory, CPU,
 * descriptors) and those read from the store (src/operations/store-gauges.ts).
 */
export function processMetrics(store: Store, now: () => number = Date.now): Metrics {
  const metrics = new Metrics();
  addStoreGauges(metrics, store, now);
  metrics.addGauges(() => {
    const cpu = process.cpuUsage();
    return {
      name: "process_cpu_seconds_total",
      help: "User and system CPU time spent, in seconds.",
      type: "counter",
      samples: [{ value: (cpu.user + cpu.system) / 1e6 }],
    };
  });
  metrics.addGauges(() => ({
    name: "process_open_fds",
    help: "Number of open file descriptors.",
    samples: [{ value: openFds() }],
  }));
  metrics.addGauges(() => {
    const max = maxFds();
    return {
      name: "process_max_fds",
      help: "Maximum number of open file descriptors (the soft limit).",
      samples: max === undefined ? [] : [{ value: max }],
    };
  });
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
