/**
 * Two builds of parkd in turns, beside the bare Bun.listen responder and the Bun.serve ceiling,
 * on one transport: what a change to the request path is worth on a machine whose pace moves from
 * minute to minute. Each round runs the ceilings, then A, then B (then B first in the next round),
 * every server on core 0 and wrk on core 1, each build on a fresh copy of the same store.
 *
 *   bun bench/front-end-ab.ts BEFORE_BIN AFTER_BIN
 *   AB_ROUNDS=4 AB_SECONDS=5 AB_TICKETS=100000 AB_SCHEME=https AB_SCENARIOS=healthz,plate,intake-create
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Subprocess, spawn, spawnSync } from "bun";
import { generate } from "./generate.ts";
import { scripts } from "./lua.ts";

const [binA, binB] = process.argv.slice(2).map((p) => resolve(p));
if (!binA || !binB) throw new Error("usage: bun bench/front-end-ab.ts BEFORE_BIN AFTER_BIN");
const ROUNDS = Number(process.env.AB_ROUNDS ?? 4);
const SECONDS = Number(process.env.AB_SECONDS ?? 5);
const TICKETS = Number(process.env.AB_TICKETS ?? 100_000);
const SCHEME = process.env.AB_SCHEME === "https" ? "https" : "http";
const SCENARIOS = (process.env.AB_SCENARIOS ?? "healthz,plate,intake-create").split(",");
const WORK = join(import.meta.dir, ".work");
const DATA = join(WORK, `ab-data-${TICKETS}`);

/** CPU seconds (user and system) the process has used: per request, it is what load on other cores moves least. */
function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
}

function wrk(url: string, script: string | undefined, env: Record<string, string>, pid: number) {
  const cpu0 = cpuSeconds(pid);
  const args = ["taskset", "-c", "1", "wrk", "-t1", "-c50", `-d${SECONDS}s`, "--latency"];
  if (script) args.push("-s", script);
  args.push(url);
  const out = spawnSync(args, { env: { ...process.env, ...env }, stdout: "pipe" }).stdout.toString();
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)/m.exec(out);
  const ms = p99 ? Number(p99[1]) * (p99[2] === "us" ? 0.001 : p99[2] === "s" ? 1000 : 1) : Number.NaN;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const usPerRequest = requests ? ((cpuSeconds(pid) - cpu0) * 1e6) / requests : Number.NaN;
  return { rps, p99: ms, non2xx, usPerRequest };
}

async function freePort(): Promise<number> {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

async function up(url: string, proc: Subprocess): Promise<void> {
  for (let i = 0; i < 20_000; i++) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
    try {
      if ((await fetch(url, { tls: { rejectUnauthorized: false } })).status === 200) return;
    } catch {}
    await Bun.sleep(1);
  }
  throw new Error(`no answer from ${url}`);
}

mkdirSync(WORK, { recursive: true });
if (!existsSync(join(DATA, "parkd.db"))) generate(DATA, binA, TICKETS);
const token = spawnSync([
  binA,
  "token",
  "create",
  "--name",
  `ab-${Date.now()}`,
  "--scope",
  "admin",
  "--data-dir",
  DATA,
])
  .stdout.toString()
  .trim();
if (!token) throw new Error("token create failed");
const env = { BENCH_TOKEN: token };
for (const name of SCENARIOS) writeFileSync(join(WORK, `${name}.lua`), scripts[name]!);
// The certificate parkd makes on its first HTTPS start, for the ceilings over TLS.
if (SCHEME === "https" && !existsSync(join(DATA, "tls/cert.pem"))) {
  const port = await freePort();
  const p = spawn([binA, "serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", DATA], {
    stdout: "ignore",
  });
  await up(`https://127.0.0.1:${port}/healthz`, p);
  p.kill("SIGTERM");
  await p.exited;
}
const tlsFiles = SCHEME === "https" ? [join(DATA, "tls/cert.pem"), join(DATA, "tls/key.pem")] : [];

async function ceiling(script: string): Promise<ReturnType<typeof wrk>> {
  const port = await freePort();
  const p = spawn(
    ["taskset", "-c", "0", process.execPath, join(import.meta.dir, script), String(port), ...tlsFiles],
    { stdout: "ignore" },
  );
  await up(`${SCHEME}://127.0.0.1:${port}/`, p);
  const r = wrk(`${SCHEME}://127.0.0.1:${port}/`, undefined, env, p.pid);
  p.kill();
  await p.exited;
  return r;
}

async function parkd(bin: string): Promise<Record<string, ReturnType<typeof wrk>>> {
  const dir = join(WORK, "ab-run");
  rmSync(dir, { recursive: true, force: true });
  spawnSync(["cp", "-r", DATA, dir]);
  const port = await freePort();
  const p = spawn(
    [
      "taskset",
      "-c",
      "0",
      bin,
      "serve",
      ...(SCHEME === "http" ? ["--http"] : []),
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--data-dir",
      dir,
      "--rate-limit-per-second",
      "0",
      "--public-rate-limit-per-second",
      "0",
      "--max-connections-per-address",
      "128",
    ],
    { stdout: "ignore", stderr: "ignore" },
  );
  await up(`${SCHEME}://127.0.0.1:${port}/healthz`, p);
  const out: Record<string, ReturnType<typeof wrk>> = {};
  for (const s of SCENARIOS)
    out[s] = wrk(`${SCHEME}://127.0.0.1:${port}/`, join(WORK, `${s}.lua`), env, p.pid);
  p.kill("SIGTERM");
  await p.exited;
  return out;
}

const load = () => spawnSync(["cat", "/proc/loadavg"]).stdout.toString().split(" ").slice(0, 3).join(" ");
console.log(`${SCHEME}, ${ROUNDS} rounds of ${SECONDS} s, ${TICKETS} tickets; A=${binA} B=${binB}`);
console.log(
  `| round | load | bare req/s (CPU µs/req) | Bun.serve req/s | build | ${SCENARIOS.map((s) => `${s} req/s (p99 ms, CPU µs/req)`).join(" | ")} |`,
);
for (let round = 1; round <= ROUNDS; round++) {
  const bare = await ceiling("bare-server.ts");
  const serve = await ceiling("raw-server.ts");
  const order = round % 2 === 1 ? (["A", binA] as const) : (["B", binB] as const);
  const other = round % 2 === 1 ? (["B", binB] as const) : (["A", binA] as const);
  for (const [name, bin] of [order, other]) {
    const r = await parkd(bin);
    const cells = SCENARIOS.map(
      (s) =>
        `${r[s]!.rps.toFixed(0)} (${r[s]!.p99.toFixed(1)}, ${r[s]!.usPerRequest.toFixed(1)})${r[s]!.non2xx ? ` non-2xx ${r[s]!.non2xx}` : ""}`,
    );
    console.log(
      `| ${round} | ${load()} | ${bare.rps.toFixed(0)} (${bare.usPerRequest.toFixed(1)}) | ${serve.rps.toFixed(0)} | ${name} | ${cells.join(" | ")} |`,
    );
  }
}
