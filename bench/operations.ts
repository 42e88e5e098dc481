/**
 * Retention and backup on a store of realistic size: how long the longest synchronous step of a
 * purge holds the event loop (what a request would wait), and how long a backup takes.
 *   bun bench/operations.ts [tickets=200000]
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DAY_MS, purgeExpired } from "../src/modules/operations/retention.ts";
import { backupStore } from "../src/platform/store/backup.ts";
import { openStore } from "../src/platform/store/db.ts";

const n = Number(process.argv[2] ?? 200_000);
const dir = mkdtempSync(join(tmpdir(), "parkd-bench-"));
const store = openStore(dir);
const now = Date.now();
const insertTicket = store.sqlite.query(
  `INSERT INTO tickets (ticket_id, zone, start_at, end_at, plate, plate_norm, status, created_at, updated_at)
   VALUES (?, ?, ?, ?, 'ABC123', 'ABC123', 'stopped', ?, ?)`,
);
const insertEvent = store.sqlite.query(
  `INSERT INTO ticket_events (ticket_id, event_type, received_at, credential, raw_body, outcome)
   VALUES (?, 'TicketCreated', ?, 'token:bench', '{"eventType":"TicketCreated","ticketId":"x","zoneCode":"12"}', 'applied')`,
);
const insertLookup = store.sqlite.query(
  "INSERT INTO permit_lookups (at, credential, by, query, results) VALUES (?, 'token:h', 'zone', '12', 3)",
);
let t = performance.now();
store.sqlite.transaction(() => {
  for (let i = 0; i < n; i++) {
    // Half ended 100-200 days ago, half within the last 90 days, interleaved as in real life.
    const end = i % 2 === 0 ? now - (100 + (i % 100)) * DAY_MS : now - (i % 80) * DAY_MS;
    insertTicket.run(`t-${i}`, i % 50, end - 3_600_000, end, end, end);
    insertEvent.run(`t-${i}`, end);
    insertEvent.run(`t-${i}`, end);
    insertLookup.run(end);
  }
})();
console.log(
  `filled ${n} tickets, ${2 * n} events, ${n} lookups in ${Math.round(performance.now() - t)} ms; store ${Math.round(statSync(store.path).size / 1e6)} MB`,
);

t = performance.now();
const backup = join(dir, "backup.db");
backupStore(dir, backup);
console.log(`backup (VACUUM INTO + integrity_check + fsync): ${Math.round(performance.now() - t)} ms`);

let longest = 0;
let steps = 0;
let stepStart = performance.now();
t = performance.now();
const report = await purgeExpired(store, {
  now,
  retentionDays: 90,
  batch: Number(process.env.BATCH ?? 1000),
  pause: async () => {
    longest = Math.max(longest, performance.now() - stepStart);
    steps++;
    await new Promise((r) => setImmediate(r));
    stepStart = performance.now();
  },
});
console.log(
  `purge: ${JSON.stringify(report)} in ${Math.round(performance.now() - t)} ms, ${steps} steps, longest step ${longest.toFixed(1)} ms`,
);
store.close();
rmSync(dir, { recursive: true, force: true });
