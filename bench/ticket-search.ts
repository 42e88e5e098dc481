/**
 * The console's ticket search on a bench-sized store (1,000,000 tickets by default): the time of
 * one page for each kind of filter, through the repository.
 *
 *   bun bench/ticket-search.ts <parkd-binary> [tickets]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normalizePlate } from "../src/domain/plates.ts";
import { openStore } from "../src/platform/store/db.ts";
import { generate } from "./generate.ts";

const bin = process.argv[2] ?? "dist/parkd";
const count = Number(process.argv[3] ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), "parkd-search-"));
try {
  const now = Date.now();
  generate(dir, bin, count, now);
  const store = openStore(dir);
  const { plate, zone } = store.sqlite
    .prepare<{ plate: string; zone: number }, []>("SELECT plate, zone FROM tickets LIMIT 1")
    .get()!;
  const cases: [string, Parameters<typeof store.ticketSearch.search>[0]][] = [
    ["no filter, first page", { limit: 51 }],
    ["plate", { plateNorm: normalizePlate(plate), limit: 51 }],
    ["zone", { zone, limit: 51 }],
    ["zone + running", { zone, status: "running", limit: 51 }],
    ["last hour", { from: now - 3_600_000, to: now, limit: 51 }],
    ["canceled (rare state)", { status: "canceled", limit: 51 }],
  ];
  for (const [name, q] of cases) {
    store.ticketSearch.search(q);
    const runs = 20;
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) store.ticketSearch.search(q);
    console.log(`${name.padEnd(24)} ${((performance.now() - t0) / runs).toFixed(2)} ms/page`);
  }
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
