import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { pushBatch } from "../../../src/modules/sync/office/pushes.ts";
import { CENTRAL_SCHEMA_VERSION, migrateCentral } from "../../../src/modules/sync/office/schema.ts";
import { TicketSyncRecords } from "../../../src/platform/store/tickets/sync.ts";
import { type PgServer, postgresAvailable, startPostgres } from "../../support/postgres.ts";
import {
  enrolSite,
  eventually,
  officeSql,
  removeBox,
  type SiteBox,
  siteBox,
  siteTarget,
} from "../../support/sync.ts";

/**
 * Boxes syncing with a real PostgreSQL server (started here on a free loopback port, stopped
 * after): pushes, idempotence, an outage mid-push, a restart mid-sync, permits from the office.
 */

const available = postgresAvailable();
let pg: PgServer;
let office: SQL;
const boxes: SiteBox[] = [];
/** A site's box whose sync logs in as the site's own role (made here as add-site makes it). */
const box = async (site: string, dir?: string) => {
  await enrolSite(pg, site);
  const b = siteBox(site, dir);
  boxes.push(b);
  return b;
};

beforeAll(async () => {
  if (!available) return;
  pg = await startPostgres();
  office = officeSql(pg);
  await migrateCentral(office);
}, 60_000);

afterAll(async () => {
  for (const b of boxes) removeBox(b);
  await office?.close({ timeout: 1 }).catch(() => {});
  await pg?.destroy();
}, 30_000);

const count = async (q: string, ...params: unknown[]) => Number((await office.unsafe(q, params))[0].n);

// `available` throws under CI=true when PostgreSQL is missing: only a laptop without it skips.
describe.skipIf(!available)("central sync against a real PostgreSQL", () => {
  test("central init is idempotent and records its version", async () => {
    const again = await migrateCentral(office);
    expect(again.applied).toEqual([]);
    expect(again.to).toBe(CENTRAL_SCHEMA_VERSION);
    expect(await count("SELECT count(*) AS n FROM parkd.schema_migrations")).toBe(CENTRAL_SCHEMA_VERSION);
  }, 60_000);

  test("two boxes push their events, tickets, lots and lookups to one office, each under its site", async () => {
    const a = await box("north");
    const b = await box("south");
    for (let i = 0; i < 30; i++) await a.create(`n-${i}`);
    for (let i = 0; i < 12; i++) await b.create(`s-${i}`);
    await a.post({
      eventType: "TicketStopped",
      ticketId: "n-3",
      zoneCode: "1234",
      parkingLotId: null,
      startDate: "2026-06-15T10:00:00+02:00",
      endDate: "2026-06-15T11:00:00+02:00",
      licenseNumber: "Pn-3",
      ticketCost: { amountInclVat: 2000, vatRate: 25, currencyCode: "SEK" },
    });
    const lot = await import("../../support/lots.ts").then((m) => m.cityLot());
    const { call } = await import("../../support/app.ts");
    expect((await call(a.app, "POST", "/api/v1/parkings", { token: a.admin, body: lot })).status).toBe(201);
    expect(
      (
        await call(b.app, "GET", "/api/v1/attendants/check-tickets?registration_number=ps-1", {
          token: b.reader,
        })
      ).status,
    ).toBe(200);

    const sa = a.sync(pg, { batchSize: 7 });
    const sb = b.sync(pg, { batchSize: 7 });
    // Lookup records are written to the store about once a second.
    await eventually(
      () =>
        (b.ctx.store.sqlite.query("SELECT count(*) AS n FROM permit_lookups").get() as { n: number }).n > 0,
    );
    expect(await Promise.all([sa.pushAll(), sb.pushAll()])).toEqual([31, 12]);

    expect(await count("SELECT count(*) AS n FROM parkd.events WHERE site = 'north'")).toBe(31);
    expect(await count("SELECT count(*) AS n FROM parkd.events WHERE site = 'south'")).toBe(12);
    expect(await count("SELECT count(*) AS n FROM parkd.tickets WHERE site = 'north'")).toBe(30);
    expect(await count("SELECT count(*) AS n FROM parkd.tickets WHERE site = 'south'")).toBe(12);
    const [stopped] =
      await office`SELECT status, end_at, last_seq::int AS last_seq, amount_incl_vat::int AS amount
      FROM parkd.tickets WHERE site = 'north' AND ticket_id = 'n-3'`;
    expect(stopped).toMatchObject({ status: "stopped", last_seq: 31, amount: 2000 });
    expect((stopped.end_at as Date).toISOString()).toBe("2026-06-15T09:00:00.000Z");
    const [lotRow] =
      await office`SELECT name, zone_number, removed_at, fees FROM parkd.lots WHERE site = 'north'`;
    expect(lotRow).toMatchObject({ name: "Centrum P-hus", zone_number: 1234, removed_at: null });
    expect(lotRow.fees).toHaveLength(3);
    expect(await count("SELECT count(*) AS n FROM parkd.lookups WHERE site = 'south'")).toBe(1);
    const sites = await office`SELECT site, pushed_seq::int AS pushed_seq FROM parkd.sites ORDER BY site`;
    expect(sites).toEqual([
      { site: "north", pushed_seq: 31 },
      { site: "south", pushed_seq: 12 },
    ]);
    // Caught up: nothing waits, and a further push sends nothing.
    expect(sa.status().pendingEvents).toBe(0);
    expect(await sa.pushAll()).toBe(0);
  }, 60_000);

  test("a batch sent twice, or an old state after a newer one, changes nothing", async () => {
    const a = await box("twice");
    for (let i = 0; i < 5; i++) await a.create(`t-${i}`);
    const s = a.sync(pg);
    await s.pushAll();
    const before = await office`SELECT * FROM parkd.tickets WHERE site = 'twice' ORDER BY ticket_id`;
    const events =
      await office`SELECT site, seq, ticket_id, raw_body FROM parkd.events WHERE site = 'twice' ORDER BY seq`;
    // As after a crash between the office's commit and the box storing its cursor.
    a.ctx.store.syncCursors.set({ events: "0" }, Date.now());
    const again = a.sync(pg);
    expect(await again.pushAll()).toBe(5);
    expect(await office`SELECT * FROM parkd.tickets WHERE site = 'twice' ORDER BY ticket_id`).toEqual(before);
    expect(
      await office`SELECT site, seq, ticket_id, raw_body FROM parkd.events WHERE site = 'twice' ORDER BY seq`,
    ).toEqual(events);

    // A state older than the stored one (as from a batch delayed behind a newer one) is ignored.
    const current = new TicketSyncRecords(a.ctx.store.sqlite).synced("t-0")!;
    const stale = { ...current, status: "canceled" as const, plate: "OLD", lastSeq: current.lastSeq - 1 };
    const boxId = a.ctx.store.syncCursors.get("box")!;
    await pushBatch(
      office,
      { site: "twice", boxId, version: "test" },
      {
        events: [],
        tickets: [stale],
        lookups: [],
        lots: null,
        notices: [],
        observations: [],
        after: { events: 0, lookups: 0, notices: 0, observations: 0 },
      },
    );
    expect(await office`SELECT * FROM parkd.tickets WHERE site = 'twice' ORDER BY ticket_id`).toEqual(before);
    // A newer one replaces it.
    await a.post({ eventType: "TicketCanceled", ticketId: "t-0" });
    await again.pushAll();
    const [row] = await office`SELECT status, last_seq::int AS last_seq FROM parkd.tickets
      WHERE site = 'twice' AND ticket_id = 't-0'`;
    expect(row).toEqual({ status: "canceled", last_seq: 6 });
  }, 60_000);

  test("an outage mid-push: nothing is lost or doubled once the office is back", async () => {
    const a = await box("outage");
    for (let i = 0; i < 200; i++) await a.create(`o-${i}`);
    const s = a.sync(pg, { batchSize: 5, idleMs: 20 });
    s.start();
    let atKill = 0;
    try {
      await eventually(
        async () => (await count("SELECT count(*) AS n FROM parkd.events WHERE site = 'outage'")) > 0,
        15_000,
      );
      await pg.stop("immediate");
      atKill = s.status().pushed.events;
      // The box keeps taking events while the office is away.
      for (let i = 200; i < 260; i++) await a.create(`o-${i}`);
      await eventually(() => s.status().errors.push > 0);
      expect(s.status().pendingEvents).toBeGreaterThan(0);
      expect(s.status().reachable).toBe(false);
      await pg.start();
      await eventually(() => s.status().pendingEvents === 0, 30_000);
    } finally {
      await s.stop();
    }
    const rows = await office`SELECT seq::int AS seq FROM parkd.events WHERE site = 'outage' ORDER BY seq`;
    const local = a.ctx.store.sqlite.query("SELECT seq FROM ticket_events ORDER BY seq").all() as {
      seq: number;
    }[];
    expect(rows.map((r: { seq: number }) => r.seq)).toEqual(local.map((r) => r.seq));
    expect(await count("SELECT count(*) AS n FROM parkd.tickets WHERE site = 'outage'")).toBe(260);
    expect(s.status().lastError).not.toBeNull();
    // The server went away with most of the backlog still to send.
    expect(atKill).toBeLessThan(200);
  }, 60_000);

  test("a box restarted mid-sync resumes from its cursor", async () => {
    const first = await box("restart");
    for (let i = 0; i < 50; i++) await first.create(`r-${i}`);
    const s1 = first.sync(pg, { batchSize: 10 });
    // Two rounds, then the process stops.
    expect(await s1.pushOnce()).toBe(true);
    expect(await s1.pushOnce()).toBe(true);
    await s1.stop();
    const sent = await count("SELECT count(*) AS n FROM parkd.events WHERE site = 'restart'");
    expect(sent).toBe(20);
    first.close();

    const again = await box("restart", first.dir);
    for (let i = 50; i < 60; i++) await again.create(`r-${i}`);
    const s2 = again.sync(pg, { batchSize: 10 });
    // Only what the office did not have yet goes.
    expect(await s2.pushAll()).toBe(60 - sent);
    expect(await count("SELECT count(*) AS n FROM parkd.events WHERE site = 'restart'")).toBe(60);
  }, 60_000);

  test("permits issued at the office reach the boxes they are valid for, and leave when deleted", async () => {
    const a = await box("east");
    const b = await box("west");
    const [all] = await office`INSERT INTO parkd.permits (plate, zone, start_at, end_at, note)
      VALUES ('MON 001', 1234, now() - interval '1 day', now() + interval '30 days', 'monthly') RETURNING id::int AS id`;
    const [eastOnly] = await office`INSERT INTO parkd.permits (plate, zone, start_at, sites, days)
      VALUES ('STAFF 9', 1234, '2026-06-01T00:00:00Z', ARRAY['east'],
        '[{"weekday": 1, "start_time": "07:00:00", "end_time": "18:00:00"}]') RETURNING id::int AS id`;
    // Ended weeks ago: never listed again, so not kept.
    await office`INSERT INTO parkd.permits (plate, zone, start_at, end_at)
      VALUES ('OLD 1', 1234, now() - interval '60 days', now() - interval '30 days')`;
    const sa = a.sync(pg);
    const sb = b.sync(pg);
    await Promise.all([sa.pullOnce(), sb.pullOnce()]);
    const held = (x: SiteBox) =>
      x.ctx.store.sqlite.query("SELECT id, plate_norm AS p, days FROM central_permits ORDER BY id").all();
    expect(held(a)).toEqual([
      { id: all.id, p: "MON001", days: null },
      { id: eastOnly.id, p: "STAFF9", days: '[{"weekday":1,"start_time":"07:00:00","end_time":"18:00:00"}]' },
    ]);
    expect(held(b)).toEqual([{ id: all.id, p: "MON001", days: null }]);

    // Moved to the west only, and the monthly one deleted.
    await office`UPDATE parkd.permits SET sites = ARRAY['west'] WHERE id = ${eastOnly.id}`;
    await office`DELETE FROM parkd.permits WHERE id = ${all.id}`;
    await Promise.all([sa.pullOnce(), sb.pullOnce()]);
    expect(held(a)).toEqual([]);
    expect(held(b)).toEqual([
      { id: eastOnly.id, p: "STAFF9", days: '[{"weekday":1,"start_time":"07:00:00","end_time":"18:00:00"}]' },
    ]);
    // The office loses the link: the box keeps what it pulled.
    const before = held(b);
    const lost = b.sync(
      { ...pg, url: `postgres://nobody@127.0.0.1:1/none`, password: "x" },
      { timeoutMs: 3000 },
    );
    await expect(lost.pullOnce()).rejects.toThrow();
    expect(held(b)).toEqual(before);
  }, 60_000);

  test("a box runs with its site's role: lots removed at the box are marked, permits stay the office's", async () => {
    const a = await box("narrow");
    for (let i = 0; i < 3; i++) await a.create(`nr-${i}`);
    const lot = (await import("../../support/lots.ts")).cityLot();
    const { call } = await import("../../support/app.ts");
    expect((await call(a.app, "POST", "/api/v1/parkings", { token: a.admin, body: lot })).status).toBe(201);
    const s = a.sync(pg);
    expect(await s.pushAll()).toBe(3);
    await s.pullOnce();
    // The lot deleted at the box is marked removed at the office.
    expect((await call(a.app, "DELETE", "/api/v1/parkings/1", { token: a.admin })).status).toBeLessThan(300);
    await s.pushAll();
    const [row] =
      await office`SELECT removed_at IS NOT NULL AS removed FROM parkd.lots WHERE site = 'narrow'`;
    expect(row.removed).toBe(true);
    const [site] = await office`SELECT time_zone FROM parkd.sites WHERE site = 'narrow'`;
    expect(site.time_zone).toBe("Europe/Stockholm");
    // And it cannot touch the office's permits.
    const target = siteTarget(pg, "narrow");
    const own = new SQL(target.url, { password: target.password, max: 1 });
    try {
      await expect(own`DELETE FROM parkd.permits`).rejects.toThrow(/permission denied/);
    } finally {
      await own.close();
    }
  }, 60_000);

  test("a second box given a site id another box holds is refused, and changes nothing there", async () => {
    const first = await box("shared");
    const second = await box("shared");
    await first.create("mine-1");
    await second.create("theirs-1");
    expect(await first.sync(pg).pushAll()).toBe(1);
    const other = second.sync(pg);
    await expect(other.pushAll()).rejects.toThrow(/held at the office by another box/);
    // The loop keeps trying with backoff and says why, on /readyz and /metrics.
    other.start();
    await eventually(() => (other.status().lastError ?? "").includes("another box"));
    await other.stop();
    expect(other.status().pendingEvents).toBe(1);
    const rows = await office`SELECT ticket_id FROM parkd.events WHERE site = 'shared'`;
    expect(rows).toEqual([{ ticket_id: "mine-1" }]);
  }, 60_000);

  test("a box restored from an older backup: new events do not reuse seqs the office holds", async () => {
    const a = await box("restored");
    for (let i = 0; i < 5; i++) await a.create(`before-${i}`);
    const { call } = await import("../../support/app.ts");
    const lookup = async () => {
      await call(a.app, "GET", "/api/v1/attendants/check-tickets?registration_number=x1", {
        token: a.reader,
      });
      a.lookupRecorder.flush();
    };
    await lookup();
    const s = a.sync(pg);
    expect(await s.pushAll()).toBe(5);
    // As a restore of a backup taken after the second event leaves the store: the last three
    // events and their tickets gone, the sequence and the cursor back where they were.
    const db = a.ctx.store.sqlite;
    db.run("DELETE FROM ticket_events WHERE seq > 2");
    db.run("DELETE FROM tickets WHERE ticket_id NOT IN ('before-0', 'before-1')");
    db.run("UPDATE sqlite_sequence SET seq = 2 WHERE name = 'ticket_events'");
    // Nor any lookup record: the office's one (id 1) must not be taken for the next.
    db.run("DELETE FROM permit_lookups");
    db.run("DELETE FROM sqlite_sequence WHERE name = 'permit_lookups'");
    a.ctx.store.syncCursors.set({ events: "2" }, Date.now());
    const again = a.sync(pg);
    await again.pushAll();
    for (let i = 0; i < 2; i++) await a.create(`after-${i}`);
    await lookup();
    expect(await again.pushAll()).toBe(2);
    const lookups = await office`SELECT id::int AS id FROM parkd.lookups WHERE site = 'restored' ORDER BY id`;
    expect(lookups).toEqual([{ id: 1 }, { id: 2 }]);
    const rows =
      await office`SELECT seq::int AS seq, ticket_id FROM parkd.events WHERE site = 'restored' ORDER BY seq`;
    expect(rows.map((r: { ticket_id: string }) => r.ticket_id)).toEqual([
      "before-0",
      "before-1",
      "before-2",
      "before-3",
      "before-4",
      "after-0",
      "after-1",
    ]);
  }, 60_000);
});

describe.skipIf(!available)("an office that comes back", () => {
  test("a box resumes within 10 s of PostgreSQL's return (probes every 5 s once failed)", async () => {
    const b = await box("resume");
    await b.create("before-outage");
    // The default probe (5 s), not the tests' short one.
    const s = b.sync(pg, { retryMs: undefined });
    s.start();
    await eventually(() => s.status().pushed.events === 1);
    await pg.stop("fast");
    await b.create("during-outage");
    await eventually(() => s.status().errors.push > 0, 30_000);
    // Down for a while, as an outage is: past where a doubling backoff would have grown.
    await Bun.sleep(12_000);
    await pg.start();
    const back = Date.now();
    await eventually(() => s.status().pushed.events === 2, 30_000);
    const resumedAfterMs = Date.now() - back;
    await s.stop();
    process.stderr.write(`resumed ${resumedAfterMs} ms after the office was back\n`);
    expect(resumedAfterMs).toBeLessThan(10_000);
  }, 90_000);
});
