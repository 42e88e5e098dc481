/**
 * A simulated fleet of site boxes pushing to one office PostgreSQL on this machine, to say how
 * many sites one server takes at what event rate (docs/central.md). Everything is local
 * (127.0.0.1), bounded in time, and stops by itself:
 *
 *   bun bench/central-fleet.ts [--seconds 8] [--levels 50,100,150] [--rate 5] [--every 1] [--catchup 50]
 *
 * 1. catch-up: `--catchup` sites each send full batches (500 events and their 500 ticket states)
 *    as fast as the office takes them: the most events per second the server stores.
 * 2. steady fleet: for each level, that many sites each receive `--rate` events a second and push
 *    them every `--every` seconds (with their ticket states and as many lookup records), as a
 *    live box does; reports the events/s stored and the push latency (p50, p99). A level holds
 *    when p99 stays well under the push interval.
 * 3. pulls: every site of the biggest level pulls office permits (5,000 of them, nothing changed
 *    since its last pull) back to back: what the 30-second pull costs the server.
 * The server runs with fsync on (durable commits, as an office would); each simulated site has
 * its own connection, as a box would. Box and server share this machine's cores.
 */
import { SQL } from "bun";
import { migrateCentral } from "../src/modules/sync/central-schema.ts";
import type { LocalBatch } from "../src/modules/sync/local.ts";
import { pullPermits } from "../src/modules/sync/puller.ts";
import { pushBatch } from "../src/modules/sync/pusher.ts";
import type { StoredLookup } from "../src/platform/store/lookups.ts";
import type { SyncedEvent, SyncedTicket } from "../src/platform/store/tickets/rows.ts";
import { startPostgres } from "../test/support/postgres.ts";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const SECONDS = Number(arg("seconds", "8"));
const LEVELS = arg("levels", "50,100,150").split(",").map(Number);
const RATE = Number(arg("rate", "5"));
const CATCHUP = Number(arg("catchup", "50"));
/** Seconds between a site's pushes: a box pushes once a second while events arrive. */
const EVERY = Number(arg("every", "1"));

const BODY = JSON.stringify({
  eventType: "TicketCreated",
  ticketId: "100234",
  zoneCode: "1234",
  parkingLotId: "12",
  startDate: "2026-06-15T10:00:00+02:00",
  endDate: "2026-06-15T12:00:00+02:00",
  licenseNumber: "ABC123",
  ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
});

/** A site's next batch: `n` new tickets, each with its create event and a lookup record. */
class SimSite {
  seq = 0;
  lookup = 0;
  readonly box: { site: string; boxId: string; version: string };
  constructor(readonly site: string) {
    this.box = { site, boxId: crypto.randomUUID(), version: "bench" };
  }

  batch(n: number): LocalBatch {
    const now = Date.now();
    const after = { events: this.seq, lookups: this.lookup };
    const events: SyncedEvent[] = [];
    const tickets: SyncedTicket[] = [];
    const lookups: StoredLookup[] = [];
    for (let i = 0; i < n; i++) {
      const seq = ++this.seq;
      const ticketId = `${this.site}-${seq}`;
      events.push({
        seq,
        ticketId,
        eventType: "TicketCreated",
        receivedAt: now,
        credential: "token:terminal-1",
        rawBody: BODY,
        bodyCutFrom: null,
        outcome: "applied",
      });
      tickets.push({
        ticketId,
        zone: 1000 + (seq % 50),
        parkingLotId: 12,
        lotUnknown: false,
        startAt: now,
        endAt: now + 7_200_000,
        plate: `ABC${seq % 1000}`,
        plateNorm: `ABC${seq % 1000}`,
        amountInclVat: 4000,
        vatRate: 25,
        currencyCode: "SEK",
        status: "running",
        createdAt: now,
        updatedAt: now,
        canceledAt: null,
        lastSeq: seq,
      });
      lookups.push({
        id: ++this.lookup,
        at: now,
        credential: "token:handheld-1",
        by: "registration_number",
        query: `ABC${seq % 1000}`,
        results: 1,
      });
    }
    return { events, tickets, lookups, lots: null, after };
  }
}

const pct = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

const pg = await startPostgres({ durable: true, maxConnections: Math.max(...LEVELS, CATCHUP) + 20 });
const office = new SQL(pg.urlWithPassword, { max: 2 });
const lines: string[] = [];
const say = (s: string) => {
  lines.push(s);
  console.log(s);
};

try {
  await migrateCentral(office);
  const [v] = await office`SHOW server_version`;
  say(
    `PostgreSQL ${v.server_version}, fsync on, ${navigator.hardwareConcurrency} cores shared by boxes and server`,
  );

  // 1. Catch-up.
  {
    const sites = Array.from({ length: CATCHUP }, (_, i) => new SimSite(`catchup-${i}`));
    const clients = sites.map(() => new SQL(pg.urlWithPassword, { max: 1 }));
    const latencies: number[] = [];
    let events = 0;
    const end = Date.now() + SECONDS * 1000;
    await Promise.all(
      sites.map(async (s, i) => {
        while (Date.now() < end) {
          const b = s.batch(500);
          const t = performance.now();
          await pushBatch(clients[i]!, s.box, b);
          latencies.push(performance.now() - t);
          events += 500;
        }
      }),
    );
    await Promise.all(clients.map((c) => c.close()));
    latencies.sort((a, b) => a - b);
    say(
      `catch-up, ${CATCHUP} sites sending 500-event batches: ${Math.round(events / SECONDS)} events/s stored ` +
        `(batch p50 ${fmt(pct(latencies, 50))}, p99 ${fmt(pct(latencies, 99))})`,
    );
  }

  // 2. Steady fleet.
  for (const level of LEVELS) {
    const sites = Array.from({ length: level }, (_, i) => new SimSite(`steady-${level}-${i}`));
    const clients = sites.map(() => new SQL(pg.urlWithPassword, { max: 1 }));
    await Promise.all(clients.map((c) => c`SELECT 1`));
    const latencies: number[] = [];
    let events = 0;
    const start = Date.now();
    const end = start + SECONDS * 1000;
    await Promise.all(
      sites.map(async (s, i) => {
        // Spread over the second, as boxes started at different times are.
        let next = start + Math.random() * 1000 * EVERY;
        while (next < end) {
          const wait = next - Date.now();
          if (wait > 0) await Bun.sleep(wait);
          const t = performance.now();
          await pushBatch(clients[i]!, s.box, s.batch(RATE * EVERY));
          latencies.push(performance.now() - t);
          events += RATE * EVERY;
          next += 1000 * EVERY;
        }
      }),
    );
    const took = (Date.now() - start) / 1000;
    await Promise.all(clients.map((c) => c.close()));
    latencies.sort((a, b) => a - b);
    say(
      `steady, ${level} sites x ${RATE} events/s pushed every ${EVERY} s (+ tickets and lookups): ${Math.round(events / took)} events/s stored, ` +
        `push p50 ${fmt(pct(latencies, 50))}, p99 ${fmt(pct(latencies, 99))}, max ${fmt(latencies.at(-1) ?? 0)}`,
    );
  }

  // 3. Pulls with nothing new.
  {
    await office`INSERT INTO parkd.permits (plate, zone, start_at, end_at, sites)
      SELECT 'MON' || g, 1000 + g % 50, now(), now() + interval '30 days',
        CASE WHEN g % 2 = 0 THEN NULL ELSE ARRAY['steady-1-1'] END
      FROM generate_series(1, 5000) AS g`;
    const level = Math.max(...LEVELS);
    const clients = Array.from({ length: level }, () => new SQL(pg.urlWithPassword, { max: 1 }));
    const first = await pullPermits(clients[0]!, "steady-1-1", "0");
    const t0 = performance.now();
    await pullPermits(clients[0]!, "steady-1-1", "0");
    const full = performance.now() - t0;
    let pulls = 0;
    const end = Date.now() + Math.min(SECONDS, 5) * 1000;
    await Promise.all(
      clients.map(async (c, i) => {
        while (Date.now() < end) {
          await pullPermits(c, `steady-${level}-${i}`, first.horizon);
          pulls++;
        }
      }),
    );
    await Promise.all(clients.map((c) => c.close()));
    const perSecond = pulls / Math.min(SECONDS, 5);
    say(
      `pulls: a first pull of ${first.keep.length} permits takes ${fmt(full)}; ${level} sites pulling with nothing new: ` +
        `${Math.round(perSecond)} pulls/s, i.e. ${Math.round(perSecond * 30)} sites at one pull each 30 s`,
    );
  }

  const [size] = await office`SELECT pg_total_relation_size('parkd.events') AS ev,
    pg_total_relation_size('parkd.tickets') AS tk, pg_total_relation_size('parkd.lookups') AS lk,
    (SELECT count(*) FROM parkd.events) AS n`;
  const per = (Number(size.ev) + Number(size.tk) + Number(size.lk)) / Number(size.n);
  say(
    `storage: ${Math.round(per)} bytes per event with its ticket state and one lookup record (indexes included)`,
  );
} finally {
  await office.close({ timeout: 1 }).catch(() => {});
  await pg.destroy();
}
console.log(`\n${lines.join("\n")}`);
