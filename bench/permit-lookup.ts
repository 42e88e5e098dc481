/**
 * The attendant's hot path: check-tickets by plate on a store with many tickets, through the
 * built binary, against a raw Bun.serve answering a fixed body on the same box (the ceiling).
 *   ./build.sh && bun bench/permit-lookup.ts [tickets=1000000] [seconds=10] [connections=16]
 * Loopback only; every process it starts is stopped by its pid at the end.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawn, spawnSync } from "bun";
import { openStore } from "../src/platform/store/db.ts";
import { freePort } from "../test/support/binary.ts";

const tickets = Number(process.argv[2] ?? 1_000_000);
const seconds = Number(process.argv[3] ?? 10);
const connections = Number(process.argv[4] ?? 16);
const bin = resolve(import.meta.dir, "../dist/parkd");
const dir = mkdtempSync(join(tmpdir(), "parkd-bench-"));
const dataDir = join(dir, "data");
const H = 3_600_000;
const DAYS = 90;
const plates = Math.max(1, Math.floor(tickets / 5));
const plateOf = (i: number) => `B${String(i).padStart(6, "0")}`;

function fill(): void {
  const store = openStore(dataDir);
  const now = Date.now();
  const insert = store.sqlite.query(
    `INSERT INTO tickets (ticket_id, zone, parking_lot_id, start_at, end_at, plate, plate_norm, status, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?4, ?4)`,
  );
  const t = performance.now();
  store.sqlite.transaction(() => {
    for (let i = 0; i < tickets; i++) {
      // Spread over the retention period; the newest 1 % still running.
      const start = now - Math.floor((i / tickets) * DAYS * 24 * H) - 2 * H;
      const running = i < tickets / 100;
      insert.run(
        `t-${i}`,
        1000 + (i % 50),
        i % 20,
        start,
        running ? null : start + H,
        plateOf(i % plates),
        running ? "running" : "stopped",
      );
    }
  })();
  store.sqlite.run("ANALYZE");
  store.close();
  console.log(
    `filled ${tickets} tickets (${plates} plates, 50 zones) in ${Math.round(performance.now() - t)} ms`,
  );
}

/** CPU time (user + system) a process has used, in ms; Linux only, else NaN. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

let serverPid = 0;

interface Result {
  cpuUsPerRequest: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: (i: number) => string, headers: Record<string, string>): Promise<Result> {
  const latencies: number[] = [];
  let errors = 0;
  let stopAt = performance.now() + 2000;
  let recording = false;
  const worker = async (w: number) => {
    let i = w;
    while (performance.now() < stopAt) {
      const t = performance.now();
      const res = await fetch(url(i), { headers });
      await res.arrayBuffer();
      if (res.status !== 200) errors++;
      if (recording) latencies.push(performance.now() - t);
      i += connections;
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, w) => worker(w))); // warm-up
  recording = true;
  const cpuBefore = cpuMs(serverPid);
  const started = performance.now();
  stopAt = started + seconds * 1000;
  await Promise.all(Array.from({ length: connections }, (_, w) => worker(w)));
  const elapsed = (performance.now() - started) / 1000;
  const cpuUsPerRequest = ((cpuMs(serverPid) - cpuBefore) * 1000) / latencies.length;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { cpuUsPerRequest, rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), errors };
}

async function waitUp(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {}
    await Bun.sleep(50);
  }
  throw new Error(`${url} did not come up`);
}

const fmt = (r: Result) =>
  `${Math.round(r.rps)} req/s, server CPU ${Math.round(r.cpuUsPerRequest)} µs/req, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, errors ${r.errors}`;

fill();
const token = spawnSync([
  bin,
  "token",
  "create",
  "--name",
  "bench",
  "--scope",
  "permits:read",
  "--data-dir",
  dataDir,
])
  .stdout.toString()
  .trim();

const parkdPort = await freePort();
const parkd = spawn(
  [bin, "serve", "--http", "--host", "127.0.0.1", "--port", String(parkdPort), "--data-dir", dataDir],
  {
    stdout: "ignore",
    stderr: "ignore",
  },
);
const ceilingPort = await freePort();
const ceilingScript = join(dir, "ceiling.ts");
const sample = JSON.stringify([
  {
    registration_number: "B000001",
    zone: 1001,
    active: false,
    start_at: "2026-06-15T08:00:00.000000Z",
    end_at: "2026-06-15T09:00:00.000000Z",
    note: "ticket t-1, lot 1, stopped",
  },
]);
writeFileSync(
  ceilingScript,
  `Bun.serve({ hostname: "127.0.0.1", port: ${ceilingPort}, fetch: () => new Response(${JSON.stringify(sample)}, { headers: { "content-type": "application/json" } }) });`,
);
const ceiling = spawn([process.execPath, ceilingScript], { stdout: "ignore", stderr: "ignore" });

try {
  await waitUp(`http://127.0.0.1:${parkdPort}/healthz`);
  await waitUp(`http://127.0.0.1:${ceilingPort}/`);
  const auth = { authorization: `Bearer ${token}`, accept: "application/json" };
  const rand = (i: number) => (i * 7919) % plates;
  serverPid = ceiling.pid;
  const ceilingResult = await load(() => `http://127.0.0.1:${ceilingPort}/`, {});
  console.log(`raw Bun.serve ceiling:          ${fmt(ceilingResult)}`);
  serverPid = parkd.pid;
  const health = await load(() => `http://127.0.0.1:${parkdPort}/healthz`, {});
  console.log(`parkd /healthz (front end, no auth): ${fmt(health)}`);
  const whoami = await load(() => `http://127.0.0.1:${parkdPort}/api/v1/whoami`, auth);
  console.log(`parkd /api/v1/whoami (auth only): ${fmt(whoami)}`);
  const byPlate = await load(
    (i) =>
      `http://127.0.0.1:${parkdPort}/api/v1/attendants/check-tickets?registration_number=${plateOf(rand(i))}`,
    auth,
  );
  console.log(
    `check-tickets by plate:         ${fmt(byPlate)}  (${(byPlate.rps / ceilingResult.rps).toFixed(2)}x ceiling)`,
  );
  const zoneList = await load(
    (i) => `http://127.0.0.1:${parkdPort}/api/v1/tickets/zone/${1000 + (i % 50)}`,
    auth,
  );
  console.log(`zone list (≈${Math.round(tickets / 100 / 50)} running per zone): ${fmt(zoneList)}`);
} finally {
  parkd.kill("SIGTERM");
  ceiling.kill("SIGTERM");
  await Promise.all([parkd.exited, ceiling.exited]);
  rmSync(dir, { recursive: true, force: true });
}
