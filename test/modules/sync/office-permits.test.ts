import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SQL } from "bun";
import { migrateCentral } from "../../../src/modules/sync/office/schema.ts";
import { call } from "../../support/app.ts";
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
 * Permits issued at the office, as the attendants' lookups serve them at each box: started
 * through the context as `serve --central` starts it, pulling on a short interval here.
 */

const available = postgresAvailable();
let pg: PgServer;
let office: SQL;
const boxes: SiteBox[] = [];

beforeAll(async () => {
  if (!available) return;
  pg = await startPostgres();
  office = officeSql(pg);
  await migrateCentral(office);
}, 60_000);

afterAll(async () => {
  for (const b of boxes) {
    await b.ctx.stop();
    removeBox(b);
  }
  await office?.close({ timeout: 1 }).catch(() => {});
  await pg?.destroy();
}, 30_000);

async function box(site: string): Promise<SiteBox> {
  await enrolSite(pg, site);
  const b = siteBox(site);
  boxes.push(b);
  return b;
}

const connect = (b: SiteBox) =>
  b.office.connect(
    { target: siteTarget(pg, b.site), site: b.site },
    { pullIntervalMs: 100, idleMs: 50, retryMs: 100 },
  );

const byPlate = async (b: SiteBox, plate: string) =>
  (
    await call(b.app, "GET", `/api/v1/attendants/check-tickets?registration_number=${plate}`, {
      token: b.reader,
    })
  ).json as { registration_number: string; note: string; active: boolean }[];
const zoneList = async (b: SiteBox, zone: number) =>
  (await call(b.app, "GET", `/api/v1/tickets/zone/${zone}`, { token: b.reader })).json.data as string[];
const byZone = async (b: SiteBox, zone: number) =>
  (await call(b.app, "GET", `/api/v1/attendants/check-tickets?zone=${zone}`, { token: b.reader })).json as {
    registration_number: string;
  }[];

// `available` throws under CI=true when PostgreSQL is missing: only a laptop without it skips.
describe.skipIf(!available)("office permits in the boxes' lookups", () => {
  test("a permit issued once at the office shows at both boxes beside their own; a site-only one at its site", async () => {
    const north = await box("lk-north");
    const south = await box("lk-south");
    const start = new Date(Date.now() - 3_600_000).toISOString();
    const end = new Date(Date.now() + 30 * 86_400_000).toISOString();
    // A permit of the north box's own, which the office never sees as a permit.
    const own = await call(north.app, "POST", "/api/v1/permits", {
      token: north.admin,
      body: { registration_number: "OWN 1", zone: 777, start_at: start, end_at: end, note: "resident" },
    });
    expect(own.status).toBe(201);

    // Before either box ever reached the office: own permits only.
    expect((await byPlate(north, "MONTH1")).length).toBe(0);
    expect(await zoneList(north, 777)).toEqual(["OWN 1"]);

    await office`INSERT INTO parkd.permits (plate, zone, start_at, end_at, note)
      VALUES ('MONTH 1', 777, ${start}, ${end}, 'monthly, every site')`;
    await office`INSERT INTO parkd.permits (plate, zone, start_at, end_at, note, sites)
      VALUES ('STAFF 2', 777, ${start}, ${end}, 'staff', ARRAY['lk-south'])`;
    // The zone answers are cached: the first lookup above built and kept them.
    expect(await zoneList(south, 777)).toEqual([]);

    connect(north);
    connect(south);
    await eventually(
      async () => (await zoneList(north, 777)).length === 2 && (await zoneList(south, 777)).length === 2,
    );
    expect(await zoneList(north, 777)).toEqual(["MONTH 1", "OWN 1"]);
    expect(await zoneList(south, 777)).toEqual(["MONTH 1", "STAFF 2"]);
    const found = await byPlate(south, "month-1");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      registration_number: "MONTH 1",
      note: "monthly, every site",
      active: true,
    });
    expect((await byZone(north, 777)).map((p) => p.registration_number).sort()).toEqual(["MONTH 1", "OWN 1"]);

    // Ended at the office: gone from both within a pull.
    await office`UPDATE parkd.permits SET end_at = start_at + interval '1 minute' WHERE plate = 'MONTH 1'`;
    await eventually(async () => !(await zoneList(north, 777)).includes("MONTH 1"));
    await eventually(async () => !(await zoneList(south, 777)).includes("MONTH 1"));
  }, 60_000);

  test("readyz shows the office link; it stays ready while the office is away, and the box keeps its permits", async () => {
    const b = await box("lk-ready");
    const start = new Date(Date.now() - 3_600_000).toISOString();
    await office`INSERT INTO parkd.permits (plate, zone, start_at, note) VALUES ('KEEP 1', 888, ${start}, 'kept')`;
    connect(b);
    await b.create("r-1");
    await eventually(async () => {
      const r = await call(b.app, "GET", "/readyz");
      return r.json.sync?.pending_events === 0 && r.json.sync?.central_permits >= 1;
    });
    const ok = await call(b.app, "GET", "/readyz");
    expect(ok.status).toBe(200);
    expect(ok.json.sync).toMatchObject({ site: "lk-ready", reachable: true, last_error: null });
    expect(ok.json.sync.central).not.toContain(pg.password);
    expect(Date.parse(ok.json.sync.last_pull_at)).toBeGreaterThan(0);
    // The console's status page shows the same.
    const status = await call(b.app, "GET", "/api/v1/status", { token: b.admin });
    expect(status.json.data.office).toMatchObject({ site: "lk-ready", reachable: true, pending_events: 0 });

    await pg.stop("immediate");
    try {
      await b.create("r-2");
      await eventually(async () => (await call(b.app, "GET", "/readyz")).json.sync.reachable === false);
      const away = await call(b.app, "GET", "/readyz");
      expect(away.status).toBe(200);
      expect(away.json.sync.pending_events).toBe(1);
      expect(away.json.sync.last_error).toBeString();
      expect(await zoneList(b, 888)).toEqual(["KEEP 1"]);
      const metrics = await call(b.app, "GET", "/metrics", { token: b.admin });
      expect(metrics.text).toContain('parkd_sync_pending_events{site="lk-ready"} 1');
      expect(metrics.text).toContain('parkd_sync_up{site="lk-ready"} 0');
    } finally {
      await pg.start();
    }
    await eventually(
      async () => (await call(b.app, "GET", "/readyz")).json.sync.pending_events === 0,
      30_000,
    );
  }, 60_000);
});
