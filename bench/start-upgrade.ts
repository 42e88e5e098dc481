/**
 * On demand: the first start of this build on a store written by an earlier release (0.1.0, or
 * UPGRADE_FROM=0.2.0 / 0.3.0: test/fixtures/store-VERSION) holding months of
 * records (issue 54: never dark for more than 2 s): LOOKUPS lookup records and TICKETS tickets
 * over 90 days added to the release's fixture store, then `serve` started on it (in the emulated
 * 1-core, 256 MB box with BENCH_KIOSK=1) and /healthz asked every 20 ms. Prints when the first
 * answer came, when the box was ready, and each step serve logged; then, until serve has checked
 * the copy it took (after it answers, at low priority), lookups at 150 a second and their times.
 *
 *   [UPGRADE_FROM=0.3.0] bun bench/start-upgrade.ts [LOOKUPS=5000000] [TICKETS=1000000]
 */
import { Database } from "bun:sqlite";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "bun";
import { BIN, KIOSK } from "./binary-box.ts";
import { kiosk } from "./kiosk.ts";

const LOOKUPS = Number(process.argv[2] ?? 5_000_000);
const TICKETS = Number(process.argv[3] ?? 1_000_000);
const DAY = 86_400_000;

const dir = mkdtempSync(join(tmpdir(), "parkd-start-upgrade-"));
const dataDir = join(dir, "data");
mkdirSync(dataDir, { mode: 0o700 });
const store = join(dataDir, "parkd.db");
const FROM = process.env.UPGRADE_FROM ?? "0.1.0";
copyFileSync(join(import.meta.dir, `../test/fixtures/store-${FROM}/parkd.db`), store);
{
  const db = new Database(store);
  const from = Date.now() - 90 * DAY;
  const l = db.prepare(
    "INSERT INTO permit_lookups (at, credential, by, query, results) VALUES (?, 'token:handheld', 'registration_number', ?, 1)",
  );
  const t = db.prepare(
    `INSERT INTO tickets (ticket_id, zone, start_at, end_at, plate, plate_norm, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'stopped', ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < LOOKUPS; i++) l.run(from + Math.floor((i * 90 * DAY) / LOOKUPS), `P${i % 200_000}`);
    for (let i = 0; i < TICKETS; i++) {
      const end = from + Math.floor((i * 90 * DAY) / TICKETS);
      t.run(`t-${i}`, 1000 + (i % 50), end - 3_600_000, end, `P${i % 200_000}`, `P${i % 200_000}`, end, end);
    }
  })();
  db.close();
}
const storeBytes = statSync(store).size;

const port = 20_000 + Math.floor(Math.random() * 20_000);
const cmd = [BIN, "serve", "--http", "--host", "127.0.0.1", "--port", String(port), "--data-dir", dataDir];
const box = KIOSK ? kiosk("start-upgrade") : null;
const started = performance.now();
const server = spawn(box ? box.wrap(cmd) : cmd, { stdout: "ignore", stderr: "pipe" });
let log = "";
void (async () => {
  const dec = new TextDecoder();
  for await (const chunk of server.stderr) log += dec.decode(chunk, { stream: true });
})();
let firstAnswer: number | null = null;
let firstStatus = 0;
let ready: number | null = null;
let longestSilence = 0;
let lastAnswer = started;
while (ready === null && performance.now() - started < 600_000) {
  try {
    const r = await fetch(`http://127.0.0.1:${port}/healthz`);
    await r.arrayBuffer();
    const at = performance.now();
    if (firstAnswer === null) {
      firstAnswer = at - started;
      firstStatus = r.status;
    } else longestSilence = Math.max(longestSilence, at - lastAnswer);
    lastAnswer = at;
    if (r.status === 200) ready = at - started;
  } catch {}
  await Bun.sleep(20);
}
// Then, while serve checks the copy it took on its low-priority thread: a busy site's lookups
// (150 a second, as bench/purge-beside-serve.ts sends), timed, until the log says the copy is kept.
const handheld = (
  JSON.parse(readFileSync(join(import.meta.dir, `../test/fixtures/store-${FROM}/store.json`), "utf8")) as {
    tokens: { handheld: string };
  }
).tokens.handheld;
const lookupMs: number[] = [];
let checked: number | null = null;
// A build before the check was left for later checked it before answering: nothing to wait for.
const checkDone = () =>
  /copy of the store taken before the upgrade (is checked|failed)|the store as it was before is kept at/.test(
    log,
  );
for (let i = 0; ready !== null && !checkDone() && performance.now() - started < 900_000; i++) {
  const t0 = performance.now();
  try {
    const r = await fetch(
      `http://127.0.0.1:${port}/api/v1/attendants/check-tickets?registration_number=P${(i * 7919) % 200_000}`,
      { headers: { Authorization: `Bearer ${handheld}` } },
    );
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`lookup answered ${r.status}`);
  } catch (e) {
    console.error(String(e));
  }
  const took = performance.now() - t0;
  lookupMs.push(took);
  await Bun.sleep(Math.max(0, 1000 / 150 - took));
}
if (checkDone()) checked = performance.now() - started;
const pct = (q: number) => {
  const sorted = [...lookupMs].sort((a, b) => a - b);
  return sorted.length
    ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10
    : null;
};
const steps = log
  .split("\n")
  .filter(
    (l) =>
      l.includes('"starting: ') ||
      l.includes("schema upgraded") ||
      l.includes("listening on") ||
      l.includes("copy of the store taken before"),
  )
  .map((l) => {
    const j = JSON.parse(l) as { time: string; msg: string };
    return `${j.time.slice(11, 23)} ${j.msg.slice(0, 110)}`;
  });
server.kill("SIGTERM");
await server.exited;
const report = box?.report() ?? null;
box?.close();
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify(
    {
      from: FROM,
      lookups: LOOKUPS,
      tickets: TICKETS,
      storeMB: Math.round(storeBytes / 1_048_576),
      firstAnswerMs: firstAnswer === null ? null : Math.round(firstAnswer),
      firstStatus,
      readyMs: ready === null ? null : Math.round(ready),
      longestSilenceMs: Math.round(longestSilence),
      copyCheckedMs: checked === null ? null : Math.round(checked),
      lookupsWhileChecking: { n: lookupMs.length, p50Ms: pct(0.5), p99Ms: pct(0.99), maxMs: pct(1) },
      steps,
      kiosk: report,
      target: { firstAnswerMs: 2000 },
    },
    null,
    1,
  ),
);
process.exit(0);
