/**
 * On demand, not part of the tests: the bytes a handheld's page moves over the site Wi-Fi in the
 * busiest zone (issue 53's targets), counted by a TCP proxy between Chromium (phone size) and
 * `parkd serve --http` on 127.0.0.1, both directions:
 *
 * - switching to the zone of 20,000 parked cars (from the zone field to the saved list kept):
 *   at most 500 KB;
 * - staying in it while 5 ticket events a second go into it: at most 300 KB a minute;
 * - staying in it with nothing happening: at most 2 KB a minute.
 *
 *   bun bench/wifi-bytes.ts [BIN] [--minutes M]
 *
 * The events go to the box directly, not through the proxy. Prints one JSON line; stops by itself.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Socket } from "bun";
import { CHROMIUM, CHROMIUM_ARGS } from "../test/support/browser.ts";

const args = process.argv.slice(2);
const BIN = resolve(args[0] && !args[0].startsWith("--") ? args[0] : "dist/parkd");
const MINUTES = Number(args[args.indexOf("--minutes") + 1] || 1) || 1;
const ZONE = 1234;
const CARS = 20_000;

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => ok(typeof a === "object" && a ? a.port : 0));
    });
  });

const dir = mkdtempSync(join(tmpdir(), "parkd-wifi-"));
const env = { PATH: "/usr/bin:/bin", TZ: "UTC" };
const run = (cmd: string[]) => Bun.spawnSync(cmd, { cwd: dir, env }).stdout.toString().trim();
run([BIN, "migrate", "--data-dir", dir]);
const handheld = run([
  BIN,
  "token",
  "create",
  "--data-dir",
  dir,
  "--name",
  "handheld",
  "--scope",
  "permits:read",
]);
const terminal = run([
  BIN,
  "token",
  "create",
  "--data-dir",
  dir,
  "--name",
  "terminal",
  "--scope",
  "tickets:write",
]);
const now = Date.now();
const db = new Database(join(dir, "parkd.db"));
const insert = db.prepare(
  "INSERT INTO tickets (ticket_id, zone, start_at, end_at, plate, plate_norm, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?)",
);
db.transaction(() => {
  for (let i = 0; i < CARS; i++) {
    const plate = `P${String(i).padStart(5, "0")}`;
    insert.run(`seed-${i}`, ZONE, now - 3_600_000, now + 2 * 3_600_000 + i * 1000, plate, plate, now, now);
  }
})();
db.close();

const port = await freePort();
const server = Bun.spawn(
  [BIN, "serve", "--http", "--host", "127.0.0.1", "--port", String(port), "--data-dir", dir],
  {
    cwd: dir,
    env,
    stdout: "ignore",
    stderr: "ignore",
  },
);
const box = `http://127.0.0.1:${port}`;
for (let i = 0; i < 200; i++) {
  if (
    await fetch(`${box}/healthz`)
      .then((r) => r.ok)
      .catch(() => false)
  )
    break;
  await Bun.sleep(50);
}

/** The proxy: every byte either way counted. */
let bytes = 0;
type Pair = { peer: Socket<Pair> | null; pending: Uint8Array[] };
const proxy = Bun.listen<Pair>({
  hostname: "127.0.0.1",
  port: 0,
  socket: {
    open(client) {
      client.data = { peer: null, pending: [] };
      void Bun.connect<Pair>({
        hostname: "127.0.0.1",
        port,
        socket: {
          open(upstream) {
            upstream.data = { peer: client, pending: [] };
            client.data.peer = upstream;
            for (const p of client.data.pending) upstream.write(p);
            client.data.pending = [];
          },
          data(upstream, chunk) {
            bytes += chunk.length;
            upstream.data.peer?.write(chunk);
          },
          close(upstream) {
            upstream.data.peer?.end();
          },
        },
      }).catch(() => client.end());
    },
    data(client, chunk) {
      bytes += chunk.length;
      if (client.data.peer) client.data.peer.write(chunk);
      else client.data.pending.push(new Uint8Array(chunk));
    },
    close(client) {
      client.data.peer?.end();
    },
  },
});
const via = `http://127.0.0.1:${proxy.port}`;

const { chromium } = await import("playwright-core");
const profile = mkdtempSync(join(tmpdir(), "parkd-wifi-phone-"));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM!,
  headless: true,
  args: CHROMIUM_ARGS.filter((a) => a !== "--headless"),
  viewport: { width: 390, height: 844 },
  locale: "en-GB",
});
const page = ctx.pages()[0] ?? (await ctx.newPage());
await page.goto(`${via}/`);
await page.fill("#token", handheld);
await page.click("#token-form button[type=submit]");
await page.waitForSelector("#plate");
await Bun.sleep(2000);
const signIn = bytes;

// Switching to the busiest zone: until its saved list is kept and the feed is live.
bytes = 0;
await page.fill("#zone", String(ZONE));
await page.click("#zone-form button");
await page.waitForSelector("#zone-state.live", { timeout: 60_000 });
const kept = async () =>
  page.evaluate(async (zone) => {
    const hit = await (await caches.open("parkd-zones-v1")).match(`/api/v1/tickets/zone/${zone}/permits`);
    return !!hit;
  }, ZONE);
for (let i = 0; i < 120 && !(await kept()); i++) await Bun.sleep(250);
await Bun.sleep(1000);
const switching = bytes;

// Idle: nothing happens in the zone.
bytes = 0;
await Bun.sleep(MINUTES * 60_000);
const idlePerMinute = bytes / MINUTES;

// Busy: 5 ticket events a second into the zone (new cars, and extensions of parked ones).
bytes = 0;
let sent = 0;
const busyUntil = Date.now() + MINUTES * 60_000;
while (Date.now() < busyUntil) {
  const at = Date.now();
  const fresh = sent % 2 === 0;
  const id = fresh ? `new-${sent}` : `seed-${(sent * 7919) % CARS}`;
  const plate = fresh
    ? `N${String(sent).padStart(5, "0")}`
    : `P${String((sent * 7919) % CARS).padStart(5, "0")}`;
  void fetch(`${box}/api/v1/actions/tickets`, {
    method: "POST",
    headers: { authorization: `Bearer ${terminal}`, "content-type": "application/json" },
    body: JSON.stringify({
      eventType: fresh ? "TicketCreated" : "CreateOrUpdate",
      ticketId: id,
      zoneCode: String(ZONE),
      parkingLotId: null,
      startDate: new Date(at - 60_000).toISOString(),
      endDate: new Date(at + 3 * 3_600_000 + sent * 1000).toISOString(),
      licenseNumber: plate,
      ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
    }),
  });
  sent++;
  await Bun.sleep(Math.max(0, at + 200 - Date.now()));
}
await Bun.sleep(2000);
const busyPerMinute = bytes / MINUTES;

await ctx.close();
proxy.stop(true);
server.kill("SIGTERM");
await server.exited;
rmSync(dir, { recursive: true, force: true });
rmSync(profile, { recursive: true, force: true });
const kb = (n: number) => Math.round(n / 102.4) / 10;
console.log(
  JSON.stringify({
    bin: BIN,
    cars: CARS,
    minutes: MINUTES,
    eventsSent: sent,
    signInKB: kb(signIn),
    switchKB: kb(switching),
    switchTarget: 500,
    idleKBPerMinute: kb(idlePerMinute),
    idleTarget: 2,
    busyKBPerMinute: kb(busyPerMinute),
    busyTarget: 300,
  }),
);
process.exit(0);
