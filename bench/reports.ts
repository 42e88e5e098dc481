/**
 * The reports on the 1,000,000-ticket bench store, in process (app.handle, no sockets): a 30-day
 * revenue report, a day's occupancy curve (every lot and zone, 5-minute steps), one lot's day, and
 * occupancy now; each asked REPORTS_ROUNDS times (default 20), figures are the median and the
 * worst wall time, and the median process CPU time (user + system: what the answer costs, also on
 * a box whose cores other work shares), in ms. Also times what a first start on such a store costs: the migration (two indexes)
 * and building the revenue book from the tickets.
 *
 *   bun bench/reports.ts          # needs bench/.work/data-1000000 (bench/handle.ts or run.sh makes it)
 */
import { cpSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { composeBox } from "../src/app.ts";
import { createContext } from "../src/context.ts";
import { openStore } from "../src/platform/store/db.ts";

const WORK = join(import.meta.dir, ".work");
const SOURCE = join(WORK, "data-1000000");
const ROUNDS = Number(process.env.REPORTS_ROUNDS ?? 20);
const TZ = "Europe/Stockholm";

if (!existsSync(join(SOURCE, "parkd.db")))
  throw new Error(`${SOURCE} is missing: run bun bench/handle.ts once`);
const dir = join(WORK, "reports-run");
rmSync(dir, { recursive: true, force: true });
cpSync(SOURCE, dir, { recursive: true });

let t = performance.now();
const store = openStore(dir);
const migrated = performance.now() - t;
const ctx = createContext(store, { timezone: TZ, rateLimitPerSecond: 0 });
t = performance.now();
store.reports.revenue.ensureBasis(TZ, "SEK", Date.now());
const built = performance.now() - t;
const tickets = store.tickets.count();
console.log(`store: ${tickets.toLocaleString("en")} tickets`);
console.log(`first start: migration ${migrated.toFixed(0)} ms, revenue book built in ${built.toFixed(0)} ms`);

const box = composeBox(ctx);
const app = box.app;
const token = box.credentials.createToken({ name: `reports-${Date.now()}`, scopes: ["admin"] }).token;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function time(label: string, path: string): Promise<void> {
  const ms: number[] = [];
  const cpu: number[] = [];
  let bytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await app.handle(
      new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }),
    );
    const body = await res.arrayBuffer();
    ms.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${new TextDecoder().decode(body)}`);
    bytes = body.byteLength;
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const wall = median(ms);
  console.log(
    `${label.padEnd(48)} wall median ${wall.toFixed(1).padStart(6)} ms (worst ${ms[ms.length - 1]!.toFixed(1).padStart(6)})  CPU median ${median(cpu).toFixed(1).padStart(6)} ms  ${(bytes / 1024).toFixed(0).padStart(4)} KB`,
  );
}

await time("revenue, 30 days by day", `/api/v1/reports/revenue?from=${day(-29)}&to=${day(0)}`);
await time("revenue, 30 days by lot", `/api/v1/reports/revenue?from=${day(-29)}&to=${day(0)}&group=lot`);
await time(
  "revenue, 30 days by day and VAT, CSV (se)",
  `/api/v1/reports/revenue.csv?from=${day(-29)}&to=${day(0)}&group=day,vat`,
);
await time(
  "occupancy curve, yesterday, all lots and zones",
  `/api/v1/occupancy/history?from=${day(-1)}&to=${day(0)}`,
);
await time(
  "occupancy curve, yesterday, lot 1",
  `/api/v1/occupancy/history?from=${day(-1)}&to=${day(0)}&lot=1`,
);
await time(
  "occupancy curve, 7 days by the hour, lot 1",
  `/api/v1/occupancy/history?from=${day(-7)}&to=${day(0)}&step=60&lot=1`,
);
await time("occupancy now", "/api/v1/occupancy");
store.close();
rmSync(dir, { recursive: true, force: true });
