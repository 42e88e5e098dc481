/**
 * The benchmark: builds nothing itself (run.sh does), fills a store, measures a raw Bun.serve
 * ceiling and a bare Bun.listen responder, then dist/parkd on the same machine in the same run, over plain HTTP and over HTTPS,
 * server pinned to core 0 and wrk to core 1, runs the peer comparison both ways, then the same
 * again with the servers in an emulated kiosk (one core, 256 MB: bench/kiosk.ts) when this
 * machine can make one, and writes bench/results.md.
 *
 *   bench/run.sh                     # full run (1,000,000 tickets, 10 s per scenario)
 *   BENCH_SECONDS=3 BENCH_TICKETS=100000 bench/run.sh    # a quick look
 *   BENCH_KIOSK=only BENCH_BIN=dist/release/parkd-…-linux-arm64 \
 *     BENCH_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu" BENCH_RESULTS=bench/.work/arm64.md \
 *     bun bench/bench.ts              # the arm64 build under qemu in the box (store made by a host build)
 */

import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { type Subprocess, spawn, spawnSync } from "bun";
import { type Comparison, compareWithPeer, comparisonMarkdown } from "./compare.ts";
import { generate } from "./generate.ts";
import {
  exitText,
  KIOSK_CPU,
  KIOSK_MEMORY,
  type Kiosk,
  type KioskReport,
  kiosk,
  kioskUnavailable,
  LOAD_CPU,
  RUNNER,
  reportText,
} from "./kiosk.ts";
import { scripts } from "./lua.ts";

const ROOT = resolve(import.meta.dir, "..");
const BIN = resolve(process.env.BENCH_BIN ?? join(ROOT, "dist/parkd"));
/** The side-by-side comparison with the peer (a plain Fastify service), when it is there. */
const COMPARE = resolve(process.env.BENCH_COMPARE ?? join(ROOT, "../shared/peer/compare.sh"));
const COMPARE_ROUNDS = Number(process.env.BENCH_COMPARE_ROUNDS ?? 4);
const WORK = join(import.meta.dir, ".work");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TICKETS = Number(process.env.BENCH_TICKETS ?? 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SERVER_CORE = KIOSK_CPU;
/**
 * Zone answers' ratio to the ceiling before the issue-12 work, which they must keep: the quiet
 * run of 2026-11-21 (bench/results.md of the commit before it). On a busy machine compare with a
 * `BENCH_BIN=` run of the old build in the same period instead (bench/notes.md).
 */
const BEFORE_RATIO = { zone: 0.11, zoneList: 0.16 };
const LOAD_CORE = LOAD_CPU;
/** Where the figures go (an emulated run of another architecture's build writes elsewhere). */
const RESULTS = resolve(process.env.BENCH_RESULTS ?? join(import.meta.dir, "results.md"));
/** An emulator is slow to start and to answer: waits stretch, throughput is not the point. */
const START_TIMEOUT_MS = RUNNER.length ? 180_000 : 20_000;

interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  requests: number;
}

function toMs(v: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(v.trim());
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "ms" ? n : m[2] === "s" ? n * 1000 : n * 60_000;
}

function wrk(url: string, script: string | undefined, env: Record<string, string>): WrkResult {
  const args = ["taskset", "-c", LOAD_CORE, "wrk", "-t1", `-c${CONNECTIONS}`, `-d${SECONDS}s`, "--latency"];
  if (script) args.push("-s", script);
  args.push(url);
  const r = spawnSync(args, { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const out = r.stdout.toString();
  if (r.exitCode !== 0) throw new Error(`wrk failed: ${r.stderr}\n${out}`);
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0);
  const pct = (p: string) => toMs(new RegExp(`^\\s+${p}%\\s+(\\S+)`, "m").exec(out)?.[1] ?? "NaN");
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    p50: pct("50"),
    p99: pct("99"),
    max: toMs(/^\s+Latency\s+\S+\s+\S+\s+(\S+)/m.exec(out)?.[1] ?? "NaN"),
    non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
    errors: socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
    requests: num(/(\d+) requests in/),
  };
}

async function freePort(): Promise<number> {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

async function waitFor(url: string, proc: Subprocess, timeoutMs = START_TIMEOUT_MS): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null)
      throw new Error(`server ended: ${exitText(proc.exitCode, proc.signalCode)}`);
    try {
      const r = await fetch(url, { tls: { rejectUnauthorized: false } });
      if (r.status === 200) return performance.now() - t0;
    } catch {}
    if (performance.now() - t0 > timeoutMs) throw new Error(`no answer from ${url}`);
    await Bun.sleep(1);
  }
}

type Scheme = "http" | "https";

/** The server's command: pinned to its core, or in the box (which holds it to its core). */
function onServerCore(cmd: string[], box: Kiosk | null): string[] {
  return box ? box.wrap(cmd) : ["taskset", "-c", SERVER_CORE, ...cmd];
}

function startParkd(
  dataDir: string,
  port: number,
  scheme: Scheme,
  box: Kiosk | null,
  requestLog?: string,
): Subprocess {
  return spawn(
    onServerCore(
      [
        ...RUNNER,
        BIN,
        "serve",
        ...(scheme === "http" ? ["--http"] : []),
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
        "--data-dir",
        dataDir,
        "--timezone",
        "Europe/Stockholm",
        // One token at full speed from one address: the per-credential and per-address limits
        // would measure themselves, not the service.
        "--rate-limit-per-second",
        "0",
        "--public-rate-limit-per-second",
        "0",
        "--max-connections-per-address",
        String(Math.max(64, CONNECTIONS * 2)),
      ],
      box,
    ),
    { stdout: requestLog ? Bun.file(requestLog) : "ignore", stderr: "pipe" },
  );
}

/** "route status: count" for every answer that was not a 2xx, from the server's request log. */
function refusals(requestLog: string): string[] {
  const counts = new Map<string, number>();
  for (const line of readFileSync(requestLog, "utf8").split("\n")) {
    const m = /"route":"([^"]*)","status":(\d+)/.exec(line);
    if (!m || m[2]!.startsWith("2")) continue;
    const key = `${m[1]} ${m[2]}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k}: ${n}`);
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

function machine(): string {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const kernel = spawnSync(["uname", "-sr"]).stdout.toString().trim();
  return `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${kernel}, Bun ${Bun.version}`;
}

interface Measured {
  scheme: Scheme;
  /** In the emulated kiosk (bench/kiosk.ts), or on the plain machine. */
  boxed: boolean;
  ceiling: WrkResult;
  /** The bare Bun.listen responder (bare-server.ts): the socket's own pace, what the front end sits on. */
  bare: WrkResult;
  results: [string, WrkResult][];
  colds: number[];
  coldStart: number;
  rss: number;
  /** How the measured server ended (SIGTERM at the end: exit 0). */
  exit: string;
  /** The box's memory figures over all scenarios (boxed only). */
  box?: KioskReport;
  /** The box's highest charge in each scenario (boxed only), MB. */
  boxPeaks: number[];
}

const SCENARIOS: [string, string][] = [
  ["healthz (front end + app, no store)", "healthz"],
  ["check-tickets by plate", "plate"],
  ["check-tickets by zone", "zone"],
  ["zone list", "zonelist"],
  ["parkings list", "parkings"],
  ["quote", "quote"],
  ["intake TicketCreated", "intake-create"],
  ["intake mix of six events", "intake-mix"],
];

/** A box for one server when `boxed`, else none. */
const boxFor = (boxed: boolean, label: string) => (boxed ? kiosk(label) : null);

/** Cold starts, the raw ceiling and every scenario against dist/parkd, over one transport. */
async function measure(
  scheme: Scheme,
  runDir: string,
  env: Record<string, string>,
  boxed: boolean,
): Promise<Measured> {
  console.log(
    `== ${scheme}${boxed ? ` in the emulated kiosk (core ${SERVER_CORE}, ${KIOSK_MEMORY / 2 ** 20} MB)` : ""}`,
  );
  // Cold start to first 200, with the full store (the first start over HTTPS makes the certificate).
  const colds: number[] = [];
  for (let i = 0; i < 5; i++) {
    const port = await freePort();
    const box = boxFor(boxed, `cold-${scheme}-${i}`);
    const p = startParkd(runDir, port, scheme, box);
    colds.push(await waitFor(`${scheme}://127.0.0.1:${port}/healthz`, p));
    p.kill("SIGTERM");
    await p.exited;
    box?.close();
  }
  colds.sort((a, b) => a - b);
  const coldStart = colds[2]!;
  console.log(
    `cold start to first 200: median ${coldStart.toFixed(0)} ms of ${colds.map((c) => c.toFixed(0)).join(", ")}`,
  );

  // The ceilings over the same transport, on the same certificate (each in a box of its own):
  // Bun.serve, and the bare Bun.listen responder (the sockets parkd's front end is built on).
  const tlsFiles = scheme === "https" ? [join(runDir, "tls/cert.pem"), join(runDir, "tls/key.pem")] : [];
  const ceilingOf = async (server: string) => {
    const rawPort = await freePort();
    const rawBox = boxFor(boxed, `${server.replace(/\.ts$/, "")}-${scheme}`);
    const raw = spawn(
      onServerCore([process.execPath, join(import.meta.dir, server), String(rawPort), ...tlsFiles], rawBox),
      { stdout: "ignore" },
    );
    await waitFor(`${scheme}://127.0.0.1:${rawPort}/`, raw);
    const r = wrk(`${scheme}://127.0.0.1:${rawPort}/`, undefined, env);
    raw.kill();
    await raw.exited;
    rawBox?.close();
    console.log(`ceiling (${server}, ${scheme}): ${r.rps.toFixed(0)} req/s, p99 ${r.p99.toFixed(2)} ms`);
    return r;
  };
  const ceiling = await ceilingOf("raw-server.ts");
  const bare = await ceilingOf("bare-server.ts");

  const port = await freePort();
  const requestLog = join(WORK, `requests-${scheme}${boxed ? "-kiosk" : ""}.log`);
  const box = boxFor(boxed, `serve-${scheme}`);
  const server = startParkd(runDir, port, scheme, box, requestLog);
  await waitFor(`${scheme}://127.0.0.1:${port}/healthz`, server);
  const results: [string, WrkResult][] = [];
  const boxPeaks: number[] = [];
  let rss = 0;
  for (const [label, script] of SCENARIOS) {
    box?.resetPeak();
    const r = wrk(`${scheme}://127.0.0.1:${port}/`, join(WORK, `${script}.lua`), env);
    results.push([label, r]);
    if (box) boxPeaks.push(box.report().maxUsage / 2 ** 20);
    // A server the kernel killed (the box's OOM killer) ends the run's scenarios: that is the finding.
    if (server.exitCode !== null || server.signalCode !== null) {
      console.log(`THE SERVER ENDED in "${label}": ${exitText(server.exitCode, server.signalCode)}`);
      break;
    }
    rss = peakRssMb(server.pid);
    console.log(
      `${label.padEnd(26)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  max ${r.max.toFixed(0)} ms  ${(r.rps / ceiling.rps).toFixed(2)}× ceiling  ${(r.rps / bare.rps).toFixed(2)}× bare${r.non2xx ? `  NON-2XX ${r.non2xx}` : ""}${r.errors ? `  socket errors ${r.errors}` : ""}  peak RSS so far ${rss.toFixed(0)} MB${box ? `  box charge ${boxPeaks.at(-1)!.toFixed(0)} MB` : ""}`,
    );
  }
  server.kill("SIGTERM");
  await server.exited;
  const exit = exitText(server.exitCode, server.signalCode);
  const report = box?.report();
  box?.close();
  const refused = refusals(requestLog);
  if (refused.length) console.log(`answers other than 2xx (${requestLog}): ${refused.join(", ")}`);
  console.log(`peak RSS ${rss.toFixed(0)} MB, ${exit}${report ? `; ${reportText(report)}` : ""}`);
  return { scheme, boxed, ceiling, bare, results, colds, coldStart, rss, exit, box: report, boxPeaks };
}

function schemeMarkdown(m: Measured): string[] {
  const scheme = m.scheme;
  const where = m.boxed
    ? ` in the emulated kiosk (1 core, ${(m.box?.limit ?? KIOSK_MEMORY) / 2 ** 20} MB)${RUNNER.length ? `, under ${RUNNER[0]}` : ""}`
    : "";
  return [
    `## ${scheme === "https" ? "HTTPS (serve's default)" : "Plain HTTP (--http)"}${where}`,
    "",
    `| scenario | req/s | p50 ms | p99 ms | max ms | × Bun.serve ceiling | × bare responder | non-2xx |${m.boxed ? " box's highest charge MB |" : ""}`,
    `|---|---:|---:|---:|---:|---:|---:|---:|${m.boxed ? "---:|" : ""}`,
    `| raw Bun.serve ceiling (fixed JSON array) | ${m.ceiling.rps.toFixed(0)} | ${m.ceiling.p50.toFixed(2)} | ${m.ceiling.p99.toFixed(2)} | ${m.ceiling.max.toFixed(0)} | 1.00 | ${(m.ceiling.rps / m.bare.rps).toFixed(2)} | ${m.ceiling.non2xx} |${m.boxed ? " |" : ""}`,
    `| bare Bun.listen responder (same answer, no parsing) | ${m.bare.rps.toFixed(0)} | ${m.bare.p50.toFixed(2)} | ${m.bare.p99.toFixed(2)} | ${m.bare.max.toFixed(0)} | ${(m.bare.rps / m.ceiling.rps).toFixed(2)} | 1.00 | ${m.bare.non2xx} |${m.boxed ? " |" : ""}`,
    ...m.results.map(
      ([label, r], i) =>
        `| ${label} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.max.toFixed(0)} | ${(r.rps / m.ceiling.rps).toFixed(2)} | ${(r.rps / m.bare.rps).toFixed(2)} | ${r.non2xx} |${m.boxed ? ` ${m.boxPeaks[i]?.toFixed(0) ?? ""} |` : ""}`,
    ),
    "",
    `Cold start to first 200 with the full store: median ${m.coldStart.toFixed(0)} ms (runs: ${m.colds.map((c) => c.toFixed(0)).join(", ")} ms). Peak RSS of the server over all scenarios: ${m.rss.toFixed(0)} MB; the server's end: ${m.exit}${m.results.length < SCENARIOS.length ? ` after ${m.results.length} of ${SCENARIOS.length} scenarios` : ""}.${m.box ? ` The box: ${reportText(m.box)} (the charge counts the page cache the server read in, which the kernel reclaims at the limit; a kill is an OOM kill).` : ""}`,
    "",
  ];
}

/** The targets against the peer over one transport: lookup ≥ `lookupTarget`×, p99 ≤ the peer's, intake ≥ `intakeTarget`×. */
function peerTargets(peer: Comparison | null, transport: string, lookupTarget: number, intakeTarget: number) {
  if (!peer) return [];
  return [
    [
      `${transport}: plate lookup ≥ ${lookupTarget}× the peer's req/s`,
      peer.lookupRatio >= lookupTarget,
      `${peer.lookupRatio.toFixed(2)}× (median of ${peer.rounds.length} rounds)`,
    ],
    [
      `${transport}: plate lookup p99 ≤ the peer's`,
      peer.parkdLookupP99 <= peer.peerLookupP99,
      `${peer.parkdLookupP99.toFixed(2)} ms vs ${peer.peerLookupP99.toFixed(2)} ms (medians)`,
    ],
    [
      `${transport}: intake ≥ ${intakeTarget}× the peer's req/s`,
      peer.intakeRatio >= intakeTarget,
      `${peer.intakeRatio.toFixed(2)}×`,
    ],
  ] as const;
}

async function main() {
  // The machine is shared: how busy it was says how far to trust the throughput figures.
  const loadAtStart = loadavg()[0]!;
  if (!existsSync(BIN)) throw new Error("dist/parkd is missing: run bench/run.sh, which builds it");
  mkdirSync(WORK, { recursive: true });
  const dataDir = join(WORK, `data-${TICKETS}`);
  // A store made more than four days ago has tickets near serve's retention (generate.ts).
  const stale =
    existsSync(join(dataDir, "parkd.db")) &&
    Date.now() - statSync(join(dataDir, "parkd.db")).mtimeMs > 4 * 24 * 3_600_000;
  if (!existsSync(join(dataDir, "parkd.db")) || stale || process.env.BENCH_FRESH) {
    rmSync(dataDir, { recursive: true, force: true });
    const t0 = performance.now();
    generate(dataDir, BIN, TICKETS);
    console.log(`store filled with ${TICKETS} tickets in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  // Each run starts from the same data: the intake scenarios change tickets they walk over.
  const runDir = join(WORK, "run");
  rmSync(runDir, { recursive: true, force: true });
  spawnSync(["cp", "-r", dataDir, runDir]);
  const tokenRun = spawnSync([
    ...RUNNER,
    BIN,
    "token",
    "create",
    "--name",
    `bench-${Date.now()}`,
    "--scope",
    "admin",
    "--data-dir",
    runDir,
  ]);
  const token = tokenRun.stdout.toString().trim();
  if (!token) throw new Error(`token create failed: ${tokenRun.stderr}`);
  const env = { BENCH_TOKEN: token };
  for (const [name, text] of Object.entries(scripts)) writeFileSync(join(WORK, `${name}.lua`), text);

  // Each transport starts from the same data too.
  const runFor = (scheme: Scheme) => {
    const dir = join(WORK, `run-${scheme}`);
    rmSync(dir, { recursive: true, force: true });
    spawnSync(["cp", "-r", runDir, dir]);
    return dir;
  };
  // Plain, then in the emulated kiosk (BENCH_KIOSK: 0 plain only, "only" the box only).
  const unavailable = kioskUnavailable();
  const wanted = process.env.BENCH_KIOSK ?? "1";
  if (wanted === "only" && unavailable)
    throw new Error(`BENCH_KIOSK=only, but no emulated kiosk here: ${unavailable}`);
  const modes = wanted === "only" ? [true] : wanted === "0" || unavailable ? [false] : [false, true];
  if (wanted !== "0" && unavailable) console.log(`no emulated kiosk (${unavailable}): plain run only`);
  const runs: Measured[] = [];
  for (const boxed of modes)
    for (const scheme of ["http", "https"] as const)
      runs.push(await measure(scheme, runFor(scheme), env, boxed));
  const plain = (scheme: Scheme) => runs.find((m) => !m.boxed && m.scheme === scheme);

  // The peer comparison runs its own servers (ceiling, peer, parkd) on a copy of the same store.
  const peers: Record<Scheme, Comparison | null> = { http: null, https: null };
  if (existsSync(COMPARE) && process.env.BENCH_PEER !== "0" && modes.includes(false) && RUNNER.length === 0)
    for (const scheme of ["http", "https"] as const) {
      console.log(
        `comparing with the peer over ${scheme} (${COMPARE}, ${COMPARE_ROUNDS} rounds of ${Math.min(SECONDS, 5)} s)`,
      );
      const peer = compareWithPeer(
        COMPARE,
        BIN,
        dataDir,
        COMPARE_ROUNDS,
        Math.min(SECONDS, 5),
        scheme === "https",
      );
      peers[scheme] = peer;
      console.log(
        `${scheme}: lookup parkd/peer ${peer.lookupRatio.toFixed(2)} (p99 ${peer.parkdLookupP99.toFixed(2)} vs ${peer.peerLookupP99.toFixed(2)} ms), intake parkd/peer ${peer.intakeRatio.toFixed(2)}`,
      );
    }
  else
    console.log(
      process.env.BENCH_PEER === "0"
        ? "no peer comparison (BENCH_PEER=0)"
        : existsSync(COMPARE)
          ? "no peer comparison (no plain run of a host build)"
          : `no peer comparison (${COMPARE} not found)`,
    );

  const targets = [
    ...peerTargets(peers.https, "HTTPS", 2, 3),
    ...peerTargets(peers.http, "plain HTTP", 2, 3),
    ...(["http", "https"] as const).flatMap((scheme) => {
      const m = plain(scheme);
      if (!m || RUNNER.length) return [];
      const by = Object.fromEntries(m.results);
      const zone = by["check-tickets by zone"]!;
      const zoneList = by["zone list"]!;
      const intake = by["intake TicketCreated"]!;
      const healthz = by["healthz (front end + app, no store)"]!;
      return [
        [
          `${scheme}: healthz ≥ 0.5× the bare Bun.listen responder`,
          healthz.rps / m.bare.rps >= 0.5,
          `${(healthz.rps / m.bare.rps).toFixed(2)}×`,
        ],
        [
          `${scheme}: check-tickets by zone ≥ ${BEFORE_RATIO.zone}× ceiling (the ratio before issue 12)`,
          zone.rps / m.ceiling.rps >= BEFORE_RATIO.zone,
          `${(zone.rps / m.ceiling.rps).toFixed(3)}×`,
        ],
        [
          `${scheme}: zone list ≥ ${BEFORE_RATIO.zoneList}× ceiling (the ratio before issue 12)`,
          zoneList.rps / m.ceiling.rps >= BEFORE_RATIO.zoneList,
          `${(zoneList.rps / m.ceiling.rps).toFixed(3)}×`,
        ],
        [
          `${scheme}: intake (synchronous=FULL) ≥ 0.25× ceiling`,
          intake.rps / m.ceiling.rps >= 0.25,
          `${(intake.rps / m.ceiling.rps).toFixed(2)}×`,
        ],
        [`${scheme}: cold start ≤ 150 ms`, m.coldStart <= 150, `${m.coldStart.toFixed(0)} ms`],
      ] as const;
    }),
    // The memory bar belongs to the box a site runs on, not to this machine's RAM.
    ...runs
      .filter((m) => m.boxed)
      .flatMap((m) => {
        const at = `${m.scheme} in the ${(m.box?.limit ?? KIOSK_MEMORY) / 2 ** 20} MB box`;
        const all = m.results.length === SCENARIOS.length && m.exit === "exit 0";
        return [
          [
            `${at}: no OOM kill over every scenario`,
            all && m.box?.oomKills === 0,
            `${m.exit}, OOM kills ${m.box?.oomKills ?? "?"}, ${m.results.length} of ${SCENARIOS.length} scenarios`,
          ],
          [`${at}: peak RSS ≤ 200 MB`, m.rss <= 200, `${m.rss.toFixed(0)} MB`],
          ...(RUNNER.length
            ? []
            : ([
                [`${at}: cold start ≤ 150 ms`, m.coldStart <= 150, `${m.coldStart.toFixed(0)} ms`],
              ] as const)),
        ] as const;
      }),
  ];
  for (const [name, ok, value] of targets) console.log(`${ok ? "met   " : "MISSED"} ${name}: ${value}`);

  const binMb = statSync(BIN).size / 2 ** 20;
  const md = [
    "# Benchmark results",
    "",
    `Run ${new Date().toISOString()} on ${machine()}; load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end (others' jobs share the machine: throughput and cold starts are as noisy as that says; memory and OOM figures are not).`,
    `Store: ${TICKETS.toLocaleString("en")} tickets over 200 zones and 300,000 plates, 5,000 operator permits, 500 lots.`,
    `Load: wrk, 1 thread, ${CONNECTIONS} connections, ${SECONDS} s per scenario, pinned to core ${LOAD_CORE}; servers pinned to core ${SERVER_CORE}; 127.0.0.1. Every scenario runs over plain HTTP and over HTTPS (parkd's default: TLS 1.3 here, its self-signed P-256 certificate), each against a raw Bun.serve ceiling and a bare Bun.listen responder (bench/bare-server.ts: split at each blank line, one fixed answer per request) over the same transport. Binary size: ${binMb.toFixed(0)} MB${RUNNER.length ? ` (${BIN}, run by ${RUNNER.join(" ")})` : ""}.`,
    ...(modes.includes(true)
      ? [
          `The emulated kiosk (bench/kiosk.ts): each server in control groups of its own with core ${SERVER_CORE} alone (cpuset) and ${KIOSK_MEMORY / 2 ** 20} MB of memory, swap none (memory), as the unit's \`AllowedCPUs=\` and \`MemoryMax=\` make it; the load outside, on core ${LOAD_CORE}. Same run, same store, same scenarios as the plain figures.`,
        ]
      : []),
    "",
    ...runs.flatMap(schemeMarkdown),
    "| target | result | met |",
    "|---|---|---|",
    ...targets.map(([name, ok, value]) => `| ${name} | ${value} | ${ok ? "yes" : "no"} |`),
    "",
    ...(peers.https ? comparisonMarkdown(peers.https, "HTTPS") : []),
    ...(peers.http ? comparisonMarkdown(peers.http, "HTTP") : []),
  ].join("\n");
  const notesFile = join(import.meta.dir, "notes.md");
  const notes = existsSync(notesFile) ? `\n${readFileSync(notesFile, "utf8")}` : "";
  writeFileSync(RESULTS, RESULTS === join(import.meta.dir, "results.md") ? md + notes : md);
  console.log(`wrote ${RESULTS}`);
}

await main();
