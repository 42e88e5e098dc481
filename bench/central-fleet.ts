/**
 * A simulated fleet of site boxes pushing to one office PostgreSQL on this machine, to say how
 * many sites one server takes at what event rate (docs/central.md). Everything is local
 * (127.0.0.1), bounded in time, and stops by itself:
 *
 *   bun bench/central-fleet.ts [--seconds 8] [--levels 50,100,150] [--rate 5] [--every 1] [--catchup 50]
 *     [--roles site,owner] [--rounds 1]
 *
 * `--roles`: `site` pushes as each site's own role (parkd central add-site), under row-level
 * security, as boxes do; `owner` as the schema's owner, whom the policies do not apply to: the
 * difference is the policies' cost. Each level runs once per role per round, alternating, so
 * that the machine's other load falls on both alike.
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
import type { LocalBatch } from "../src/modules/sync/local.ts";
import { pullPermits } from "../src/modules/sync/office/pulls.ts";
import { pushBatch } from "../src/modules/sync/office/pushes.ts";
import { addSite, siteRoleName } from "../src/modules/sync/office/roles.ts";
import { migrateCentral } from "../src/modules/sync/office/schema.ts";
import type { StoredLookup } from "../src/platform/store/lookups.ts";
import type { SyncedEvent, SyncedTicket } from "../src/platform/store/tickets/rows.ts";
import { startPostgres } from "../test/support/postgres.ts";
import { serverTimes } from "./central-server-times.ts";

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
const ROLES = arg("roles", "site,owner").split(",") as ("site" | "owner")[];
const ROUNDS = Number(arg("rounds", "1"));

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
    const after = { events: this.seq, lookups: this.lookup, notices: 0, observations: 0 };
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
        verdict: null,
        cameraRead: null,
      });
    }
    return { events, tickets, lookups, lots: null, notices: [], observations: [], after };
  }
}

const pct = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

const pg = await startPostgres({
  durable: true,
  maxConnections: Math.max(...LEVELS, CATCHUP) + 20,
  // The server's own time per statement and role: what the policies cost, apart from the
  // client's and the machine's scheduling.
  settings: [
    "shared_preload_libraries=pg_stat_statements",
    "pg_stat_statements.track=all",
    "pg_stat_statements.track_planning=on",
  ],
});
const SITE_PASSWORD = "bench-site-password";

/** One connection per site: as its own role (made here first), or as the owner. */
async function connectSites(sites: SimSite[], role: "site" | "owner"): Promise<SQL[]> {
  if (role === "owner") return sites.map(() => new SQL(pg.urlWithPassword, { max: 1 }));
  for (const s of sites) {
    await addSite(office, s.site, SITE_PASSWORD);
  }
  return sites.map(
    (s) =>
      new SQL(pg.url.replace(/\/\/[^@]+@/, `//${siteRoleName(s.site)}@`), {
        password: SITE_PASSWORD,
        max: 1,
      }),
  );
}
const office = new SQL(pg.urlWithPassword, { max: 2 });
const lines: string[] = [];
const say = (s: string) => {
  lines.push(s);
  console.log(s);
};

try {
  await migrateCentral(office);
  await office`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
  const [v] = await office`SHOW server_version`;
  say(
    `PostgreSQL ${v.server_version}, fsync on, ${navigator.hardwareConcurrency} cores shared by boxes and server`,
  );

  // 0. The policies' cost per push: one site at a time, nothing else running, the same 5-event
  // pushes as its own role and as the owner in alternating blocks of 25.
  if (ROLES.length > 1) {
    await office`SELECT pg_stat_statements_reset()`;
    const times: Record<string, number[]> = {};
    const pairs = await Promise.all(
      ROLES.map(async (role) => {
        const site = new SimSite(`alone-${role}`);
        const [client] = await connectSites([site], role);
        times[role] = [];
        return { role, site, client: client! };
      }),
    );
    for (const p of pairs) await pushBatch(p.client, p.site.box, p.site.batch(RATE));
    for (let block = 0; block < 16; block++)
      for (const p of pairs)
        for (let i = 0; i < 25; i++) {
          const b = p.site.batch(RATE);
          const t = performance.now();
          await pushBatch(p.client, p.site.box, b);
          times[p.role]!.push(performance.now() - t);
        }
    await Promise.all(pairs.map((p) => p.client.close()));
    const alone = await serverTimes(office);
    if (alone) say(`server time per push statement, one site alone, site role vs owner: ${alone}`);
    say(
      `one site alone, ${RATE}-event pushes (400 each, alternating blocks): ` +
        ROLES.map((r) => {
          const sorted = times[r]!.sort((a, b) => a - b);
          return `${r} roles p50 ${fmt(pct(sorted, 50))}, p90 ${fmt(pct(sorted, 90))}, p99 ${fmt(pct(sorted, 99))}`;
        }).join("; "),
    );
  }

  // 1. Catch-up.
  for (const role of ROLES) {
    const sites = Array.from({ length: CATCHUP }, (_, i) => new SimSite(`catchup-${role}-${i}`));
    const clients = await connectSites(sites, role);
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
      `catch-up as ${role} roles, ${CATCHUP} sites sending 500-event batches: ${Math.round(events / SECONDS)} events/s stored ` +
        `(batch p50 ${fmt(pct(latencies, 50))}, p99 ${fmt(pct(latencies, 99))})`,
    );
  }

  // 2. Steady fleet (the server's statement times count from here: 5-event pushes only).
  await office`SELECT pg_stat_statements_reset()`;
  for (let round = 1; round <= ROUNDS; round++)
    for (const level of LEVELS)
      for (const role of ROLES) {
        const sites = Array.from(
          { length: level },
          (_, i) => new SimSite(`steady-${role}-${round}-${level}-${i}`),
        );
        const clients = await connectSites(sites, role);
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
          `steady, round ${round}, ${role} roles, ${level} sites x ${RATE} events/s pushed every ${EVERY} s (+ tickets and lookups): ${Math.round(events / took)} events/s stored, ` +
            `push p50 ${fmt(pct(latencies, 50))}, p99 ${fmt(pct(latencies, 99))}, max ${fmt(latencies.at(-1) ?? 0)}`,
        );
      }

  // 3. Pulls with nothing new.
  {
    const listed = `steady-${ROLES[0]}-1-${Math.max(...LEVELS)}-1`;
    await office`INSERT INTO parkd.permits (plate, zone, start_at, end_at, sites)
      SELECT 'MON' || g, 1000 + g % 50, now(), now() + interval '30 days',
        CASE WHEN g % 2 = 0 THEN NULL ELSE ARRAY[${listed}::text] END
      FROM generate_series(1, 5000) AS g`;
    const level = Math.max(...LEVELS);
    const role = ROLES[0]!;
    const names = Array.from({ length: level }, (_, i) => `steady-${role}-1-${level}-${i}`);
    const clients = await connectSites(
      names.map((n) => new SimSite(n)),
      role,
    );
    const first = await pullPermits(clients[1]!, names[1]!, "0");
    const t0 = performance.now();
    await pullPermits(clients[1]!, names[1]!, "0");
    const full = performance.now() - t0;
    let pulls = 0;
    const end = Date.now() + Math.min(SECONDS, 5) * 1000;
    await Promise.all(
      clients.map(async (c, i) => {
        while (Date.now() < end) {
          await pullPermits(c, names[i]!, first.horizon);
          pulls++;
        }
      }),
    );
    await Promise.all(clients.map((c) => c.close()));
    const perSecond = pulls / Math.min(SECONDS, 5);
    say(
      `pulls as ${role} roles: a first pull of ${first.keep.length} permits takes ${fmt(full)}; ${level} sites pulling with nothing new: ` +
        `${Math.round(perSecond)} pulls/s, i.e. ${Math.round(perSecond * 30)} sites at one pull each 30 s`,
    );
  }

  const steadyTimes = await serverTimes(office);
  if (steadyTimes)
    say(`server time per push statement over the steady fleets, site roles vs owner: ${steadyTimes}`);

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
