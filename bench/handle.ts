/**
 * CPU per request, in process: no wrk, no second core needed, so it is repeatable on a busy box.
 *
 *   bun bench/handle.ts                      # 1,000,000 tickets (generated once into bench/.work)
 *   HANDLE_TICKETS=10000 HANDLE_ONLY=intake bun bench/handle.ts   # intake with little index work
 *
 * - app.handle: /healthz, /api/v1/whoami and intake TicketCreated (in groups of 40 concurrent
 *   events, as a loaded terminal fleet would commit them), each timed in several rounds; the
 *   figure is the median of the rounds, in µs of process CPU (user+sys) and of wall time.
 * - front end: startFrontEnd on a free 127.0.0.1 port in this process, exactly as `serve` wires
 *   it (metrics observe, log lines built), with keep-alive load from a second process; the figure
 *   is this process's CPU per answered request, beside raw node:http answering a fixed array.
 * Needs a built dist/parkd (./build.sh) to fill the store.
 */
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { join, resolve } from "node:path";
import { spawn } from "bun";
import { composeBox } from "../src/app.ts";
import { createContext } from "../src/context.ts";
import { startFrontEnd } from "../src/platform/http/server.ts";
import { openStore } from "../src/platform/store/db.ts";
import { generate } from "./generate.ts";
import { PLATES, plateOf, ZONES } from "./plates.ts";

const ROOT = resolve(import.meta.dir, "..");
const WORK = join(import.meta.dir, ".work");
const TICKETS = Number(process.env.HANDLE_TICKETS ?? 1_000_000);
const ROUNDS = Number(process.env.HANDLE_ROUNDS ?? 7);
const PER_ROUND = Number(process.env.HANDLE_REQUESTS ?? 20_000);
const INTAKE_PER_ROUND = Number(process.env.HANDLE_INTAKE ?? 4_000);
const GROUP = 40;
const FRONT_REQUESTS = Number(process.env.HANDLE_FRONT_REQUESTS ?? 40_000);
const FRONT_CONNECTIONS = 32;
/** "app", "intake" or "front": run one part only (for a profile). */
const ONLY = process.env.HANDLE_ONLY;
const part = (name: string) => !ONLY || ONLY === name;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

interface Figure {
  cpu: number;
  /** The quietest round: least disturbed by whatever else runs on the machine. */
  best: number;
  wall: number;
  rounds: number[];
}

async function measure(count: number, run: (n: number) => Promise<void>): Promise<Figure> {
  await run(Math.min(count, 2_000)); // warm-up: JIT, caches
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    Bun.gc(true);
    const c0 = cpuMicros();
    const t0 = performance.now();
    await run(count);
    wall.push(((performance.now() - t0) * 1000) / count);
    cpu.push((cpuMicros() - c0) / count);
  }
  return { cpu: median(cpu), best: Math.min(...cpu), wall: median(wall), rounds: cpu };
}

function show(label: string, f: Figure): void {
  const rounds = f.rounds.map((x) => x.toFixed(1)).join(", ");
  console.log(
    `${label.padEnd(34)} ${f.cpu.toFixed(1).padStart(6)} µs CPU (best ${f.best.toFixed(1).padStart(5)})  ${f.wall.toFixed(1).padStart(6)} µs wall   (CPU rounds: ${rounds})`,
  );
}

function prepareStore(): string {
  const source = join(WORK, `data-${TICKETS}`);
  if (!existsSync(join(source, "parkd.db"))) {
    const bin = join(ROOT, "dist/parkd");
    if (!existsSync(bin)) throw new Error("dist/parkd is missing: run ./build.sh first");
    mkdirSync(source, { recursive: true });
    const t0 = performance.now();
    generate(source, bin, TICKETS);
    console.log(`store filled with ${TICKETS} tickets in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  // Intake changes the store: every run starts from the same copy.
  const runDir = join(WORK, "handle-run");
  rmSync(runDir, { recursive: true, force: true });
  cpSync(source, runDir, { recursive: true });
  return runDir;
}

/** Keep-alive GETs from a second process; resolves when `total` answers have come back. */
async function load(port: number, path: string, token: string, total: number): Promise<void> {
  const client = spawn([process.execPath, join(import.meta.dir, "handle-client.ts")], {
    env: {
      ...process.env,
      PORT: String(port),
      PATH_: path,
      TOKEN: token,
      TOTAL: String(total),
      CONNECTIONS: String(FRONT_CONNECTIONS),
    },
    stdout: "pipe",
    stderr: "inherit",
  });
  const code = await client.exited;
  if (code !== 0) throw new Error(`load client failed (${code})`);
}

async function frontEndFigure(
  label: string,
  start: () => Promise<{ port: number; close: () => Promise<void> }>,
  path: string,
  token: string,
): Promise<void> {
  const server = await start();
  const figure = await measure(FRONT_REQUESTS, (n) => load(server.port, path, token, n));
  await server.close();
  show(label, figure);
}

async function main() {
  const dir = prepareStore();
  // The per-credential rate limit is off, as bench.ts runs serve: one token at full speed.
  const ctx = createContext(openStore(dir), {
    timezone: "Europe/Stockholm",
    rateLimitPerSecond: 0,
    publicRateLimitPerSecond: 0,
  });
  // e.g. HANDLE_PRAGMA="cache_size = -65536" to try a connection setting before changing the store.
  for (const pragma of (process.env.HANDLE_PRAGMA ?? "").split(";").filter((x) => x.trim()))
    ctx.store.sqlite.run(`PRAGMA ${pragma}`);
  const box = composeBox(ctx);
  const app = box.app;
  // As serve has it: the lookups' read model is built.
  box.readModel.update(Date.now() - ctx.config.recentHours * 3_600_000);
  // As serve has it: the revenue book is built at start, not by the first event measured.
  ctx.store.reports.revenue.ensureBasis(ctx.config.timezone, ctx.config.currency, Date.now());
  const token = box.credentials.createToken({ name: `handle-${Date.now()}`, scopes: ["admin"] }).token;
  const auth = { authorization: `Bearer ${token}` };
  console.log(`store: ${TICKETS.toLocaleString("en")} tickets; ${ROUNDS} rounds; medians of the rounds`);

  const get = (path: string) => async (n: number) => {
    for (let i = 0; i < n; i++) {
      const res = await app.handle(new Request(`http://localhost${path}`, { headers: auth }));
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      await res.arrayBuffer();
    }
  };
  if (part("app")) {
    show("app.handle GET /healthz", await measure(PER_ROUND, get("/healthz")));
    show("app.handle GET /api/v1/whoami", await measure(PER_ROUND, get("/api/v1/whoami")));
    let k = 0;
    show(
      "app.handle check-tickets by plate",
      await measure(PER_ROUND, async (n) => {
        for (let i = 0; i < n; i++) {
          const plate = plateOf((++k * 7919) % PLATES);
          await get(`/api/v1/attendants/check-tickets?registration_number=${plate}`)(1);
        }
      }),
    );
  }

  let counter = 0;
  const run = `${Date.now().toString(36)}`;
  const created = () => {
    counter++;
    const body = JSON.stringify({
      eventType: "TicketCreated",
      ticketId: `h-${run}-${counter}`,
      zoneCode: String(1000 + (counter % ZONES)),
      parkingLotId: String(1 + (counter % 500)),
      startDate: "2026-11-21T10:00:00+01:00",
      endDate: "2026-11-21T12:00:00+01:00",
      licenseNumber: plateOf((counter * 7919) % PLATES),
      ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
    });
    return new Request("http://localhost/api/v1/actions/tickets", {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body,
    });
  };
  if (part("intake"))
    show(
      `app.handle intake TicketCreated ×${GROUP}`,
      await measure(INTAKE_PER_ROUND, async (n) => {
        for (let done = 0; done < n; done += GROUP) {
          const answers = await Promise.all(
            Array.from({ length: Math.min(GROUP, n - done) }, () => app.handle(created())),
          );
          for (const a of answers)
            if (a.status !== 200) throw new Error(`intake: ${a.status} ${await a.text()}`);
        }
      }),
    );

  // The front end as serve wires it; log lines are built but not written (stdout is the terminal).
  const write = process.stdout.write.bind(process.stdout);
  let logged = 0;
  const quiet = (chunk: string | Uint8Array) => {
    logged += chunk.length;
    return true;
  };
  const startParkd = async () => {
    process.stdout.write = quiet as typeof process.stdout.write;
    const front = await startFrontEnd({
      host: "127.0.0.1",
      port: 0,
      bodyLimit: ctx.config.bodyLimit,
      handle: app.handle,
      account: (entry) => ctx.accounting.finish(entry),
    });
    return {
      port: front.port,
      close: async () => {
        await front.close(100);
        process.stdout.write = write;
      },
    };
  };
  const fixed = JSON.stringify([{ registration_number: "ABC123", zone: 1234, active: true }]);
  const startRaw = () =>
    new Promise<{ port: number; close: () => Promise<void> }>((done) => {
      const server = createServer((req, res) => {
        req.resume();
        res.writeHead(200, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(fixed),
        });
        res.end(fixed);
      });
      server.listen({ port: 0, host: "127.0.0.1" }, () => {
        const a = server.address();
        done({
          port: typeof a === "object" && a ? a.port : 0,
          close: () =>
            new Promise<void>((closed) => {
              server.close(() => closed());
              server.closeAllConnections();
            }),
        });
      });
    });
  if (part("front")) {
    if (!process.env.HANDLE_FRONT_ONLY)
      await frontEndFigure("raw node:http (fixed array)", startRaw, "/", token);
    await frontEndFigure("front end GET /healthz", startParkd, "/healthz", token);
    if (!process.env.HANDLE_FRONT_ONLY)
      await frontEndFigure("front end GET /api/v1/whoami", startParkd, "/api/v1/whoami", token);
    await frontEndFigure(
      "front end check-tickets by plate",
      startParkd,
      "/api/v1/attendants/check-tickets?registration_number={plate}",
      token,
    );
    if (logged === 0) throw new Error("the front end logged nothing");
  }
  box.credentials.stop();
  ctx.store.close();
}

await main();
