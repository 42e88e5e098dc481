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
import { resolve } from "node:path";
import type { Socket } from "bun";
import { busyZoneBox, CARS, fiveEventsASecond, phoneSignedIn, ZONE } from "./busy-zone-box.ts";

const args = process.argv.slice(2);
const BIN = resolve(args[0] && !args[0].startsWith("--") ? args[0] : "dist/parkd");
const MINUTES = Number(args[args.indexOf("--minutes") + 1] || 1) || 1;

const box = await busyZoneBox(BIN);

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
        port: box.port,
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

const phone = await phoneSignedIn(`http://127.0.0.1:${proxy.port}`, box.handheld);
const page = phone.page;
await Bun.sleep(2000);
const signIn = bytes;

// Switching to the busiest zone: until its saved list is kept and the feed is live.
bytes = 0;
await page.fill("#zone", String(ZONE));
await page.click("#zone-form button");
await page.waitForSelector("#zone-state.live", { timeout: 60_000 });
const kept = () =>
  page.evaluate(
    async (zone) =>
      !!(await (await caches.open("parkd-zones-v1")).match(`/api/v1/tickets/zone/${zone}/permits`)),
    ZONE,
  );
for (let i = 0; i < 120 && !(await kept()); i++) await Bun.sleep(250);
await Bun.sleep(1000);
const switching = bytes;

// Idle: nothing happens in the zone.
bytes = 0;
await Bun.sleep(MINUTES * 60_000);
const idlePerMinute = bytes / MINUTES;

// Busy: 5 ticket events a second into the zone.
bytes = 0;
const events = fiveEventsASecond(box);
await Bun.sleep(MINUTES * 60_000);
const sent = await events.stop();
await Bun.sleep(2000);
const busyPerMinute = bytes / MINUTES;

await phone.close();
proxy.stop(true);
await box.close();
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
