/**
 * The live zone feed in process, through app.handle (no HTTP front end): with S subscribers on
 * one zone, how long from a ticket event's acknowledgement until every subscriber has the new
 * list, and what the once-a-second clock costs with many watched zones and nothing changing.
 * A script, not a test.
 *
 *   bun bench/zone-feed.ts
 *   FEED_SUBSCRIBERS=2000 FEED_EVENTS=200 bun bench/zone-feed.ts
 */
import { composeBox } from "../src/app.ts";
import { createContext } from "../src/context.ts";
import { MAX_FEEDS_PER_CREDENTIAL } from "../src/modules/enforcement/zone-feed.ts";
import { setLogging } from "../src/platform/log.ts";
import { openMemoryStore } from "../src/platform/store/db.ts";

const SUBSCRIBERS = Number(process.env.FEED_SUBSCRIBERS ?? 1_000);
const EVENTS = Number(process.env.FEED_EVENTS ?? 100);
const PLATES_IN_ZONE = 300;

setLogging(false);
const ctx = createContext(openMemoryStore(), { timezone: "Europe/Stockholm" });
const box = composeBox(ctx);
const app = box.app;
const terminal = box.credentials.createToken({ name: "terminal", scopes: ["tickets:write"] }).token;
let n = 0;
const post = async (body: unknown) => {
  const r = await app.handle(
    new Request("http://localhost/api/v1/actions/tickets", {
      method: "POST",
      headers: { authorization: `Bearer ${terminal}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  if (r.status !== 200) throw new Error(`intake answered ${r.status}`);
};
const ticket = (zone: number) => ({
  eventType: "TicketCreated",
  ticketId: `b-${++n}`,
  zoneCode: String(zone),
  parkingLotId: null,
  startDate: new Date(Date.now() - 3_600_000).toISOString(),
  endDate: new Date(Date.now() + 3 * 3_600_000).toISOString(),
  licenseNumber: `ABC${String(n).padStart(4, "0")}`,
  ticketCost: { amountInclVat: 100, vatRate: 25, currencyCode: "SEK" },
});
for (let i = 0; i < PLATES_IN_ZONE; i++) await post(ticket(1));

/** Opens a feed and counts the `plates` events it receives. */
async function subscribe(zone: number, token: string) {
  const res = await app.handle(
    new Request(`http://localhost/api/v1/tickets/zone/${zone}/events`, {
      headers: { authorization: `Bearer ${token}` },
    }),
  );
  if (res.status !== 200) throw new Error(`feed answered ${res.status}`);
  const reader = res.body!.getReader();
  const feed = { events: 0, reader };
  void (async () => {
    const dec = new TextDecoder();
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      feed.events += dec.decode(next.value).split("event: plates").length - 1;
    }
  })();
  return feed;
}

const feeds = [];
let token = "";
for (let i = 0; i < SUBSCRIBERS; i++) {
  if (i % MAX_FEEDS_PER_CREDENTIAL === 0)
    token = box.credentials.createToken({ name: `handheld-${i}`, scopes: ["permits:read"] }).token;
  feeds.push(await subscribe(1, token));
}
await Bun.sleep(50);

const latencies: number[] = [];
for (let e = 0; e < EVENTS; e++) {
  const want = feeds[0]!.events + 1;
  await post(ticket(1));
  const acked = performance.now();
  while (feeds.some((f) => f.events < want)) await new Promise((r) => setImmediate(r));
  latencies.push(performance.now() - acked);
}
latencies.sort((a, b) => a - b);
const q = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(2);
console.log(
  `${SUBSCRIBERS} subscribers on a zone of ${PLATES_IN_ZONE}+ plates, ${EVENTS} events: ack → every subscriber has the list: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms`,
);
for (const f of feeds) await f.reader.cancel();

// The clock with many watched zones and nothing changing: CPU per second.
const ZONES = 200;
const idle = [];
for (let z = 0; z < ZONES; z++) {
  const t = box.credentials.createToken({ name: `zone-${z}`, scopes: ["permits:read"] }).token;
  idle.push(await subscribe(1000 + z, t));
}
await Bun.sleep(2_000);
Bun.gc(true);
const before = process.cpuUsage();
await Bun.sleep(10_000);
const used = process.cpuUsage(before);
console.log(
  `${ZONES} watched zones, nothing changing: ${((used.user + used.system) / 1000 / 10).toFixed(1)} ms CPU per second`,
);
for (const f of idle) await f.reader.cancel();
process.exit(0);
