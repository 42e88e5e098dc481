/**
 * The benchmark: builds nothing itself (run.sh does), fills a store, measures a raw Bun.serve
 * ceiling and a bare Bun.listen responder, and then dist/parkd on the same machine in the same run, over plain HTTP and over HTTPS,
 * server pinned to core 0 and wrk to core 1, runs the peer comparison both ways, and writes
 * bench/results.md.
 *
 *   bench/run.sh                     # full run (1,000,000 tickets, 10 s per scenario)
 *   BENCH_SECONDS=3 BENCH_TICKETS=100000 bench/run.sh    # a quick look
 */

import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { type Subprocess, spawn, spawnSync } from "bun";
import { type Comparison, compareWithPeer, comparisonMarkdown } from "./compare.ts";
import { generate } from "./generate.ts";
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
const SERVER_CORE = "0";
/**
 * Zone answers' ratio to the ceiling before the issue-12 work, which they must keep: the quiet
 * run of 2026-11-21 (bench/results.md of the commit before it). On a busy machine compare with a
 * `BENCH_BIN=` run of the old build in the same period instead (bench/notes.md).
 */
const BEFORE_RATIO = { zone: 0.11, zoneList: 0.16 };
const LOAD_CORE = "1";

interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
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

async function waitFor(url: string, proc: Subprocess, timeoutMs = 20_000): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
    try {
      const r = await fetch(url, { tls: { rejectUnauthorized: false } });
      if (r.status === 200) return performance.now() - t0;
    } catch {}
    if (performance.now() - t0 > timeoutMs) throw new Error(`no answer from ${url}`);
    await Bun.sleep(1);
  }
}

type Scheme = "http" | "https";

function startParkd(dataDir: string, port: number, scheme: Scheme, requestLog?: string): Subprocess {
  return spawn(
    [
      "taskset",
      "-c",
      SERVER_CORE,
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
  ceiling: WrkResult;
  /** The bare Bun.listen responder (bare-server.ts): the socket's own pace, what the front end sits on. */
  bare: WrkResult;
  results: [string, WrkResult][];
  colds: number[];
  coldStart: number;
  rss: number;
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

/** Cold starts, the raw ceiling and every scenario against dist/parkd, over one transport. */
async function measure(scheme: Scheme, runDir: string, env: Record<string, string>): Promise<Measured> {
  console.log(`== ${scheme}`);
  // Cold start to first 200, with the full store (the first start over HTTPS makes the certificate).
  const colds: number[] = [];
  for (let i = 0; i < 5; i++) {
    const port = await freePort();
    const p = startParkd(runDir, port, scheme);
    colds.push(await waitFor(`${scheme}://127.0.0.1:${port}/healthz`, p));
    p.kill("SIGTERM");
    await p.exited;
  }
  colds.sort((a, b) => a - b);
  const coldStart = colds[2]!;
  console.log(
    `cold start to first 200: median ${coldStart.toFixed(0)} ms of ${colds.map((c) => c.toFixed(0)).join(", ")}`,
  );

  // The ceilings over the same transport, on the same certificate: Bun.serve, and the bare
  // Bun.listen responder (the sockets parkd's front end is built on).
  const tlsFiles = scheme === "https" ? [join(runDir, "tls/cert.pem"), join(runDir, "tls/key.pem")] : [];
  const ceilingOf = async (server: string) => {
    const rawPort = await freePort();
    const raw = spawn(
      [
        "taskset",
        "-c",
        SERVER_CORE,
        process.execPath,
        join(import.meta.dir, server),
        String(rawPort),
        ...tlsFiles,
      ],
      { stdout: "ignore" },
    );
    await waitFor(`${scheme}://127.0.0.1:${rawPort}/`, raw);
    const r = wrk(`${scheme}://127.0.0.1:${rawPort}/`, undefined, env);
    raw.kill();
    await raw.exited;
    console.log(`ceiling (${server}, ${scheme}): ${r.rps.toFixed(0)} req/s, p99 ${r.p99.toFixed(2)} ms`);
    return r;
  };
  const ceiling = await ceilingOf("raw-server.ts");
  const bare = await ceilingOf("bare-server.ts");

  const port = await freePort();
  const requestLog = join(WORK, `requests-${scheme}.log`);
  const server = startParkd(runDir, port, scheme, requestLog);
  await waitFor(`${scheme}://127.0.0.1:${port}/healthz`, server);
  const results: [string, WrkResult][] = [];
  for (const [label, script] of SCENARIOS) {
    const r = wrk(`${scheme}://127.0.0.1:${port}/`, join(WORK, `${script}.lua`), env);
    results.push([label, r]);
    console.log(
      `${label.padEnd(26)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  ${(r.rps / ceiling.rps).toFixed(2)}× ceiling  ${(r.rps / bare.rps).toFixed(2)}× bare${r.non2xx ? `  NON-2XX ${r.non2xx}` : ""}${r.errors ? `  socket errors ${r.errors}` : ""}  peak RSS so far ${peakRssMb(server.pid).toFixed(0)} MB`,
    );
  }
  const rss = peakRssMb(server.pid);
  server.kill("SIGTERM");
  const stopCode = await server.exited;
  const refused = refusals(requestLog);
  if (refused.length) console.log(`answers other than 2xx (${requestLog}): ${refused.join(", ")}`);
  console.log(`peak RSS ${rss.toFixed(0)} MB, exit ${stopCode}`);
  return { ceiling, bare, results, colds, coldStart, rss };
}

function schemeMarkdown(scheme: Scheme, m: Measured): string[] {
  return [
    `## ${scheme === "https" ? "HTTPS (serve's default)" : "Plain HTTP (--http)"}`,
    "",
    "| scenario | req/s | p50 ms | p99 ms | × Bun.serve ceiling | × bare responder | non-2xx |",
    "|---|---:|---:|---:|---:|---:|---:|",
    `| raw Bun.serve ceiling (fixed JSON array) | ${m.ceiling.rps.toFixed(0)} | ${m.ceiling.p50.toFixed(2)} | ${m.ceiling.p99.toFixed(2)} | 1.00 | ${(m.ceiling.rps / m.bare.rps).toFixed(2)} | ${m.ceiling.non2xx} |`,
    `| bare Bun.listen responder (same answer, no parsing) | ${m.bare.rps.toFixed(0)} | ${m.bare.p50.toFixed(2)} | ${m.bare.p99.toFixed(2)} | ${(m.bare.rps / m.ceiling.rps).toFixed(2)} | 1.00 | ${m.bare.non2xx} |`,
    ...m.results.map(
      ([label, r]) =>
        `| ${label} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.rps / m.ceiling.rps).toFixed(2)} | ${(r.rps / m.bare.rps).toFixed(2)} | ${r.non2xx} |`,
    ),
    "",
    `Cold start to first 200 with the full store: median ${m.coldStart.toFixed(0)} ms (runs: ${m.colds.map((c) => c.toFixed(0)).join(", ")} ms). Peak RSS of the server over all scenarios: ${m.rss.toFixed(0)} MB.`,
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
  if (!existsSync(BIN)) throw new Error("dist/parkd is missing: run bench/run.sh, which builds it");
  mkdirSync(WORK, { recursive: true });
  const dataDir = join(WORK, `data-${TICKETS}`);
  if (!existsSync(join(dataDir, "parkd.db")) || process.env.BENCH_FRESH) {
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
  const measured = {
    http: await measure("http", runFor("http"), env),
    https: await measure("https", runFor("https"), env),
  };

  // The peer comparison runs its own servers (ceiling, peer, parkd) on a copy of the same store.
  const peers: Record<Scheme, Comparison | null> = { http: null, https: null };
  if (existsSync(COMPARE) && process.env.BENCH_PEER !== "0")
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
        : `no peer comparison (${COMPARE} not found)`,
    );

  const targets = [
    ...peerTargets(peers.https, "HTTPS", 2, 3),
    ...peerTargets(peers.http, "plain HTTP", 2, 3),
    ...(["http", "https"] as const).flatMap((scheme) => {
      const m = measured[scheme];
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
        [`${scheme}: peak RSS ≤ 200 MB`, m.rss <= 200, `${m.rss.toFixed(0)} MB`],
      ] as const;
    }),
  ];
  for (const [name, ok, value] of targets) console.log(`${ok ? "met   " : "MISSED"} ${name}: ${value}`);

  const binMb = statSync(BIN).size / 2 ** 20;
  const md = [
    "# Benchmark results",
    "",
    `Run ${new Date().toISOString()} on ${machine()}.`,
    `Store: ${TICKETS.toLocaleString("en")} tickets over 200 zones and 300,000 plates, 5,000 operator permits, 500 lots.`,
    `Load: wrk, 1 thread, ${CONNECTIONS} connections, ${SECONDS} s per scenario, pinned to core ${LOAD_CORE}; servers pinned to core ${SERVER_CORE}; 127.0.0.1. Every scenario runs over plain HTTP and over HTTPS (parkd's default: TLS 1.3 here, its self-signed P-256 certificate), each against a raw Bun.serve ceiling and a bare Bun.listen responder (bench/bare-server.ts: split at each blank line, one fixed answer per request) over the same transport. Binary size: ${binMb.toFixed(0)} MB.`,
    "",
    ...(["http", "https"] as const).flatMap((scheme) => schemeMarkdown(scheme, measured[scheme])),
    "| target | result | met |",
    "|---|---|---|",
    ...targets.map(([name, ok, value]) => `| ${name} | ${value} | ${ok ? "yes" : "no"} |`),
    "",
    ...(peers.https ? comparisonMarkdown(peers.https, "HTTPS") : []),
    ...(peers.http ? comparisonMarkdown(peers.http, "HTTP") : []),
  ].join("\n");
  const notesFile = join(import.meta.dir, "notes.md");
  const notes = existsSync(notesFile) ? `\n${readFileSync(notesFile, "utf8")}` : "";
  writeFileSync(join(import.meta.dir, "results.md"), md + notes);
  console.log("wrote bench/results.md");
}

await main();
