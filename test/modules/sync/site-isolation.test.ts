import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";
import { addSite } from "../../../src/modules/sync/office/roles.ts";
import { migrateCentral } from "../../../src/modules/sync/office/schema.ts";
import { call } from "../../support/app.ts";
import { cityLot } from "../../support/lots.ts";
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
 * The line between sites at the office: box A's role tries every table and verb against site B's
 * rows, and each attempt is refused or sees nothing. Run against a real PostgreSQL.
 */

const available = postgresAvailable();
let pg: PgServer;
let office: SQL;
let asA: SQL;
const boxes: SiteBox[] = [];

async function box(site: string): Promise<SiteBox> {
  await enrolSite(pg, site);
  const b = siteBox(site);
  boxes.push(b);
  return b;
}

/** Every table holding a site's rows, with a row of site B's to try to write. */
const foreign = {
  sites: "INSERT INTO parkd.sites (site, box_id) VALUES ('iso-b', gen_random_uuid())",
  events: `INSERT INTO parkd.events (site, seq, ticket_id, event_type, received_at, credential, outcome, raw_body)
    VALUES ('iso-b', 9999, 'forged', 'TicketCreated', now(), 'token:x', 'applied', '{}')`,
  tickets: `INSERT INTO parkd.tickets (site, ticket_id, zone, lot_unknown, start_at, plate, plate_norm, status,
    created_at, updated_at, last_seq) VALUES ('iso-b', 'forged', 1, false, now(), 'X', 'X', 'running', now(), now(), 1)`,
  lots: `INSERT INTO parkd.lots (site, lot_id, name, number_of_spaces, zone_number, max_time, max_fee, active, fees,
    variable_fees, opening_hours, locations, created_at, updated_at, updated_by)
    VALUES ('iso-b', 77, 'forged', 1, 1, 0, 0, true, '[]', '[]', '[]', '[]', now(), now(), 'x')`,
  lookups: `INSERT INTO parkd.lookups (site, id, at, credential, by, query, results)
    VALUES ('iso-b', 9999, now(), 'token:x', 'zone', '1', 0)`,
} as const;
const tables = Object.keys(foreign) as (keyof typeof foreign)[];

/** A fingerprint of everything the office holds for site B, to show it unchanged. */
async function siteB(): Promise<string> {
  const parts: unknown[] = [];
  for (const t of tables)
    parts.push(await office.unsafe(`SELECT * FROM parkd.${t} WHERE site = 'iso-b' ORDER BY 1, 2`));
  return JSON.stringify(parts);
}

beforeAll(async () => {
  if (!available) return;
  pg = await startPostgres();
  office = officeSql(pg);
  await migrateCentral(office);
  const a = await box("iso-a");
  const b = await box("iso-b");
  for (const x of [a, b]) {
    for (let i = 0; i < 4; i++) await x.create(`${x.site}-${i}`);
    expect((await call(x.app, "POST", "/api/v1/parkings", { token: x.admin, body: cityLot() })).status).toBe(
      201,
    );
    await call(x.app, "GET", "/api/v1/attendants/check-tickets?registration_number=abc1", {
      token: x.reader,
    });
    x.lookupRecorder.flush();
    const s = x.sync(pg);
    await s.pushAll();
    await s.stop();
  }
  await office`INSERT INTO parkd.permits (plate, zone, start_at, sites) VALUES
    ('ALL 1', 1, now(), NULL), ('ONLY A', 1, now(), ARRAY['iso-a']), ('ONLY B', 1, now(), ARRAY['iso-b'])`;
  const target = siteTarget(pg, "iso-a");
  asA = new SQL(target.url, { password: target.password, max: 1 });
}, 60_000);

afterAll(async () => {
  for (const b of boxes) removeBox(b);
  await asA?.close({ timeout: 1 }).catch(() => {});
  await office?.close({ timeout: 1 }).catch(() => {});
  await pg?.destroy();
}, 30_000);

// `available` throws under CI=true when PostgreSQL is missing: only a laptop without it skips.
describe.skipIf(!available)("one site's role against another site's rows", () => {
  test("both sites are at the office (what the rest of this file tries to reach)", async () => {
    for (const t of tables) {
      const [n] = await office.unsafe(`SELECT count(*)::int AS n FROM parkd.${t} WHERE site = 'iso-b'`);
      expect({ t, n: n.n > 0 }).toEqual({ t, n: true });
    }
  });

  test("SELECT: box A sees its own rows and none of B's, in every table", async () => {
    for (const t of tables) {
      const rows = await asA.unsafe(`SELECT DISTINCT site FROM parkd.${t}`);
      expect({ t, sites: rows.map((r: { site: string }) => r.site) }).toEqual({ t, sites: ["iso-a"] });
      const [b] = await asA.unsafe(`SELECT count(*)::int AS n FROM parkd.${t} WHERE site = 'iso-b'`);
      expect({ t, n: b.n }).toEqual({ t, n: 0 });
    }
    // Nor B's box_id, nor which role is whose.
    expect(await asA`SELECT box_id FROM parkd.sites WHERE site = 'iso-b'`).toEqual([]);
    expect((await asA`SELECT site FROM parkd.site_roles`).map((r: { site: string }) => r.site)).toEqual([
      "iso-a",
    ]);
  });

  test("INSERT under B's site id is refused in every table", async () => {
    const before = await siteB();
    for (const t of tables)
      await expect(asA.unsafe(foreign[t])).rejects.toThrow(/row-level security|permission denied/);
    // An upsert that would take B's row over on conflict.
    await expect(
      asA`INSERT INTO parkd.sites (site, box_id) VALUES ('iso-b', gen_random_uuid())
        ON CONFLICT (site) DO UPDATE SET box_id = excluded.box_id`,
    ).rejects.toThrow(/row-level security/);
    expect(await siteB()).toBe(before);
  });

  test("UPDATE of B's rows changes nothing; events and lookups take no UPDATE at all", async () => {
    const before = await siteB();
    const stolen = crypto.randomUUID();
    const takeover = await asA.unsafe(`UPDATE parkd.sites SET box_id = '${stolen}' WHERE site = 'iso-b'`);
    expect(takeover.count).toBe(0);
    expect((await asA`UPDATE parkd.tickets SET status = 'canceled' WHERE site = 'iso-b'`).count).toBe(0);
    expect((await asA`UPDATE parkd.lots SET name = 'x' WHERE site = 'iso-b'`).count).toBe(0);
    for (const t of ["events", "lookups"])
      await expect(asA.unsafe(`UPDATE parkd.${t} SET site = site`)).rejects.toThrow(/permission denied/);
    // Its own rows cannot be moved over to B either.
    await expect(asA`UPDATE parkd.tickets SET site = 'iso-b' WHERE site = 'iso-a'`).rejects.toThrow(
      /row-level security/,
    );
    await expect(asA`UPDATE parkd.sites SET site = 'iso-b'`).rejects.toThrow(/permission denied/);
    expect(await siteB()).toBe(before);
  });

  test("DELETE, TRUNCATE and schema changes are refused", async () => {
    const before = await siteB();
    for (const t of tables) {
      await expect(asA.unsafe(`DELETE FROM parkd.${t} WHERE site = 'iso-b'`)).rejects.toThrow(
        /permission denied/,
      );
      await expect(asA.unsafe(`TRUNCATE parkd.${t} CASCADE`)).rejects.toThrow(/permission denied/);
      await expect(asA.unsafe(`ALTER TABLE parkd.${t} DISABLE ROW LEVEL SECURITY`)).rejects.toThrow(
        /must be owner/,
      );
    }
    await expect(
      asA`INSERT INTO parkd.site_roles (site, role_name) VALUES ('iso-b', current_user)`,
    ).rejects.toThrow(/permission denied/);
    await expect(asA`UPDATE parkd.site_roles SET site = 'iso-b'`).rejects.toThrow(/permission denied/);
    await expect(asA`SET ROLE "parkd_site_iso-b"`).rejects.toThrow(/permission denied/);
    expect(await siteB()).toBe(before);
  });

  test("permits: A reads the ones for every site and its own, writes none", async () => {
    const plates = (await asA`SELECT plate FROM parkd.permits ORDER BY plate`).map(
      (r: { plate: string }) => r.plate,
    );
    expect(plates).toEqual(["ALL 1", "ONLY A"]);
    await expect(
      asA`INSERT INTO parkd.permits (plate, zone, start_at) VALUES ('MINE', 1, now())`,
    ).rejects.toThrow(/permission denied/);
    await expect(asA`UPDATE parkd.permits SET sites = NULL`).rejects.toThrow(/permission denied/);
  });

  test("a box whose role is not its --site's is refused with a clear message", async () => {
    const b = boxes.find((x) => x.site === "iso-b")!;
    const wrong = b.sync(pg, { target: siteTarget(pg, "iso-a") });
    await expect(wrong.pushOnce()).rejects.toThrow(
      'the office role "parkd_site_iso-a" is site "iso-a"\'s, but this box runs with --site iso-b',
    );
    await expect(wrong.pullOnce()).rejects.toThrow(/is site "iso-a"'s/);
    const owner = b.sync(pg, { target: { url: pg.url, password: pg.password } });
    await expect(owner.pushOnce()).rejects.toThrow(
      /is not a site's role: run `parkd central add-site iso-b`/,
    );
    // Run as a loop, the message is what /readyz shows.
    wrong.start();
    await eventually(() => (wrong.status().lastError ?? "").includes("--site iso-b"));
    await wrong.stop();
  });

  test("an office database without the parkd schema: push and pull say the same, and what to do", async () => {
    await office.unsafe("CREATE DATABASE no_schema");
    const b = boxes.find((x) => x.site === "iso-a")!;
    const target = siteTarget(pg, "iso-a");
    const empty = b.sync(pg, { target: { ...target, url: target.url.replace(/\/postgres$/, "/no_schema") } });
    const message = "the central database has no parkd schema: run `parkd central init` against it";
    await expect(empty.pushOnce()).rejects.toThrow(message);
    await expect(empty.pullOnce()).rejects.toThrow(message);
    // The loops, as serve runs them: whichever failed last, /readyz shows that message.
    empty.start();
    await eventually(() => empty.status().errors.pull > 1 && empty.status().errors.push > 1);
    await empty.stop();
    expect(empty.status().lastError).toBe(message);
  });

  test("add-site again sets the role's password; a role it did not make is left alone", async () => {
    const again = await addSite(office, "iso-a", "a-new-password-for-site-a");
    expect(again).toEqual({ site: "iso-a", role: "parkd_site_iso-a", created: false });
    const target = siteTarget(pg, "iso-a");
    const fresh = new SQL(target.url, { password: "a-new-password-for-site-a", max: 1 });
    try {
      expect((await fresh`SELECT parkd.box_site() AS s`)[0].s).toBe("iso-a");
    } finally {
      await fresh.close();
    }
    await addSite(office, "iso-a", target.password);
    await office.unsafe('CREATE ROLE "parkd_site_stray" LOGIN');
    await expect(addSite(office, "stray", "a-password-of-16-chars")).rejects.toThrow(/belongs to no site/);
  });
});

describe.skipIf(!available)("an office at schema version 1", () => {
  test("is migrated by the next file: the old shared box role loses everything, site roles work", async () => {
    const old = await startPostgres();
    const owner = officeSql(old);
    try {
      const v1 = readFileSync(join(import.meta.dir, "../../../db/central/0001_initial.sql"), "utf8");
      await owner.begin(async (tx) => {
        await tx.unsafe(v1);
        await tx.unsafe(`CREATE TABLE parkd.schema_migrations (version integer PRIMARY KEY, name text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now());
          INSERT INTO parkd.schema_migrations (version, name) VALUES (1, 'initial');
          INSERT INTO parkd.sites (site) VALUES ('legacy');
          CREATE ROLE parkd_box LOGIN PASSWORD 'old-shared-secret';
          GRANT USAGE ON SCHEMA parkd TO parkd_box;
          GRANT SELECT, INSERT, UPDATE ON parkd.sites, parkd.events, parkd.tickets, parkd.lots, parkd.lookups
            TO parkd_box;`);
      });
      const r = await migrateCentral(owner);
      expect(r.from).toBe(1);
      expect(r.applied[0]).toBe("0002_site_roles");
      const shared = new SQL(old.url.replace("parkd_office@", "parkd_box@"), {
        password: "old-shared-secret",
        max: 1,
      });
      try {
        await expect(shared`SELECT * FROM parkd.sites`).rejects.toThrow(/permission denied/);
      } finally {
        await shared.close();
      }
      await enrolSite(old, "legacy");
      const legacy = siteBox("legacy");
      boxes.push(legacy);
      await legacy.create("l-1");
      expect(await legacy.sync(old).pushAll()).toBe(1);
    } finally {
      await owner.close({ timeout: 1 });
      await old.destroy();
    }
  }, 60_000);
});
