/**
 * On demand: `parkd purge` run by a technician beside a serving box at a busy site's pace (issue
 * 54): a store with LOOKUPS lookup records, TICKETS tickets (with two events each) and NOTICES
 * control notices (a 150 KB photo file each) that ended 200 days ago, `serve` under 100 ticket events and 150 plate lookups a second (open loop), and
 * `/healthz` asked every 50 ms; then `parkd purge` in another process. Prints, for the purge's
 * minutes, each request kind's p50/p99/max and the longest gap in /healthz answers.
 *
 * Serve's own retention is set to keep everything (--retention-days 36500), so that what is
 * measured is the command's work. BENCH_WORK=backup runs `parkd backup` instead of the purge.
 *
 *   bun bench/purge-beside-serve.ts [LOOKUPS=3000000] [TICKETS=300000] [NOTICES=10000]
 *   BENCH_KIOSK=1 ...   the server in the emulated 1-core, 256 MB box
 */
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryBox, tls } from "./binary-box.ts";

const LOOKUPS = Number(process.argv[2] ?? 3_000_000);
const TICKETS = Number(process.argv[3] ?? 300_000);
/** Control notices with a photo each, as a busy site's 90 days hold (issue 54). */
const NOTICES = Number(process.argv[4] ?? 10_000);
const PHOTO_BYTES = 150_000;
const DAY = 86_400_000;

const box = binaryBox("purge-beside");
box.cli("migrate");
const terminal = box.cli("token", "create", "--name", "terminal", "--scope", "tickets:write");
const handheld = box.cli("token", "create", "--name", "handheld", "--scope", "permits:read");
{
  const db = new Database(join(box.dataDir, "parkd.db"));
  const old = Date.now() - 200 * DAY;
  const t = db.prepare(
    `INSERT INTO tickets (ticket_id, zone, start_at, end_at, plate, plate_norm, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'stopped', ?, ?)`,
  );
  const e = db.prepare(
    `INSERT INTO ticket_events (ticket_id, event_type, received_at, credential, raw_body, outcome)
     VALUES (?, 'TicketCreated', ?, 'token:terminal', '{"eventType":"TicketCreated"}', 'applied')`,
  );
  const l = db.prepare(
    "INSERT INTO permit_lookups (at, credential, by, query, results) VALUES (?, 'token:handheld', 'registration_number', ?, 1)",
  );
  const nt = db.prepare(
    `INSERT INTO notices (id, number, plate, plate_norm, zone, verdict, reason_code, reason_title, amount, currency, note, observed_at, issued_at, issued_by, sync_seq)
     VALUES (?, ?, ?, ?, ?, 'none', 'no-permit', 'No valid permit', 50000, 'SEK', '', ?, ?, 'token:handheld', ?)`,
  );
  const np = db.prepare(
    `INSERT INTO notice_photos (notice_id, hash, content_type, bytes, width, height, added_at)
     VALUES (?, ?, 'image/jpeg', ?, 1600, 900, ?)`,
  );
  const photos = join(box.dataDir, "photos");
  mkdirSync(photos, { recursive: true, mode: 0o700 });
  const photo = new Uint8Array(PHOTO_BYTES).fill(0xab);
  db.transaction(() => {
    for (let i = 0; i < TICKETS; i++) {
      const end = old + i * 10;
      t.run(`old-${i}`, 1000 + (i % 50), end - 3_600_000, end, `OLD${i}`, `OLD${i}`, end, end);
      e.run(`old-${i}`, end - 3_600_000);
      e.run(`old-${i}`, end);
    }
    for (let i = 0; i < LOOKUPS; i++) l.run(old + i, `OLD${i % TICKETS}`);
    for (let i = 0; i < NOTICES; i++) {
      const at = old + i * 1000;
      const hash = createHash("sha256").update(`old-photo-${i}`).digest("hex");
      nt.run(`old-notice-${i}`, i + 1, `OLD${i}`, `OLD${i}`, 1000 + (i % 50), at, at, i + 1);
      np.run(`old-notice-${i}`, hash, PHOTO_BYTES, at);
      // A photo's size as the handheld sends them; the bytes themselves are not read by a purge.
      writeFileSync(join(photos, hash), photo);
    }
  })();
  db.close();
}
// The store and 1.5 GB of photos just written are still in the page cache, unsynced: the kernel
// writes them back 30 s later, in the middle of the measured minutes, and every sync serve makes
// waits behind that. On the disk before serve starts, as a site's would be.
Bun.spawnSync(["sync"]);

const { base } = await box.serve(["--retention-days", "36500"]);
const WORK = process.env.BENCH_WORK === "backup" ? "backup" : "purge";
const headers = (token: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });
type Sample = { at: number; ms: number; ok: boolean };
const samples: Record<"intake" | "lookup" | "healthz", Sample[]> = { intake: [], lookup: [], healthz: [] };
const timed = async (kind: keyof typeof samples, run: () => Promise<Response>) => {
  const t0 = performance.now();
  let ok = false;
  try {
    const r = await run();
    await r.arrayBuffer();
    ok = r.status === 200;
  } catch {}
  samples[kind].push({ at: t0, ms: performance.now() - t0, ok });
};
let n = 0;
const every = (perSecond: number, fn: () => void) => setInterval(fn, 1000 / perSecond);
const timers = [
  every(100, () => {
    const now = Date.now();
    const id = `new-${n++}`;
    void timed("intake", () =>
      fetch(`${base}/api/v1/actions/tickets`, {
        method: "POST",
        headers: headers(terminal),
        tls,
        body: JSON.stringify({
          eventType: "CreateOrUpdate",
          ticketId: id,
          zoneCode: "1234",
          parkingLotId: null,
          startDate: new Date(now - 60_000).toISOString(),
          endDate: new Date(now + 3_600_000).toISOString(),
          licenseNumber: `NEW${n % 5000}`,
          ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
        }),
      }),
    );
  }),
  every(
    150,
    () =>
      void timed("lookup", () =>
        fetch(`${base}/api/v1/attendants/check-tickets?registration_number=NEW${n % 5000}`, {
          headers: headers(handheld),
          tls,
        }),
      ),
  ),
  every(20, () => void timed("healthz", () => fetch(`${base}/healthz`, { tls }))),
];

await Bun.sleep(5_000);
// Each second, [second, the backup's file in MB, serve's WAL in MB, and in the emulated box its
// memory]: where the backup's phases fall on the timeline, how far the WAL grows while a reader
// holds its snapshot, and what the box's memory does meanwhile.
const backupGrowth: number[][] = [];
const mbOf = (path: string) => {
  try {
    return Math.round(statSync(path).size / 1_048_576);
  } catch {
    return 0;
  }
};
const growth = setInterval(() => {
  const partial = readdirSync(box.dir).find((f) => /^\.bench-backup\.db\.partial-\d+$/.test(f));
  backupGrowth.push([
    Math.round((performance.now() - from) / 1000),
    partial ? mbOf(join(box.dir, partial)) : 0,
    mbOf(join(box.dataDir, "parkd.db-wal")),
    // In the emulated box: its page cache, anonymous memory, dirty and under writeback (MB), and
    // the major faults so far (pages read back from the disk).
    ...(() => {
      const m = box.kioskMemory();
      if (!m) return [];
      const mb = (k: string) => Math.round((m[k] ?? 0) / 1_048_576);
      return [
        mb("total_cache"),
        mb("total_rss"),
        mb("total_dirty"),
        mb("total_writeback"),
        m.total_pgmajfault ?? 0,
      ];
    })(),
  ]);
}, 1000);
const from = performance.now();
const out =
  WORK === "backup"
    ? await box.cliAsync("backup", join(box.dataDir, "..", "bench-backup.db"))
    : await box.cliAsync("purge", "--retention-days", "90");
const to = performance.now();
clearInterval(growth);
await Bun.sleep(2_000);
for (const t of timers) clearInterval(t);
await Bun.sleep(3_000);

const during = (kind: keyof typeof samples) => samples[kind].filter((s) => s.at >= from && s.at <= to);
const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
const figures = (kind: keyof typeof samples) => {
  const xs = during(kind)
    .map((s) => s.ms)
    .sort((a, b) => a - b);
  return {
    n: xs.length,
    failed: during(kind).filter((s) => !s.ok).length,
    p50: Math.round(q(xs, 0.5)),
    p99: Math.round(q(xs, 0.99)),
    max: Math.round(xs.at(-1) ?? 0),
  };
};
// The longest stretch with no /healthz answered: the box's own pause, as a client sees it.
const answers = during("healthz")
  .map((s) => s.at + s.ms)
  .sort((a, b) => a - b);
let gap = 0;
for (let i = 1; i < answers.length; i++) gap = Math.max(gap, answers[i]! - answers[i - 1]!);
// Where the slow answers fall: each second of the work with an intake answer over 50 ms, as
// [second since the work began, how many, the slowest ms] (BENCH_TIMELINE=1).
const timeline: [number, number, number][] = [];
for (const s of during("intake")
  .filter((s) => s.ms > 50)
  .sort((a, b) => a.at - b.at)) {
  const second = Math.floor((s.at - from) / 1000);
  const row =
    timeline.at(-1)?.[0] === second ? timeline.at(-1)! : timeline[timeline.push([second, 0, 0]) - 1]!;
  row[1]++;
  row[2] = Math.max(row[2], Math.round(s.ms));
}
if (process.env.BENCH_TIMELINE === "1")
  console.log(JSON.stringify({ slowIntakeBySecond: timeline, backupGrowth }));
console.log(
  JSON.stringify({
    lookups: LOOKUPS,
    tickets: TICKETS,
    notices: NOTICES,
    work: WORK,
    seconds: Math.round((to - from) / 100) / 10,
    said: out,
    intake: figures("intake"),
    lookup: figures("lookup"),
    healthz: figures("healthz"),
    longestGapMs: Math.round(gap),
    kiosk: box.kiosk(),
    targets: { p99Ms: 50, gapMs: 250 },
  }),
);
await box.close();
process.exit(0);
