import { describe, expect, test } from "bun:test";
import { permitLookups } from "../../../src/platform/store/schema/index.ts";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";
import { cityLot } from "../../support/lots.ts";
import { cancelTicket, moveTicket, seedTicket } from "../../support/seed.ts";

const CHECK = "/api/v1/attendants/check-tickets";
const NOW = "2026-06-15T12:00:00Z";
const H = 3_600_000;
const ago = (hours: number) => Date.parse(NOW) - hours * H;

function setup(config = {}) {
  const clock = testClock(NOW);
  const s = testApp(config, clock);
  return { ...s, clock, reader: s.token("permits:read"), admin: s.token("admin") };
}

describe("check-tickets: the request forms", () => {
  const s = setup();
  seedTicket(s.ctx, { ticketId: "T1", plate: "ABC123", zone: 1234, start: ago(1) });
  seedTicket(s.ctx, {
    ticketId: "T2",
    plate: "XYZ 999",
    zone: 1234,
    start: ago(3),
    end: ago(2),
    status: "stopped",
  });
  seedTicket(s.ctx, {
    ticketId: "T3",
    plate: "ABC123",
    zone: 55,
    start: ago(5),
    end: ago(4),
    status: "stopped",
  });

  test("zone in a JSON body on the GET, as a string (the interface's example)", async () => {
    const res = await call(s.app, "GET", CHECK, {
      token: s.reader,
      body: { zone: "1234" },
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    expect(res.json).toEqual([
      {
        registration_number: "ABC123",
        zone: 1234,
        active: true,
        start_at: "2026-06-15T11:00:00.000000Z",
        end_at: null,
        note: "ticket T1, running",
      },
      {
        registration_number: "XYZ 999",
        zone: 1234,
        active: false,
        start_at: "2026-06-15T09:00:00.000000Z",
        end_at: "2026-06-15T10:00:00.000000Z",
        note: "ticket T2, stopped",
      },
    ]);
  });

  test("zone as a number in the body, and in the query string", async () => {
    const asNumber = await call(s.app, "GET", CHECK, { token: s.reader, body: { zone: 1234 } });
    const inQuery = await call(s.app, "GET", `${CHECK}?zone=1234`, { token: s.reader });
    expect(asNumber.status).toBe(200);
    expect(inQuery.json).toEqual(asNumber.json);
    expect(inQuery.json).toHaveLength(2);
  });

  test("registration number in the query and in the body; across zones, newest first", async () => {
    const q = await call(s.app, "GET", `${CHECK}?registration_number=ABC123`, { token: s.reader });
    const b = await call(s.app, "GET", CHECK, { token: s.reader, body: { registration_number: "ABC123" } });
    expect(q.status).toBe(200);
    expect(b.json).toEqual(q.json);
    expect(q.json.map((p: { zone: number }) => p.zone)).toEqual([1234, 55]);
  });

  test("plates match however they were typed", async () => {
    for (const typed of ["abc123", "ab-c 123 ", "AB C123", "abc.123", "ＡＢＣ１２３"]) {
      const res = await call(s.app, "GET", `${CHECK}?registration_number=${encodeURIComponent(typed)}`, {
        token: s.reader,
      });
      expect(res.json).toHaveLength(2);
      expect(res.json[0].registration_number).toBe("ABC123");
    }
    const spaced = await call(s.app, "GET", CHECK, {
      token: s.reader,
      body: { registration_number: "xyz-999" },
    });
    expect(spaced.json.map((p: { registration_number: string }) => p.registration_number)).toEqual([
      "XYZ 999",
    ]);
  });

  test("Å Ä Ö are kept: ÅÄÖ123 is not AAO123", async () => {
    seedTicket(s.ctx, { ticketId: "T9", plate: "åäö 123", zone: 9, start: ago(1) });
    const hit = await call(s.app, "GET", `${CHECK}?registration_number=${encodeURIComponent("ÅÄÖ-123")}`, {
      token: s.reader,
    });
    expect(hit.json.map((p: { registration_number: string }) => p.registration_number)).toEqual(["åäö 123"]);
    const miss = await call(s.app, "GET", `${CHECK}?registration_number=AAO123`, { token: s.reader });
    expect(miss.json).toEqual([]);
  });

  test("the interface's variants: `ab-123 `, `AB 123`, `ab123` all find AB123", async () => {
    seedTicket(s.ctx, { ticketId: "V1", plate: "AB123", zone: 8, start: ago(1) });
    for (const typed of ["ab-123 ", "AB 123", "ab123"]) {
      const res = await call(s.app, "GET", CHECK, { token: s.reader, body: { registration_number: typed } });
      expect(res.json.map((p: { note: string }) => p.note)).toEqual(["ticket V1, running"]);
    }
  });

  test("handhelds that always send Content-Type, or send a body without one", async () => {
    const headerOnly = await call(s.app, "GET", `${CHECK}?zone=1234`, {
      token: s.reader,
      headers: { "content-type": "application/json", accept: "application/json" },
    });
    expect(headerOnly.status).toBe(200);
    expect(headerOnly.json).toHaveLength(2);
    const noType = await s.app.handle(
      new Request(`http://localhost${CHECK}`, {
        method: "GET",
        headers: { authorization: `Bearer ${s.reader}` },
        body: new TextEncoder().encode('{"zone":1234}'),
      }),
    );
    expect(noType.status).toBe(200);
    expect(((await noType.json()) as unknown[]).length).toBe(2);
  });

  test("nothing found is an empty array", async () => {
    const res = await call(s.app, "GET", `${CHECK}?zone=404`, { token: s.reader });
    expect(res.status).toBe(200);
    expect(res.json).toEqual([]);
  });

  test("both, neither, bad zone, bad body", async () => {
    expectProblem(await call(s.app, "GET", CHECK, { token: s.reader }), 400, "lookup-parameters");
    expectProblem(
      await call(s.app, "GET", CHECK, { token: s.reader, body: { zone: "1", registration_number: "A1" } }),
      400,
      "lookup-parameters",
    );
    expectProblem(
      await call(s.app, "GET", `${CHECK}?zone=1&registration_number=A1`, { token: s.reader }),
      400,
      "lookup-parameters",
    );
    expectProblem(
      await call(s.app, "GET", `${CHECK}?zone=1`, { token: s.reader, body: { registration_number: "A1" } }),
      400,
      "lookup-parameters",
    );
    expectProblem(await call(s.app, "GET", CHECK, { token: s.reader, body: {} }), 400, "lookup-parameters");
    const badQuery = expectProblem(
      await call(s.app, "GET", `${CHECK}?zone=12a`, { token: s.reader }),
      400,
      "validation",
    );
    expect(badQuery.errors).toEqual([
      { pointer: "/zone", message: expect.any(String), in: "query" } as never,
    ]);
    const badBody = expectProblem(
      await call(s.app, "GET", CHECK, { token: s.reader, body: { zone: "twelve" } }),
      400,
      "validation",
    );
    expect(badBody.errors![0]!.pointer).toBe("/zone");
    expectProblem(
      await call(s.app, "GET", CHECK, { token: s.reader, body: '{"zone":' }),
      400,
      "malformed-json",
    );
    expectProblem(
      await call(s.app, "GET", CHECK, {
        token: s.reader,
        body: "zone=1",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      415,
      "unsupported-media-type",
    );
  });
});

describe("check-tickets: what is listed", () => {
  test("the recent window: ended 23 h ago is in, 25 h ago is out; --recent-hours moves it", async () => {
    const s = setup();
    seedTicket(s.ctx, {
      ticketId: "in",
      plate: "AAA111",
      zone: 1,
      start: ago(30),
      end: ago(23),
      status: "stopped",
    });
    seedTicket(s.ctx, {
      ticketId: "out",
      plate: "AAA111",
      zone: 1,
      start: ago(30),
      end: ago(25),
      status: "stopped",
    });
    const res = await call(s.app, "GET", `${CHECK}?registration_number=AAA111`, { token: s.reader });
    expect(res.json.map((p: { note: string }) => p.note)).toEqual(["ticket in, stopped"]);
    expect(res.json[0].active).toBe(false);
    const wide = setup({ recentHours: 48 });
    seedTicket(wide.ctx, {
      ticketId: "out",
      plate: "AAA111",
      zone: 1,
      start: ago(30),
      end: ago(25),
      status: "stopped",
    });
    expect((await call(wide.app, "GET", `${CHECK}?zone=1`, { token: wide.reader })).json).toHaveLength(1);
  });

  test("a ticket with an end in the future is active until then; one not yet started is left out", async () => {
    const s = setup();
    seedTicket(s.ctx, { ticketId: "paid", plate: "BBB222", zone: 2, start: ago(1), end: ago(-1) });
    seedTicket(s.ctx, { ticketId: "later", plate: "BBB222", zone: 2, start: ago(-2) });
    const res = await call(s.app, "GET", `${CHECK}?zone=2`, { token: s.reader });
    expect(res.json).toHaveLength(1);
    expect(res.json[0]).toMatchObject({ active: true, end_at: "2026-06-15T13:00:00.000000Z" });
    s.clock.advance(1 * H);
    const after = await call(s.app, "GET", `${CHECK}?zone=2`, { token: s.reader });
    expect(after.json.map((p: { active: boolean; note: string }) => [p.note, p.active])).toEqual([
      ["ticket paid, running", false],
    ]);
    s.clock.advance(1 * H);
    const started = await call(s.app, "GET", `${CHECK}?zone=2`, { token: s.reader });
    expect(started.json.map((p: { note: string; active: boolean }) => [p.note, p.active])).toEqual([
      ["ticket later, running", true],
      ["ticket paid, running", false],
    ]);
  });

  test("canceled tickets never appear; a moved ticket appears under its new plate only", async () => {
    const s = setup();
    seedTicket(s.ctx, { ticketId: "gone", plate: "CCC333", zone: 3, start: ago(1) });
    seedTicket(s.ctx, { ticketId: "was", plate: "CCC333", zone: 3, start: ago(1), status: "canceled" });
    seedTicket(s.ctx, { ticketId: "mv", plate: "DDD444", zone: 3, start: ago(2) });
    cancelTicket(s.ctx, "gone");
    moveTicket(s.ctx, "mv", "eee 555");
    expect(
      (await call(s.app, "GET", `${CHECK}?registration_number=CCC333`, { token: s.reader })).json,
    ).toEqual([]);
    expect(
      (await call(s.app, "GET", `${CHECK}?registration_number=DDD444`, { token: s.reader })).json,
    ).toEqual([]);
    const moved = await call(s.app, "GET", `${CHECK}?registration_number=EEE555`, { token: s.reader });
    expect(moved.json.map((p: { registration_number: string }) => p.registration_number)).toEqual([
      "eee 555",
    ]);
    const zone = await call(s.app, "GET", `${CHECK}?zone=3`, { token: s.reader });
    expect(zone.json.map((p: { note: string }) => p.note)).toEqual(["ticket mv, running"]);
    const list = await call(s.app, "GET", "/api/v1/tickets/zone/3", { token: s.reader });
    expect(list.json).toEqual({ data: ["eee 555"] });
  });

  test("operator permits appear beside tickets with their note; open-ended has end_at null", async () => {
    const s = setup();
    seedTicket(s.ctx, { ticketId: "t", plate: "FFF666", zone: 4, start: ago(1) });
    const made = await call(s.app, "POST", "/api/v1/permits", {
      token: s.admin,
      body: {
        registration_number: "fff 666",
        zone: 4,
        start_at: "2026-06-01T00:00:00Z",
        note: "resident, Storgatan 1",
      },
    });
    expect(made.status).toBe(201);
    const res = await call(s.app, "GET", `${CHECK}?registration_number=FFF666`, { token: s.reader });
    expect(res.json).toEqual([
      {
        registration_number: "FFF666",
        zone: 4,
        active: true,
        start_at: "2026-06-15T11:00:00.000000Z",
        end_at: null,
        note: "ticket t, running",
      },
      {
        registration_number: "fff 666",
        zone: 4,
        active: true,
        start_at: "2026-06-01T00:00:00.000000Z",
        end_at: null,
        note: "resident, Storgatan 1",
      },
    ]);
    // One plate, twice: listed once in the zone list.
    expect((await call(s.app, "GET", "/api/v1/tickets/zone/4", { token: s.reader })).json.data).toHaveLength(
      1,
    );
  });

  test("a permit with windows is listed outside them with active false, and leaves the zone list", async () => {
    const s = setup();
    await call(s.app, "POST", "/api/v1/permits", {
      token: s.admin,
      body: {
        registration_number: "GGG777",
        zone: 5,
        start_at: "2026-06-01T00:00:00",
        end_at: null,
        note: "night staff",
        days: [{ weekday: 1, start_time: "22:00:00", end_time: "06:00:00" }],
      },
    });
    // Monday 14:00 in Stockholm.
    const day = await call(s.app, "GET", `${CHECK}?zone=5`, { token: s.reader });
    expect(day.json.map((p: { active: boolean }) => p.active)).toEqual([false]);
    expect((await call(s.app, "GET", "/api/v1/tickets/zone/5", { token: s.reader })).json.data).toEqual([]);
    s.clock.set("2026-06-15T22:30:00Z"); // Tuesday 00:30 in Stockholm: inside Monday's night
    const night = await call(s.app, "GET", `${CHECK}?zone=5`, { token: s.reader });
    expect(night.json.map((p: { active: boolean }) => p.active)).toEqual([true]);
    expect((await call(s.app, "GET", "/api/v1/tickets/zone/5", { token: s.reader })).json.data).toEqual([
      "GGG777",
    ]);
  });

  test("the lot name goes into the note when the store knows the lot", async () => {
    const s = setup();
    const admin = s.token("admin");
    const lot = await call(s.app, "POST", "/api/v1/parkings", {
      token: admin,
      body: { ...cityLot(), id: 7, name: "Stora torget" },
    });
    expect(lot.status).toBe(201);
    const app = s.app;
    seedTicket(s.ctx, { ticketId: "L1", plate: "HHH888", zone: 6, start: ago(1), parkingLotId: 7 });
    seedTicket(s.ctx, { ticketId: "L2", plate: "HHH889", zone: 6, start: ago(2), parkingLotId: 8 });
    const res = await call(app, "GET", `${CHECK}?zone=6`, { token: s.reader });
    expect(res.json.map((p: { note: string }) => p.note)).toEqual([
      "ticket L1, lot 7 (Stora torget), running",
      "ticket L2, lot 8, running",
    ]);
  });
});

describe("the zone list", () => {
  test("each active plate once, sorted; ETag and If-None-Match; 200 again after a new ticket", async () => {
    const s = setup();
    seedTicket(s.ctx, { ticketId: "1", plate: "ZZZ 1", zone: 10, start: ago(1) });
    seedTicket(s.ctx, { ticketId: "2", plate: "AAA 1", zone: 10, start: ago(1) });
    seedTicket(s.ctx, { ticketId: "3", plate: "aaa-1", zone: 10, start: ago(2) });
    seedTicket(s.ctx, {
      ticketId: "4",
      plate: "MMM 1",
      zone: 10,
      start: ago(3),
      end: ago(1),
      status: "stopped",
    });
    seedTicket(s.ctx, { ticketId: "5", plate: "OTHER 1", zone: 11, start: ago(1) });
    const first = await call(s.app, "GET", "/api/v1/tickets/zone/10", { token: s.reader });
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toStartWith("application/json");
    expect(first.json).toEqual({ data: ["AAA 1", "ZZZ 1"] });
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);

    const same = await call(s.app, "GET", "/api/v1/tickets/zone/10", {
      token: s.reader,
      headers: { "if-none-match": etag },
    });
    expect(same.status).toBe(304);
    expect(same.text).toBe("");
    expect(same.headers.get("etag")).toBe(etag);
    const weak = await call(s.app, "GET", "/api/v1/tickets/zone/10", {
      token: s.reader,
      headers: { "if-none-match": `"other", W/${etag}` },
    });
    expect(weak.status).toBe(304);

    seedTicket(s.ctx, { ticketId: "6", plate: "BBB 1", zone: 10, start: ago(0.5) });
    const changed = await call(s.app, "GET", "/api/v1/tickets/zone/10", {
      token: s.reader,
      headers: { "if-none-match": etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.json).toEqual({ data: ["AAA 1", "BBB 1", "ZZZ 1"] });
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  test("a bad zone is 400 with a pointer; an empty zone is an empty list", async () => {
    const s = setup();
    const bad = expectProblem(
      await call(s.app, "GET", "/api/v1/tickets/zone/12a", { token: s.reader }),
      400,
      "validation",
    );
    expect(bad.errors![0]).toMatchObject({ pointer: "/zone", in: "params" });
    expect((await call(s.app, "GET", "/api/v1/tickets/zone/0", { token: s.reader })).json).toEqual({
      data: [],
    });
  });

  test("the zone list and the admin ticket view live side by side under /api/v1/tickets", async () => {
    const s = setup();
    seedTicket(s.ctx, { ticketId: "zone", plate: "JJJ 1", zone: 12, start: ago(1) });
    const admin = s.token("admin");
    const list = await call(s.app, "GET", "/api/v1/tickets/zone/12", { token: admin });
    expect(list.json).toEqual({ data: ["JJJ 1"] });
    // A ticket whose id is "zone" is still reachable through the ticket view.
    const view = await call(s.app, "GET", "/api/v1/tickets/zone", { token: admin });
    expect(view.status).toBe(200);
    expect(view.json.data.ticket_id).toBe("zone");
  });
});

describe("who may look", () => {
  const s = setup();
  const paths = [`${CHECK}?zone=1`, "/api/v1/tickets/zone/1"];

  test("no token or an unknown token: 401 with a Bearer challenge", async () => {
    for (const path of paths) {
      const none = await call(s.app, "GET", path);
      expectProblem(none, 401, "unauthorized");
      expect(none.headers.get("www-authenticate")).toBe('Bearer realm="parking"');
      expectProblem(await call(s.app, "GET", path, { token: "pk_nope" }), 401, "unauthorized");
    }
  });

  test("a tickets:write-only token is 403; Basic is refused even with the scope", async () => {
    const writer = s.token("tickets:write");
    const basic = await s.user("handheld", "a long enough password", "permits:read");
    for (const path of paths) {
      const res = await call(s.app, "GET", path, { token: writer });
      expectProblem(res, 403, "insufficient-scope");
      expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
      expectProblem(await call(s.app, "GET", path, { authorization: basic }), 401, "unauthorized");
      expect((await call(s.app, "GET", path, { token: s.admin })).status).toBe(200);
    }
  });
});

describe("lookup records", () => {
  test("each lookup is recorded with credential, kind, normalized query and count, written in batches", async () => {
    const s = setup();
    const handheld = s.credentials.createToken({ name: "handheld-7", scopes: ["permits:read"] }).token;
    seedTicket(s.ctx, { ticketId: "1", plate: "KKK 1", zone: 20, start: ago(1) });
    await call(s.app, "GET", `${CHECK}?registration_number=kkk-1`, { token: handheld });
    await call(s.app, "GET", CHECK, { token: handheld, body: { zone: "20" } });
    await call(s.app, "GET", "/api/v1/tickets/zone/20", { token: handheld });
    await call(s.app, "GET", `${CHECK}?zone=20&registration_number=X`, { token: handheld });
    const recorder = s.lookupRecorder;
    expect(recorder.pending).toBe(3);
    expect(s.ctx.store.db.select().from(permitLookups).all()).toHaveLength(0);
    expect(recorder.flush()).toBe(3);
    const rows = s.ctx.store.db.select().from(permitLookups).all();
    expect(rows.map((r) => [r.credential, r.by, r.query, r.results, r.at])).toEqual([
      ["token:handheld-7", "registration_number", "KKK1", 1, Date.parse(NOW)],
      ["token:handheld-7", "zone", "20", 1, Date.parse(NOW)],
      ["token:handheld-7", "zone_list", "20", 1, Date.parse(NOW)],
    ]);
  });

  test("they are flushed by themselves about once a second, and at stop", async () => {
    const s = setup();
    await call(s.app, "GET", `${CHECK}?zone=1`, { token: s.reader });
    const count = () => s.ctx.store.db.select().from(permitLookups).all().length;
    expect(count()).toBe(0);
    await Bun.sleep(1300);
    expect(count()).toBe(1);
    const recorder = s.lookupRecorder;
    await call(s.app, "GET", `${CHECK}?zone=1`, { token: s.reader });
    recorder.stop();
    expect(count()).toBe(2);
    await call(s.app, "GET", `${CHECK}?zone=1`, { token: s.reader });
    expect(count()).toBe(3);
  });

  test("a store that refuses the write keeps the records for the next flush", async () => {
    const s = setup();
    await call(s.app, "GET", `${CHECK}?zone=1`, { token: s.reader });
    const recorder = s.lookupRecorder;
    s.ctx.store.sqlite.run("PRAGMA query_only = ON");
    expect(recorder.flush()).toBe(0);
    expect(recorder.pending).toBe(1);
    s.ctx.store.sqlite.run("PRAGMA query_only = OFF");
    expect(recorder.flush()).toBe(1);
  });
});
