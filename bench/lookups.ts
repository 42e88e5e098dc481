/**
 * The attendant lookups measured in process, through app.handle (auth, routing, answer and lookup
 * record included; no HTTP front end): µs per request for check-tickets by plate and by zone, the
 * zone list, and the zone list revalidated with If-None-Match; the zone answers again with a
 * ticket event (one row written, untimed) every 10 lookups; and what building a zone answer costs
 * when nothing can be reused. Run it a few times and compare medians; it is a script, not a test.
 *
 *   ./build.sh && bun bench/lookups.ts
 *   LOOKUPS_TICKETS=200000 LOOKUPS_ROUNDS=9 bun bench/lookups.ts
 *
 * The store is filled by bench/generate.ts once per ticket count and kept in bench/.work, with the
 * instant it was filled at; the app's clock starts at that instant and runs in real time, so
 * every run sees the same data at the same relative time.
 */

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { composeBox } from "../src/app.ts";
import { createContext } from "../src/context.ts";
import { lookupServices } from "../src/modules/enforcement/index.ts";
import { setLogging } from "../src/platform/log.ts";
import { openStore } from "../src/platform/store/db.ts";
import type { TicketRow } from "../src/platform/store/tickets/rows.ts";
import { generate } from "./generate.ts";
import { PLATES, plateIndexOfTicket, plateOf, ZONES } from "./plates.ts";

const TICKETS = Number(process.env.LOOKUPS_TICKETS ?? 1_000_000);
const ROUNDS = Number(process.env.LOOKUPS_ROUNDS ?? 7);
/** Requests per round; a round should last a few hundred ms at least. */
const PER_ROUND = Number(process.env.LOOKUPS_PER_ROUND ?? 2_000);
const BIN = resolve(import.meta.dir, "../dist/parkd");
const WORK = join(import.meta.dir, ".work");
const dataDir = join(WORK, `lookups-${TICKETS}`);
const stampFile = join(dataDir, "generated-at.json");

if (!existsSync(stampFile)) {
  if (!existsSync(BIN)) throw new Error("dist/parkd is missing: run ./build.sh first");
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const t0 = performance.now();
  const now = Date.now();
  generate(dataDir, BIN, TICKETS, now);
  writeFileSync(stampFile, JSON.stringify({ now }));
  console.log(`filled ${TICKETS} tickets in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
const generatedAt = (JSON.parse(readFileSync(stampFile, "utf8")) as { now: number }).now;
const started = Date.now();
const clock = () => generatedAt + (Date.now() - started);

// The request log line is part of every served request (bench/run.sh measures it with wrk); here
// the lookup itself is measured, as before the log line moved into app.handle.
setLogging(false);

const store = openStore(dataDir);
const ctx = createContext(store, { timezone: "Europe/Stockholm" }, clock);
const box = composeBox(ctx);
// As serve has it a moment after start: the lookups' read model is built (it reads in slices
// between turns of the event loop, which a loop of awaited app.handle calls never gives it).
const cutoff = () => clock() - ctx.config.recentHours * 3_600_000;
while (!box.readModel.update(cutoff())) await new Promise((turned) => setImmediate(turned));
const app = box.app;
const token = box.credentials.createToken({ name: `lookups-${started}`, scopes: ["permits:read"] }).token;
const auth = { authorization: `Bearer ${token}` };

const zoneOf = (i: number) => 1000 + (i % ZONES);
/** Plates of tickets spread over the store: most have history, some run now. */
const plateAt = (i: number) => plateOf(plateIndexOfTicket((i * 4_999) % TICKETS) % PLATES);

const etags = new Map<number, string>();

/**
 * A ticket event somewhere on the site, as intake leaves it: one row of one zone written through
 * the tickets' repository (so the lookups' read model hears of it, as of intake's writes). The
 * row is written as it was, so the store stays the same from run to run. Most such tickets ended
 * long ago and are in no answer; the running ones (about 3 %) move their zone's answers.
 */
const ticketEvent = (i: number) => {
  const t = store.tickets.get(`bench-${(i * 7_919) % TICKETS}`);
  if (!t) return;
  const row: TicketRow = {
    ticketId: t.ticketId,
    zone: t.zone,
    parkingLotId: t.parkingLotId,
    lotUnknown: Boolean(t.lotUnknown),
    startAt: t.startAt,
    endAt: t.endAt,
    plate: t.plate,
    plateNorm: t.plateNorm,
    amountInclVat: t.amountInclVat,
    vatRate: t.vatRate,
    currencyCode: t.currencyCode,
    status: t.status,
    at: t.updatedAt,
  };
  store.tickets.replace(row);
};
/** One ticket event for every this many lookups, in the scenarios that have them. */
const EVENT_EVERY = 10;

type Scenario = {
  name: string;
  request: (i: number) => Request;
  expect: number;
  /** Done before request i, outside the timed part. */
  before?: (i: number) => void;
};
const scenarios: Scenario[] = [
  {
    name: "check-tickets by plate",
    request: (i) =>
      new Request(`http://localhost/api/v1/attendants/check-tickets?registration_number=${plateAt(i)}`, {
        headers: auth,
      }),
    expect: 200,
  },
  {
    name: `check-tickets by plate, 1 event per ${EVENT_EVERY}`,
    request: (i) =>
      new Request(`http://localhost/api/v1/attendants/check-tickets?registration_number=${plateAt(i)}`, {
        headers: auth,
      }),
    expect: 200,
    before: (i) => i % EVENT_EVERY === 0 && ticketEvent(i),
  },
  {
    name: "check-tickets by zone",
    request: (i) =>
      new Request(`http://localhost/api/v1/attendants/check-tickets?zone=${zoneOf(i)}`, { headers: auth }),
    expect: 200,
  },
  {
    name: "zone list",
    request: (i) => new Request(`http://localhost/api/v1/tickets/zone/${zoneOf(i)}`, { headers: auth }),
    expect: 200,
  },
  {
    name: "zone list, If-None-Match",
    request: (i) =>
      new Request(`http://localhost/api/v1/tickets/zone/${zoneOf(i)}`, {
        headers: { ...auth, "if-none-match": etags.get(zoneOf(i)) ?? '"none"' },
      }),
    expect: 304,
  },
  {
    name: `check-tickets by zone, 1 event per ${EVENT_EVERY}`,
    request: (i) =>
      new Request(`http://localhost/api/v1/attendants/check-tickets?zone=${zoneOf(i)}`, { headers: auth }),
    expect: 200,
    before: (i) => i % EVENT_EVERY === 0 && ticketEvent(i),
  },
  {
    name: `zone list, 1 event per ${EVENT_EVERY}`,
    request: (i) => new Request(`http://localhost/api/v1/tickets/zone/${zoneOf(i)}`, { headers: auth }),
    expect: 200,
    before: (i) => i % EVENT_EVERY === 0 && ticketEvent(i),
  },
];

async function collectEtags(): Promise<void> {
  for (let z = 0; z < ZONES; z++) {
    const res = await app.handle(
      new Request(`http://localhost/api/v1/tickets/zone/${zoneOf(z)}`, { headers: auth }),
    );
    etags.set(zoneOf(z), res.headers.get("etag") ?? "");
    await res.arrayBuffer();
  }
}

async function round(s: Scenario, from: number): Promise<number> {
  // Requests are built outside the timed part: the handheld's request object is not ours to cost.
  const requests = Array.from({ length: PER_ROUND }, (_, k) => s.request(from + k));
  let spent = 0;
  let t0 = performance.now();
  for (let k = 0; k < requests.length; k++) {
    if (s.before) {
      spent += performance.now() - t0;
      s.before(from + k);
      t0 = performance.now();
    }
    const res = await app.handle(requests[k]!);
    if (res.status !== s.expect) throw new Error(`${s.name}: status ${res.status}, expected ${s.expect}`);
    await res.arrayBuffer();
  }
  spent += performance.now() - t0;
  return (spent * 1000) / PER_ROUND;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

console.log(
  `${TICKETS} tickets, ${ROUNDS} rounds of ${PER_ROUND} requests per scenario, µs per request (median, min–max)`,
);
const sizes = new Map<string, number>();
for (const s of scenarios) {
  const probe = await app.handle(s.request(0));
  sizes.set(s.name, (await probe.text()).length);
}
for (const s of scenarios) {
  if (s.name.includes("If-None-Match")) await collectEtags();
  await round(s, 0); // warm-up
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) times.push(await round(s, (r + 1) * PER_ROUND));
  console.log(
    `${s.name.padEnd(38)} ${median(times).toFixed(1).padStart(7)} µs  (${Math.min(...times).toFixed(1)}–${Math.max(...times).toFixed(1)}; first answer ${sizes.get(s.name)} bytes)`,
  );
}
// What building an answer costs when nothing can be reused (the store just changed, or the
// clock passed a start or end): the lookups alone, no HTTP, no reuse.
const { readModel: lookups } = lookupServices(ctx);
const built: [string, (i: number) => unknown][] = [
  ["check-tickets by zone, built", (i) => JSON.stringify(lookups.byZone(zoneOf(i), clock()))],
  ["zone list, built", (i) => JSON.stringify({ data: lookups.activePlates(zoneOf(i), clock()) })],
];
for (const [name, build] of built) {
  const times: number[] = [];
  for (let r = 0; r <= ROUNDS; r++) {
    const n = Math.max(1, Math.floor(PER_ROUND / 4));
    const t0 = performance.now();
    for (let k = 0; k < n; k++) build(r * n + k);
    if (r > 0) times.push(((performance.now() - t0) * 1000) / n);
  }
  console.log(
    `${name.padEnd(38)} ${median(times).toFixed(1).padStart(7)} µs  (${Math.min(...times).toFixed(1)}–${Math.max(...times).toFixed(1)})`,
  );
}
box.lookupRecorder.stop();
store.close();
