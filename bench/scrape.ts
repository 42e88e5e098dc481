/**
 * What a Prometheus scrape and the start-up seeding of the last-event gauge cost on a full
 * store: 1,000,000 tickets (bench/generate.ts) and 2,000,000 events from 50 credentials.
 *
 *   bun bench/scrape.ts <parkd-binary>      (run on demand; not a test)
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createContext } from "../src/context.ts";
import { setLogging } from "../src/platform/log.ts";
import { openStore } from "../src/platform/store/db.ts";
import { generate } from "./generate.ts";

const bin = process.argv[2];
if (!bin) throw new Error("usage: bun bench/scrape.ts <parkd-binary>");
setLogging(false);
const dir = mkdtempSync(join(tmpdir(), "parkd-scrape-"));
try {
  const now = Date.now();
  generate(dir, bin, 1_000_000, now);
  const db = new Database(join(dir, "parkd.db"));
  db.run("PRAGMA synchronous = OFF");
  const add = db.prepare(
    `INSERT INTO ticket_events (ticket_id, event_type, received_at, credential, raw_body, outcome)
     VALUES (?, 'TicketCreated', ?, ?, '{}', 'applied')`,
  );
  db.transaction(() => {
    for (let i = 0; i < 2_000_000; i++)
      add.run(`T${i % 1_000_000}`, now - (2_000_000 - i) * 1000, `token:terminal-${i % 50}`);
  })();
  db.close();

  const store = openStore(dir);
  let t = performance.now();
  const ctx = createContext(store, {}, () => now);
  const seedMs = performance.now() - t;
  const times: number[] = [];
  let text = "";
  for (let i = 0; i < 20; i++) {
    t = performance.now();
    text = ctx.metrics.render();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const series = text
    .split("\n")
    .filter((l) => l.startsWith("parkd_last_ticket_event_timestamp_seconds{")).length;
  console.log(
    `context with the last-event seed: ${seedMs.toFixed(0)} ms (${series} credentials); /metrics render: median ${times[10]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`,
  );
  console.log(
    text
      .split("\n")
      .filter((l) => /^parkd_(active|store_writable)/.test(l))
      .join("\n"),
  );
  const part = (label: string, fn: () => unknown) => {
    const t0 = performance.now();
    for (let i = 0; i < 10; i++) fn();
    console.log(`  ${label}: ${((performance.now() - t0) / 10).toFixed(1)} ms`);
  };
  part("active tickets count", () => store.tickets.countNotEnded(now));
  part("valid permits count", () => store.permits.countValid(now));
  part("probe commit (fsync)", () => store.probe.commit(now));
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
