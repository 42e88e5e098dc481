import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { SQL } from "bun";
import { pushBatch } from "../../../src/modules/sync/office/pushes.ts";
import { migrateCentral } from "../../../src/modules/sync/office/schema.ts";
import { call, testClock } from "../../support/app.ts";
import { cityLot } from "../../support/lots.ts";
import { pngPhoto } from "../../support/photos.ts";
import { type PgServer, postgresAvailable, startPostgres } from "../../support/postgres.ts";
import { enrolSite, officeSql, removeBox, type SiteBox, siteBox, siteTarget } from "../../support/sync.ts";

/**
 * Control notices, their photo files and the timed observations at the office
 * (db/central/0004_notices.sql): pushed with the other rows, under the same line between sites,
 * idempotent when sent again, the files after the rows in bounded pushes, and the reporting
 * role's notices per day, reason and site. Run against a real PostgreSQL.
 */

const available = postgresAvailable();
let pg: PgServer;
let office: SQL;
let reporting: SQL;
let asB: SQL;
const boxes: SiteBox[] = [];
// 23:00 in Stockholm on the 15th; 22:30 UTC is already the 16th there.
const clock = testClock("2026-06-15T21:00:00Z");

interface NoticeBox extends SiteBox {
  handheld: string;
}

async function noticeBox(site: string): Promise<NoticeBox> {
  await enrolSite(pg, site);
  const b = siteBox(site, undefined, clock.now);
  boxes.push(b);
  const handheld = b.credentials.createToken({
    name: `handheld-${crypto.randomUUID()}`,
    scopes: ["permits:read", "notices:write"],
  }).token;
  expect((await call(b.app, "POST", "/api/v1/parkings", { token: b.admin, body: cityLot() })).status).toBe(
    201,
  );
  for (const [code, amount] of [
    ["no-permit", 50_000],
    ["over-time", 30_000],
  ] as const) {
    const r = await call(b.app, "POST", "/api/v1/notice-reasons", {
      token: b.admin,
      body: { code, title: `Reason ${code}`, amount },
    });
    expect(r.status).toBe(201);
  }
  return { ...b, handheld };
}

async function issue(b: NoticeBox, id: string, reason: string, plate = `N ${id}`): Promise<number> {
  const r = await call(b.app, "POST", "/api/v1/attendants/notices", {
    token: b.handheld,
    body: {
      id,
      registration_number: plate,
      zone: 1234,
      verdict: "none",
      reason,
      note: "",
      observed_at: new Date(clock.now() - 60_000).toISOString(),
    },
  });
  if (r.status !== 201) throw new Error(`notice refused: ${r.status} ${r.text}`);
  return r.json.data.number;
}

async function photo(b: NoticeBox, id: string, bytes: Uint8Array): Promise<string> {
  const res = await b.app.handle(
    new Request(`http://localhost/api/v1/attendants/notices/${id}/photos`, {
      method: "POST",
      headers: { authorization: `Bearer ${b.handheld}`, "content-type": "image/png" },
      body: bytes as Uint8Array<ArrayBuffer>,
    }),
  );
  expect(res.status).toBe(201);
  return createHash("sha256").update(bytes).digest("hex");
}

async function mark(b: NoticeBox, plate: string): Promise<void> {
  const r = await call(b.app, "POST", "/api/v1/attendants/observations", {
    token: b.handheld,
    body: { registration_number: plate, zone: 1234 },
  });
  expect(r.status).toBe(201);
}

/** Everything the office holds for a site in the new tables, pushed_at aside. */
async function held(site: string) {
  return {
    notices: await office`SELECT notice_id, number::int, plate, state, amount::int, photos, sync_seq::int,
        voided_by, void_reason FROM parkd.notices WHERE site = ${site} ORDER BY number`,
    photos: await office`SELECT hash, content_type, size, encode(sha256(data), 'hex') AS digest
        FROM parkd.notice_photos WHERE site = ${site} ORDER BY hash`,
    observations: await office`SELECT id::int, plate, plate_norm, zone, limit_seconds,
        (extract(epoch FROM first_seen_at) * 1000)::bigint::text AS first_seen_ms
        FROM parkd.observations WHERE site = ${site} ORDER BY plate_norm`,
  };
}

const photosNamed = async (site: string) =>
  new Set(
    (
      await office`SELECT DISTINCT p->>'hash' AS hash FROM parkd.notices, jsonb_array_elements(photos) p
        WHERE site = ${site}`
    ).map((r: { hash: string }) => r.hash),
  );
const filesHeld = async (site: string) =>
  (await office`SELECT hash FROM parkd.notice_photos WHERE site = ${site} ORDER BY hash`).map(
    (r: { hash: string }) => r.hash,
  );

let a: NoticeBox;
let b: NoticeBox;
/** The site of the photo budget test, which the gap test goes on with. */
let boxC: NoticeBox;
const photosOfA: string[] = [];

beforeAll(async () => {
  if (!available) return;
  pg = await startPostgres();
  office = officeSql(pg);
  await migrateCentral(office);
  a = await noticeBox("ntc-a");
  b = await noticeBox("ntc-b");
  await issue(a, "notice-a-first", "no-permit");
  photosOfA.push(
    await photo(a, "notice-a-first", pngPhoto(8, 8, 1)),
    await photo(a, "notice-a-first", pngPhoto(8, 8, 2)),
  );
  await issue(a, "notice-a-second", "over-time");
  await mark(a, "OBS 1");
  clock.set("2026-06-15T22:30:00Z");
  await issue(a, "notice-a-third", "no-permit");
  photosOfA.push(await photo(a, "notice-a-third", pngPhoto(8, 8, 3)));
  await issue(b, "notice-b-first", "no-permit");
  await photo(b, "notice-b-first", pngPhoto(8, 8, 9));
  await mark(b, "OBS B");
  for (const x of [a, b]) {
    const s = x.sync(pg);
    await s.pushAll();
    await s.stop();
  }
  await office.unsafe(`CREATE ROLE notice_reader LOGIN PASSWORD 'report-secret' IN ROLE parkd_reporting`);
  reporting = new SQL(pg.url.replace("parkd_office@", "notice_reader@"), {
    password: "report-secret",
    max: 1,
  });
  const target = siteTarget(pg, "ntc-b");
  asB = new SQL(target.url, { password: target.password, max: 1 });
}, 60_000);

afterAll(async () => {
  for (const x of boxes) removeBox(x);
  await asB?.close({ timeout: 1 }).catch(() => {});
  await reporting?.close({ timeout: 1 }).catch(() => {});
  await office?.close({ timeout: 1 }).catch(() => {});
  await pg?.destroy();
}, 30_000);

// `available` throws under CI=true when PostgreSQL is missing: only a laptop without it skips.
describe.skipIf(!available)("notices, photos and marks at the office", () => {
  test("a site's notices, with their photos' records, its photo files and its marks arrive", async () => {
    const h = await held("ntc-a");
    expect(h.notices.map((n: { notice_id: string; number: number }) => [n.notice_id, n.number])).toEqual([
      ["notice-a-first", 1],
      ["notice-a-second", 2],
      ["notice-a-third", 3],
    ]);
    expect(h.notices[0]).toMatchObject({ plate: "N notice-a-first", state: "issued", amount: 50_000 });
    expect(h.notices[0].photos.map((p: { hash: string }) => p.hash).sort()).toEqual(
      photosOfA.slice(0, 2).sort(),
    );
    expect(h.notices[0].photos[0]).toMatchObject({ content_type: "image/png", width: 8, height: 8 });
    // The files themselves, byte for byte (their SHA-256 is their name).
    expect(h.photos.map((p: { hash: string; digest: string }) => p.digest === p.hash)).toEqual([
      true,
      true,
      true,
    ]);
    expect(h.photos.map((p: { hash: string }) => p.hash)).toEqual([...photosOfA].sort());
    expect(h.observations).toEqual([
      {
        id: 1,
        plate: "OBS 1",
        plate_norm: "OBS1",
        zone: 1234,
        limit_seconds: 86_400,
        first_seen_ms: String(Date.parse("2026-06-15T21:00:00Z")),
      },
    ]);
    expect((await held("ntc-b")).notices).toHaveLength(1);
  });

  test("another site's role reads none of them, rows nor photos, and writes none", async () => {
    for (const t of ["notices", "notice_photos", "observations", "notice_number_clashes"]) {
      const [n] = await asB.unsafe(`SELECT count(*)::int AS n FROM parkd.${t} WHERE site = 'ntc-a'`);
      expect({ t, n: n.n }).toEqual({ t, n: 0 });
      const sites = await asB.unsafe(`SELECT DISTINCT site FROM parkd.${t}`);
      expect({ t, sites: sites.map((r: { site: string }) => r.site) }).toEqual({
        t,
        sites: t === "notice_number_clashes" ? [] : ["ntc-b"],
      });
    }
    // Not even a photo whose hash it knows.
    expect(await asB`SELECT data FROM parkd.notice_photos WHERE hash = ${photosOfA[0]!}`).toEqual([]);
    const before = await held("ntc-a");
    await expect(
      asB`INSERT INTO parkd.notice_photos (site, hash, content_type, size, data)
        VALUES ('ntc-a', ${"0".repeat(64)}, 'image/png', 1, '\\x00')`,
    ).rejects.toThrow(/row-level security/);
    await expect(
      asB`INSERT INTO parkd.notices (site, notice_id, number, plate, plate_norm, zone, verdict, reason_code,
        reason_title, amount, currency, note, observed_at, issued_at, issued_by, sync_seq)
        VALUES ('ntc-a', 'forged', 99, 'X', 'X', 1, 'none', 'x', 'x', 1, 'SEK', '', now(), now(), 'x', 99)`,
    ).rejects.toThrow(/row-level security/);
    expect((await asB`UPDATE parkd.notices SET void_reason = 'x' WHERE site = 'ntc-a'`).count).toBe(0);
    expect((await asB`UPDATE parkd.observations SET note = 'x' WHERE site = 'ntc-a'`).count).toBe(0);
    for (const t of ["notices", "notice_photos", "observations"])
      await expect(asB.unsafe(`DELETE FROM parkd.${t} WHERE site = 'ntc-a'`)).rejects.toThrow(
        /permission denied/,
      );
    await expect(asB`UPDATE parkd.notice_photos SET size = 0`).rejects.toThrow(/permission denied/);
    expect(await held("ntc-a")).toEqual(before);
  });

  test("the reporting role's notices per day, reason and site; it writes nothing", async () => {
    const rows = await reporting`SELECT site, day::text, reason_code, reason_title, currency, notices::int,
        issued::int, voided::int, amount::int, voided_amount::int
      FROM parkd.report_notices_daily ORDER BY site, day, reason_code`;
    const base = { reason_title: "Reason no-permit", currency: "SEK", voided: 0, voided_amount: 0 };
    expect(rows).toEqual([
      // 22:30 UTC is 00:30 on the 16th at the site: its own day.
      {
        ...base,
        site: "ntc-a",
        day: "2026-06-15",
        reason_code: "no-permit",
        notices: 1,
        issued: 1,
        amount: 50_000,
      },
      {
        ...base,
        site: "ntc-a",
        day: "2026-06-15",
        reason_code: "over-time",
        reason_title: "Reason over-time",
        notices: 1,
        issued: 1,
        amount: 30_000,
      },
      {
        ...base,
        site: "ntc-a",
        day: "2026-06-16",
        reason_code: "no-permit",
        notices: 1,
        issued: 1,
        amount: 50_000,
      },
      {
        ...base,
        site: "ntc-b",
        day: "2026-06-16",
        reason_code: "no-permit",
        notices: 1,
        issued: 1,
        amount: 50_000,
      },
    ]);
    // It reads the rows and the files of every site, and changes none.
    const [files] = await reporting`SELECT count(*)::int AS n FROM parkd.notice_photos`;
    expect(files.n).toBe(4);
    await expect(reporting`UPDATE parkd.notices SET amount = 0`).rejects.toThrow(/permission denied/);
    // The boxes' roles do not get the report (it sees every site).
    await expect(asB`SELECT * FROM parkd.report_notices_daily`).rejects.toThrow(/permission denied/);
  });

  test("a void travels: the notice is voided at the office and the report moves it; no file goes again", async () => {
    const r = await call(a.app, "POST", "/api/v1/notices/1/void", {
      token: a.admin,
      body: { reason: "wrong plate" },
    });
    expect(r.status).toBe(200);
    const s = a.sync(pg);
    await s.pushAll();
    await s.stop();
    expect(s.status().pushed).toMatchObject({ notices: 1, photos: 0 });
    const [n] = await office`SELECT state, void_reason, voided_by, voided_at IS NOT NULL AS voided
      FROM parkd.notices WHERE site = 'ntc-a' AND number = 1`;
    expect(n).toMatchObject({ state: "voided", void_reason: "wrong plate", voided: true });
    expect(n.voided_by).toStartWith("token:");
    const [day] = await reporting`SELECT notices::int, issued::int, voided::int, amount::int,
        voided_amount::int FROM parkd.report_notices_daily
      WHERE site = 'ntc-a' AND day = '2026-06-15' AND reason_code = 'no-permit'`;
    expect(day).toEqual({ notices: 1, issued: 0, voided: 1, amount: 0, voided_amount: 50_000 });
  });

  test("sent again from the start (a crash before the cursors were stored): no duplicate, nothing changes", async () => {
    const before = await held("ntc-a");
    a.ctx.store.syncCursors.set({ notices: "0", observations: "0", photos: "0:" }, Date.now());
    const s = a.sync(pg);
    await s.pushAll();
    await s.stop();
    expect(s.status().pushed).toMatchObject({ notices: 3, observations: 1, photos: 0 });
    expect(await held("ntc-a")).toEqual(before);
    // An older state of a notice (a batch delayed behind a newer one) does not replace the newer.
    const stale = {
      ...a.ctx.store.notices.get("notice-a-first")!,
      voidedAt: null,
      voidedBy: null,
      voidReason: null,
    };
    await pushBatch(
      office,
      {
        site: "ntc-a",
        boxId: a.ctx.store.syncCursors.get("box")!,
        version: "test",
        timeZone: "Europe/Stockholm",
      },
      {
        events: [],
        tickets: [],
        lookups: [],
        lots: null,
        notices: [{ ...stale, syncSeq: 1, photos: [] }],
        observations: [],
        after: { events: 0, lookups: 0, notices: 0, observations: 0 },
      },
    );
    expect(await held("ntc-a")).toEqual(before);
  });

  test("photo files go after their rows, a bounded number and size per push, and the next push resumes", async () => {
    const c = await noticeBox("ntc-c");
    boxC = c;
    const sizes: number[] = [];
    for (const [id, n] of [
      ["notice-c-1", 3],
      ["notice-c-2", 2],
    ] as const) {
      await issue(c, id, "no-permit");
      for (let i = 0; i < n; i++) {
        const bytes = pngPhoto(16, 16, 100 + sizes.length);
        sizes.push(bytes.byteLength);
        await photo(c, id, bytes);
      }
    }
    // Two files a push by count; the byte budget holds less than two, so it is one a push.
    const byCount = c.sync(pg, { photoBatch: 2 });
    const counts: number[] = [];
    let more = true;
    for (let round = 0; more && round < 10; round++) {
      more = await byCount.pushOnce();
      counts.push((await filesHeld("ntc-c")).length);
      // Never a file the office holds no row for.
      const named = await photosNamed("ntc-c");
      for (const h of await filesHeld("ntc-c")) expect(named.has(h)).toBe(true);
    }
    await byCount.stop();
    expect(counts).toEqual([2, 4, 5]);
    expect(byCount.status().pushed).toMatchObject({ notices: 2, photos: 5 });

    // A photo added to a notice the office holds: the notice goes again with it, then the file.
    await issue(c, "notice-c-3", "no-permit");
    await photo(c, "notice-c-3", pngPhoto(16, 16, 500));
    await photo(c, "notice-c-3", pngPhoto(16, 16, 501));
    await photo(c, "notice-c-2", pngPhoto(16, 16, 502));
    const oneFile = Math.max(...sizes) + 10;
    const byBytes = c.sync(pg, { photoBatchBytes: oneFile });
    const after: number[] = [];
    more = true;
    for (let round = 0; more && round < 10; round++) {
      more = await byBytes.pushOnce();
      after.push((await filesHeld("ntc-c")).length);
    }
    await byBytes.stop();
    expect(after).toEqual([6, 7, 8]);
    expect((await photosNamed("ntc-c")).size).toBe(8);
    const [c2] = await office`SELECT jsonb_array_length(photos)::int AS n FROM parkd.notices
      WHERE site = 'ntc-c' AND notice_id = 'notice-c-2'`;
    expect(c2.n).toBe(3);
  });

  test("the office loses notices, files and marks between two pushes: the next push sends them again", async () => {
    const c = boxC;
    const s = c.sync(pg);
    await s.pushAll();
    const before = await held("ntc-c");
    await mark(c, "GAP 1");
    await s.pushAll();
    // As a restore of the office from a backup older than the last two pushes would leave it.
    await office`DELETE FROM parkd.notice_photos WHERE site = 'ntc-c' AND hash IN (SELECT p->>'hash'
      FROM parkd.notices, jsonb_array_elements(photos) p
      WHERE site = 'ntc-c' AND notice_id IN ('notice-c-2', 'notice-c-3'))`;
    await office`DELETE FROM parkd.notices WHERE site = 'ntc-c' AND notice_id IN ('notice-c-2', 'notice-c-3')`;
    await office`DELETE FROM parkd.observations WHERE site = 'ntc-c'`;
    expect((await filesHeld("ntc-c")).length).toBe(3);
    await issue(c, "notice-c-4", "over-time");
    await s.pushAll();
    await s.stop();
    const after = await held("ntc-c");
    expect(after.photos).toEqual(before.photos);
    expect(after.notices.slice(0, 3)).toEqual(before.notices);
    expect(after.notices.map((n: { notice_id: string }) => n.notice_id)).toEqual([
      "notice-c-1",
      "notice-c-2",
      "notice-c-3",
      "notice-c-4",
    ]);
    expect(after.observations.map((o: { plate: string }) => o.plate)).toEqual(["GAP 1"]);
    expect(s.status().pushed.photos).toBe(5);
  });

  test("a store restored from an older backup: new notices and marks are numbered after the office's", async () => {
    const d = await noticeBox("ntc-d");
    await issue(d, "notice-d-1", "no-permit");
    await mark(d, "RESTORED 1");
    const s = d.sync(pg);
    await s.pushAll();
    await s.stop();
    // What the box had sent before it lost them: notices up to number 7, marks up to id 40.
    await office`INSERT INTO parkd.notices (site, notice_id, number, plate, plate_norm, zone, verdict,
        reason_code, reason_title, amount, currency, note, observed_at, issued_at, issued_by, sync_seq)
      VALUES ('ntc-d', 'notice-d-lost', 7, 'LOST 1', 'LOST1', 1234, 'none', 'no-permit', 'Reason no-permit', 50000,
        'SEK', '', now(), now(), 'token:x', 30)`;
    await office`INSERT INTO parkd.observations (site, id, plate, plate_norm, zone, day_start, first_seen_at,
        limit_seconds, note, marked_by) VALUES ('ntc-d', 40, 'LOST 2', 'LOST2', 1234, now(), now(), 60, '', 'x')`;
    const again = d.sync(pg);
    await again.pushOnce();
    expect(await issue(d, "notice-d-2", "no-permit")).toBe(8);
    await mark(d, "RESTORED 2");
    await again.pushAll();
    await again.stop();
    const rows = await office`SELECT notice_id, number::int, sync_seq::int FROM parkd.notices
      WHERE site = 'ntc-d' ORDER BY number`;
    expect(rows.map((r: { notice_id: string }) => r.notice_id)).toEqual([
      "notice-d-1",
      "notice-d-lost",
      "notice-d-2",
    ]);
    expect(rows[2].sync_seq).toBeGreaterThan(30);
    const [m] =
      await office`SELECT id::int FROM parkd.observations WHERE site = 'ntc-d' AND plate_norm = 'RESTORED2'`;
    expect(m.id).toBeGreaterThan(40);
  });

  test("a notice whose number the office holds under another id is kept aside, and the push goes on", async () => {
    const boxId = a.ctx.store.syncCursors.get("box")!;
    const other = {
      ...a.ctx.store.notices.get("notice-a-second")!,
      id: "notice-a-twin",
      plate: "TWIN 1",
      syncSeq: 1_000,
    };
    const r = await pushBatch(
      office,
      { site: "ntc-a", boxId, version: "test", timeZone: "Europe/Stockholm" },
      {
        events: [],
        tickets: [],
        lookups: [],
        lots: null,
        notices: [{ ...other, photos: [] }],
        observations: [],
        after: { events: 0, lookups: 0, notices: 0, observations: 0 },
      },
    );
    expect(r.gap).toBeUndefined();
    expect(r.clashes).toEqual([2]);
    const [kept] = await office`SELECT number::int, notice->>'plate' AS plate FROM parkd.notice_number_clashes
      WHERE site = 'ntc-a' AND notice_id = 'notice-a-twin'`;
    expect(kept).toEqual({ number: 2, plate: "TWIN 1" });
    const [first] = await office`SELECT notice_id FROM parkd.notices WHERE site = 'ntc-a' AND number = 2`;
    expect(first.notice_id).toBe("notice-a-second");
  });

  test("an OVER TIME LIMIT notice arrives with the mark it was measured from", async () => {
    const m = await noticeBox("ntc-m");
    await mark(m, "LATE 1");
    const r = await call(m.app, "POST", "/api/v1/attendants/notices", {
      token: m.handheld,
      body: {
        id: "notice-m-over",
        registration_number: "LATE 1",
        zone: 1234,
        verdict: "over_time_limit",
        reason: "over-time",
        observed_at: new Date(clock.now()).toISOString(),
      },
    });
    expect(r.status).toBe(201);
    await issue(m, "notice-m-none", "no-permit");
    const s = m.sync(pg);
    await s.pushAll();
    await s.stop();
    const rows =
      await office`SELECT notice_id, (extract(epoch FROM mark_seen_at) * 1000)::bigint::text AS seen_ms,
        mark_limit_seconds, marked_by FROM parkd.notices WHERE site = 'ntc-m' ORDER BY number`;
    expect(rows).toEqual([
      {
        notice_id: "notice-m-over",
        seen_ms: String(clock.now()),
        mark_limit_seconds: 86_400,
        marked_by: r.json.data.mark.marked_by,
      },
      { notice_id: "notice-m-none", seen_ms: null, mark_limit_seconds: null, marked_by: null },
    ]);
  });
});
