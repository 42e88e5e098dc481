/**
 * The console's ticket search on a bench-sized store (1,000,000 tickets by default): the time of
 * one page for each kind of filter and each sort, first and 200 pages deep, through the repository.
 *
 *   bun bench/ticket-search.ts <parkd-binary> [tickets]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normalizePlate } from "../src/domain/plates.ts";
import { openStore } from "../src/platform/store/db.ts";
import { TICKET_ORDERS, type TicketOrder } from "../src/platform/store/tickets/search.ts";
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
  type Search = Parameters<typeof store.ticketSearch.search>[0];
  const newest = { order: "start_at", descending: true, limit: 50 } as const;
  const cases: [string, Search][] = [
    ["no filter, first page", newest],
    ["plate", { ...newest, plateNorm: normalizePlate(plate) }],
    ["zone", { ...newest, zone }],
    ["zone + running", { ...newest, zone, status: "running" }],
    ["last hour", { ...newest, from: now - 3_600_000, to: now }],
    ["canceled (rare state)", { ...newest, status: "canceled" }],
  ];
  for (const order of Object.keys(TICKET_ORDERS) as TicketOrder[])
    for (const descending of [false, true]) {
      cases.push([`sort ${descending ? "-" : ""}${order}`, { order, descending, limit: 50 }]);
      cases.push([`sort ${descending ? "-" : ""}${order}, zone`, { order, descending, zone, limit: 50 }]);
    }
  const time = (f: () => void) => {
    f();
    const runs = 20;
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) f();
    return ((performance.now() - t0) / runs).toFixed(2);
  };
  console.log(`${"".padEnd(30)} first page   page 200 (ms)`);
  for (const [name, q] of cases) {
    // A deep page: the position after walking 199 pages, asked for again on every run.
    let after = q.after;
    for (let i = 0; i < 199; i++) after = store.ticketSearch.search({ ...q, after }).next ?? after;
    const first = time(() => store.ticketSearch.search(q));
    const deep = time(() => store.ticketSearch.search({ ...q, after }));
    console.log(`${name.padEnd(30)} ${first.padStart(10)} ${deep.padStart(12)}`);
  }
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
