/**
 * Live zone feeds under a busy site's intake, against dist/parkd over HTTPS (serve's default):
 * 40 zones of about 1,000 active plates, 150 ticket events a second, and then 100 open feeds
 * over 30 tokens, first as the attendant page asks for them (?changes=1), then as a client of the
 * first protocol does (the whole list on every change). The three phases take turns, ROUNDS
 * times, so that a drift of this shared machine lands on all three alike; each phase's latencies
 * are pooled over the rounds. Prints the intake's p50/p99 (and the p99 against no feeds) and the
 * server's CPU for each. A script, not a test; 127.0.0.1 only, bounded in time.
 *
 *   bun bench/feed-load.ts [SECONDS per phase, default 20] [ROUNDS, default 3]
 */
import { readFileSync } from "node:fs";
import { binaryBox, tls } from "./binary-box.ts";

const SECONDS = Number(process.argv[2] ?? 20);
const ROUNDS = Number(process.argv[3] ?? 3);
const ZONES = 40;
const PLATES_PER_ZONE = 1_000;
const EVENTS_PER_SECOND = 150;
const FEEDS = 100;
const TOKENS = 30;

const box = binaryBox("feed-load");
box.cli("migrate");
const writer = box.cli("token", "create", "--name", "terminal", "--scope", "tickets:write");
const readers = Array.from({ length: TOKENS }, (_, i) =>
  box.cli("token", "create", "--name", `handheld-${i}`, "--scope", "permits:read"),
);
const { base, server } = await box.serve();

const hour = 3_600_000;
let seq = 0;
let canceled = 0;
/** A ticket event for zone `zone`: new tickets, and now and then a cancel of an earlier one. */
function event(zone: number, cancel?: string) {
  const now = Date.now();
  const id = cancel ?? `t-${++seq}`;
  return {
    eventType: cancel ? "TicketCanceled" : "TicketCreated",
    ticketId: id,
    zoneCode: String(1000 + zone),
    parkingLotId: null,
    startDate: new Date(now - hour).toISOString(),
    endDate: new Date(now + 8 * hour).toISOString(),
    licenseNumber: `F${String(zone).padStart(2, "0")}${String(seq).padStart(6, "0")}`,
    ticketCost: { amountInclVat: 2500, vatRate: 25, currencyCode: "SEK" },
  };
}
async function post(body: unknown): Promise<number> {
  const t0 = performance.now();
  const r = await fetch(`${base}/api/v1/actions/tickets`, {
    method: "POST",
    headers: { authorization: `Bearer ${writer}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    tls,
  });
  await r.text();
  if (r.status !== 200) throw new Error(`intake answered ${r.status}`);
  return performance.now() - t0;
}

console.log(`seeding ${ZONES} zones × ${PLATES_PER_ZONE} plates`);
for (let z = 0; z < ZONES; z++)
  for (let i = 0; i < PLATES_PER_ZONE; i += 100)
    await Promise.all(Array.from({ length: 100 }, () => post(event(z))));

const cpuTicks = () => {
  const f = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(f[11]) + Number(f[12]);
};
const TICKS = 100;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)] ?? NaN;

interface Phase {
  latencies: number[];
  cpu: number;
}

/** `SECONDS` of intake at EVENTS_PER_SECOND: its latencies and the server's CPU share. */
async function phase(label: string): Promise<Phase> {
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  const cpu0 = cpuTicks();
  const t0 = performance.now();
  let sent = 0;
  while (performance.now() - t0 < SECONDS * 1000) {
    const due = Math.floor(((performance.now() - t0) / 1000) * EVENTS_PER_SECOND);
    for (; sent < due; sent++) {
      const zone = sent % ZONES;
      // A third of the events end a seeded ticket (each once), the rest start new ones.
      const body = sent % 3 === 2 ? event(zone, `t-${++canceled}`) : event(zone);
      pending.push(post(body).then((ms) => void latencies.push(ms)));
    }
    await Bun.sleep(5);
  }
  await Promise.all(pending);
  const cpu = ((cpuTicks() - cpu0) / TICKS / ((performance.now() - t0) / 1000)) * 100;
  console.log(
    `  ${label}: ${latencies.length} events, p50 ${pct(latencies, 0.5).toFixed(2)} ms, p99 ${pct(latencies, 0.99).toFixed(1)} ms, CPU ${cpu.toFixed(0)} %`,
  );
  return { latencies, cpu };
}

/** The feeds' reader, a thread of its own (see feed-readers.ts). */
const readersThread = new Worker(new URL("./feed-readers.ts", import.meta.url).href);
const ask = (message: unknown) =>
  new Promise<unknown>((answered) => {
    readersThread.onmessage = (e) => answered(e.data);
    readersThread.postMessage(message);
  });

/** FEEDS open feeds spread over the zones and tokens; returns how to close them and count bytes. */
async function openFeeds(query: string) {
  await ask({ open: { base, query, tokens: readers, feeds: FEEDS, zones: ZONES } });
  await Bun.sleep(1000);
  return {
    bytes: async () => (await ask("bytes")) as number,
    close: async () => {
      await ask("close");
      await Bun.sleep(500);
    },
  };
}

// A site is always asked: the lookups' read model is built before the first phase, not by the
// first feed (a one-off of a few hundred ms that would land in that phase's p99).
for (let z = 0; z < ZONES; z++) {
  const r = await fetch(`${base}/api/v1/tickets/zone/${1000 + z}`, {
    headers: { authorization: `Bearer ${readers[0]}` },
    tls,
  });
  if (r.status !== 200) throw new Error(`zone list answered ${r.status}`);
  await r.text();
}
await phase("warm-up (not counted)");

const PHASES = [
  ["no feeds", null],
  ["100 feeds, ?changes=1 (the attendant page)", "?changes=1"],
  ["100 feeds, whole list on each change (first protocol)", ""],
] as const;
const pooled = PHASES.map(() => ({
  latencies: [] as number[],
  cpu: [] as number[],
  kibPerSecond: [] as number[],
}));
for (let round = 1; round <= ROUNDS; round++) {
  console.log(`round ${round} of ${ROUNDS}`);
  for (const [i, [label, query]] of PHASES.entries()) {
    const feeds = query === null ? null : await openFeeds(query);
    const before = (await feeds?.bytes()) ?? 0;
    const p = await phase(label);
    if (feeds) pooled[i]!.kibPerSecond.push(((await feeds.bytes()) - before) / SECONDS / 1024);
    await feeds?.close();
    pooled[i]!.latencies.push(...p.latencies);
    pooled[i]!.cpu.push(p.cpu);
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const noneP99 = pct(pooled[0]!.latencies, 0.99);
const rows = [
  `| phase (${ROUNDS} rounds of ${SECONDS} s, pooled) | events | intake p50 ms | intake p99 ms | p99 / no feeds | server CPU |`,
  "|---|---:|---:|---:|---:|---:|",
  ...PHASES.map(([label], i) => {
    const p = pooled[i]!;
    const p99 = pct(p.latencies, 0.99);
    const traffic = p.kibPerSecond.length ? `  ${mean(p.kibPerSecond).toFixed(0)} KiB/s to the feeds` : "";
    return `| ${label} | ${p.latencies.length} | ${pct(p.latencies, 0.5).toFixed(2)} | ${p99.toFixed(2)} | ${(p99 / noneP99).toFixed(2)} | ${mean(p.cpu).toFixed(0)} %${traffic} |`;
  }),
];
console.log(`\n${rows.join("\n")}`);
readersThread.terminate();
await box.close();
