import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { offlineVerdict, savedZone } from "../../../src/client/offline-verdict.ts";
import { Verdict, ZonePermits } from "../../../src/modules/enforcement/model.ts";
import { ObservationReceipt } from "../../../src/modules/enforcement/observations/model.ts";
import { askVerdict, call, expectProblem, testApp, testClock } from "../../support/app.ts";
import { cityLot } from "../../support/lots.ts";

const MIN = 60_000;
const H = 60 * MIN;
// 12:02 in Stockholm.
const T0 = Date.parse("2026-06-15T10:02:00Z");
const MARK = "/api/v1/attendants/observations";

async function setup() {
  const clock = testClock(T0);
  const s = testApp({ timezone: "Europe/Stockholm", graceMinutes: 0 }, clock);
  const admin = s.token("admin");
  const box = {
    ...s,
    clock,
    admin,
    marker: s.token("permits:read", "notices:write"),
    reader: s.token("permits:read"),
    terminal: s.token("tickets:write"),
  };
  // Zone 1002: two lots, 2 h and 3 h; the shorter is the zone's limit. Zone 1003: a 30-minute
  // lot. Zone 1001: a lot without a limit. Zone 1004: a retired lot with a limit.
  for (const [zone, maxTime, active] of [
    [1002, 2 * 3600, true],
    [1002, 3 * 3600, true],
    [1003, 30 * 60, true],
    [1001, 0, true],
    [1004, 3600, false],
  ] as const) {
    const res = await call(s.app, "POST", "/api/v1/parkings", {
      token: admin,
      body: { ...cityLot(), zone_number: zone, max_time: maxTime, active },
    });
    expect(res.status).toBe(201);
  }
  return box;
}
type Box = Awaited<ReturnType<typeof setup>>;

const mark = (s: Box, body: unknown, token = s.marker) => call(s.app, "POST", MARK, { token, body });

const verdict = async (s: Box, plate: string, zone: number) => {
  const answer = await askVerdict(s.app, s.reader, plate, zone);
  expect(Value.Check(Verdict, answer)).toBe(true);
  return answer;
};

const marksStored = (s: Box) => s.ctx.store.observations.countBefore(Number.MAX_SAFE_INTEGER);

describe("POST /api/v1/attendants/observations", () => {
  test("a mark; a later check says when the car was first seen, and past the zone's limit OVER TIME LIMIT", async () => {
    const s = await setup();
    const res = await mark(s, { registration_number: "abc 123", zone: 1002, note: "valves 2 and 7" });
    expect(res.status).toBe(201);
    expect(Value.Check(ObservationReceipt, res.json)).toBe(true);
    expect(res.json.data).toEqual({
      registration_number: "abc 123",
      zone: 1002,
      first_seen_at: "2026-06-15T10:02:00.000000Z",
      limit_seconds: 7200,
      over_limit_at: "2026-06-15T12:02:00.000000Z",
      note: "valves 2 and 7",
      marked_by: expect.stringMatching(/^token:/),
    });
    s.clock.advance(34 * MIN);
    const early = await verdict(s, "ABC123", 1002);
    expect(early.state).toBe("none");
    expect(early.observation).toEqual({
      first_seen_at: "2026-06-15T10:02:00.000000Z",
      limit_seconds: 7200,
      over_limit_at: "2026-06-15T12:02:00.000000Z",
      seen_seconds_ago: 34 * 60,
      note: "valves 2 and 7",
    });
    // Exactly the limit is not over it; a minute past it is.
    s.clock.set(T0 + 2 * H);
    expect((await verdict(s, "ABC123", 1002)).state).toBe("none");
    s.clock.set(T0 + 2 * H + 14 * MIN);
    const over = await verdict(s, "abc-123", 1002);
    expect(over.state).toBe("over_time_limit");
    expect(over.observation.seen_seconds_ago).toBe(2 * 3600 + 14 * 60);
    // Another zone knows nothing of it.
    expect(await verdict(s, "ABC123", 1003)).toMatchObject({ state: "none", observation: null });
  });

  test("a ticket valid here wins over the limit; one valid elsewhere does not", async () => {
    const s = await setup();
    expect((await mark(s, { registration_number: "PAID1", zone: 1002 })).status).toBe(201);
    const ticket = (id: string, zone: number) =>
      call(s.app, "POST", "/api/v1/actions/tickets", {
        token: s.terminal,
        body: {
          eventType: "TicketCreated",
          ticketId: id,
          zoneCode: String(zone),
          parkingLotId: null,
          startDate: new Date(T0).toISOString(),
          endDate: new Date(T0 + 4 * H).toISOString(),
          licenseNumber: "PAID1",
          ticketCost: { amountInclVat: 1000, vatRate: 25, currencyCode: "SEK" },
        },
      });
    expect((await ticket("t-else", 1001)).status).toBe(200);
    s.clock.set(T0 + 3 * H);
    expect((await verdict(s, "PAID1", 1002)).state).toBe("over_time_limit");
    expect((await ticket("t-here", 1002)).status).toBe(200);
    const here = await verdict(s, "PAID1", 1002);
    expect(here.state).toBe("valid_here");
    expect(here.observation.first_seen_at).toBe("2026-06-15T10:02:00.000000Z");
  });

  test("marked again in the same zone: 200 with the first mark, its time and note unchanged", async () => {
    const s = await setup();
    expect(
      (await mark(s, { registration_number: "ABC123", zone: 1002, note: "valves 2 and 7" })).status,
    ).toBe(201);
    s.clock.advance(50 * MIN);
    const again = await mark(s, { registration_number: "abc 123", zone: 1002, note: "valves 3 and 8" });
    expect(again.status).toBe(200);
    expect(again.json.data).toMatchObject({
      registration_number: "ABC123",
      first_seen_at: "2026-06-15T10:02:00.000000Z",
      note: "valves 2 and 7",
    });
    expect(marksStored(s)).toBe(1);
  });

  test("seen elsewhere: a mark in another zone replaces it, and its clock starts there", async () => {
    const s = await setup();
    expect((await mark(s, { registration_number: "ABC123", zone: 1002 })).status).toBe(201);
    s.clock.advance(90 * MIN);
    const moved = await mark(s, { registration_number: "ABC123", zone: 1003 });
    expect(moved.status).toBe(201);
    expect(moved.json.data.limit_seconds).toBe(1800);
    s.clock.advance(60 * MIN);
    expect(await verdict(s, "ABC123", 1002)).toMatchObject({ state: "none", observation: null });
    expect((await verdict(s, "ABC123", 1003)).state).toBe("over_time_limit");
    expect(marksStored(s)).toBe(1);
  });

  test("the day ends it: after midnight (site time) the car is not marked, and a new mark starts again", async () => {
    const s = await setup();
    expect((await mark(s, { registration_number: "ABC123", zone: 1003 })).status).toBe(201);
    s.clock.set(Date.parse("2026-06-15T21:59:00Z")); // 23:59 in Stockholm
    expect((await verdict(s, "ABC123", 1003)).state).toBe("over_time_limit");
    s.clock.set(Date.parse("2026-06-15T22:01:00Z")); // 00:01 the next day
    expect(await verdict(s, "ABC123", 1003)).toMatchObject({ state: "none", observation: null });
    const fresh = await mark(s, { registration_number: "ABC123", zone: 1003 });
    expect(fresh.status).toBe(201);
    expect(fresh.json.data.first_seen_at).toBe("2026-06-15T22:01:00.000000Z");
  });

  test("recorded in the lookup records (the audit) as PLATE@ZONE: 1 for a new mark, 0 for one already there", async () => {
    const s = await setup();
    await mark(s, { registration_number: "abc 123", zone: 1002 });
    await mark(s, { registration_number: "ABC123", zone: 1002 });
    s.lookupRecorder.flush();
    const page = await call(s.app, "GET", "/api/v1/lookups?registration_number=abc123", { token: s.admin });
    expect(page.status).toBe(200);
    expect(
      page.json.data.map((r: { by: string; query: string; results: number; verdict: null }) => [
        r.by,
        r.query,
        r.results,
        r.verdict,
      ]),
    ).toEqual([
      ["observation", "ABC123@1002", 0, null],
      ["observation", "ABC123@1002", 1, null],
    ]);
  });

  test("an over-time verdict is recorded with its state", async () => {
    const s = await setup();
    await mark(s, { registration_number: "ABC123", zone: 1003 });
    s.clock.advance(H);
    await verdict(s, "ABC123", 1003);
    s.lookupRecorder.flush();
    const page = await call(s.app, "GET", "/api/v1/lookups?registration_number=abc123", { token: s.admin });
    expect(page.json.data[0]).toMatchObject({ by: "verdict", verdict: "over_time_limit" });
    const checks = await call(s.app, "GET", "/api/v1/attendants/checks?registration_number=ABC123", {
      token: s.reader,
    });
    expect(checks.json.data).toEqual([expect.objectContaining({ zone: 1003, verdict: "over_time_limit" })]);
  });

  describe("refusals change nothing", () => {
    test("without a credential 401; permits:read alone 403 (it only checks)", async () => {
      const s = await setup();
      expectProblem(
        await call(s.app, "POST", MARK, { body: { registration_number: "A1", zone: 1002 } }),
        401,
        "unauthorized",
      );
      expectProblem(
        await mark(s, { registration_number: "A1", zone: 1002 }, s.reader),
        403,
        "insufficient-scope",
      );
      expectProblem(
        await mark(s, { registration_number: "A1", zone: 1002 }, s.terminal),
        403,
        "insufficient-scope",
      );
      expect(marksStored(s)).toBe(0);
    });

    test("a mark id too short or with other characters: 400 at /id, saying what an id is", async () => {
      const s = await setup();
      for (const id of ["abc", "a".repeat(65), "abc def ghi", "åäö12345"]) {
        const p = expectProblem(
          await mark(s, { id, registration_number: "A1", zone: 1002 }),
          400,
          "validation",
        );
        expect(p.errors).toEqual([
          {
            pointer: "/id",
            message: "Expected an id made on the phone: 8 to 64 letters, digits, - or _ (a UUID)",
          },
        ]);
      }
      expect(marksStored(s)).toBe(0);
    });

    test("a plate without letters or digits, or with control characters: 400 at /registration_number", async () => {
      const s = await setup();
      for (const plate of [" - ", "AB\u0000C1", ""]) {
        const p = expectProblem(await mark(s, { registration_number: plate, zone: 1002 }), 400, "validation");
        expect(p.errors?.[0]?.pointer).toBe("/registration_number");
      }
      expect(marksStored(s)).toBe(0);
    });

    test("a zone that is not a zone number: 400 validation", async () => {
      const s = await setup();
      for (const zone of ["x12", -1, 1.5, 2_147_483_648, null])
        expectProblem(await mark(s, { registration_number: "A1", zone }), 400, "validation");
      expectProblem(await mark(s, { registration_number: "A1" }), 400, "validation");
      expect(marksStored(s)).toBe(0);
    });

    test("a zone without a time limit (unknown, no limit, or only retired lots): 400 zone-without-time-limit", async () => {
      const s = await setup();
      for (const zone of [9999, 1001, 1004]) {
        const p = expectProblem(
          await mark(s, { registration_number: "A1", zone }),
          400,
          "zone-without-time-limit",
        );
        expect(p.errors).toEqual([{ pointer: "/zone", message: "Not a zone with a time limit" }]);
        expect(p.detail).toContain(`Zone ${zone}`);
      }
      expect(marksStored(s)).toBe(0);
    });

    test("an unknown field, a note over 500 characters, a body that is not JSON: 400", async () => {
      const s = await setup();
      expectProblem(await mark(s, { registration_number: "A1", zone: 1002, when: "now" }), 400, "validation");
      expectProblem(
        await mark(s, { registration_number: "A1", zone: 1002, note: "x".repeat(501) }),
        400,
        "validation",
      );
      const broken = await call(s.app, "POST", MARK, { token: s.marker, body: "{not json" });
      expect(broken.status).toBe(400);
      expect(marksStored(s)).toBe(0);
    });
  });
});

describe("a mark made on the phone: its id and its time of marking", () => {
  const ID = "5b0c2f7e-9d41-4c1a-b7e3-2f6a8d9e0c11";
  const at = (ms: number) => new Date(ms).toISOString();

  test("kept offline 40 min and sent later: first seen when marked; sent again, 200 with the stored mark and still one", async () => {
    const s = await setup();
    s.clock.advance(40 * MIN);
    const body = {
      id: ID,
      registration_number: "abc 123",
      zone: 1002,
      note: "valves 2 and 7",
      marked_at: at(T0),
    };
    const first = await mark(s, body);
    expect(first.status).toBe(201);
    expect(first.json.data).toMatchObject({
      first_seen_at: "2026-06-15T10:02:00.000000Z",
      over_limit_at: "2026-06-15T12:02:00.000000Z",
    });
    expect((await verdict(s, "ABC123", 1002)).observation.seen_seconds_ago).toBe(40 * 60);
    // The answer lost on the way: the phone sends the same mark again, later.
    s.clock.advance(5 * MIN);
    const again = await mark(s, body);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(marksStored(s)).toBe(1);
    // A time written with the site's UTC offset is the same instant.
    const s2 = await setup();
    const local = await mark(s2, {
      registration_number: "B1",
      zone: 1002,
      marked_at: "2026-06-15T11:50:00+02:00",
    });
    expect(local.json.data.first_seen_at).toBe("2026-06-15T09:50:00.000000Z");
  });

  test("a phone's clock up to 2 minutes fast: first seen at the box's time, never in its future", async () => {
    const s = await setup();
    const res = await mark(s, { id: ID, registration_number: "A1", zone: 1002, marked_at: at(T0 + 2 * MIN) });
    expect(res.status).toBe(201);
    expect(res.json.data.first_seen_at).toBe("2026-06-15T10:02:00.000000Z");
    expect((await verdict(s, "A1", 1002)).observation).not.toBeNull();
  });

  test("the same zone: the earliest sighting stands, whichever mark reaches the box first", async () => {
    const s = await setup();
    // Another handheld marks the car online at 12:32; this phone had marked it offline at 12:02.
    s.clock.advance(30 * MIN);
    expect((await mark(s, { registration_number: "A1", zone: 1002, note: "online" })).status).toBe(201);
    const earlier = await mark(s, {
      id: ID,
      registration_number: "A1",
      zone: 1002,
      note: "offline",
      marked_at: at(T0),
    });
    expect(earlier.status).toBe(201);
    expect(earlier.json.data).toMatchObject({
      first_seen_at: "2026-06-15T10:02:00.000000Z",
      note: "offline",
    });
    // A later sighting in the same zone is answered with the earlier one.
    const later = await mark(s, {
      id: "later-mark-1",
      registration_number: "A1",
      zone: 1002,
      marked_at: at(T0 + 10 * MIN),
    });
    expect(later.status).toBe(200);
    expect(later.json.data.first_seen_at).toBe("2026-06-15T10:02:00.000000Z");
    expect(marksStored(s)).toBe(1);
  });

  describe("refusals change nothing", () => {
    test("marked_at more than 2 minutes ahead of the box's clock: 400 at /marked_at", async () => {
      const s = await setup();
      const p = expectProblem(
        await mark(s, { id: ID, registration_number: "A1", zone: 1002, marked_at: at(T0 + 2 * MIN + 1000) }),
        400,
        "validation",
      );
      expect(p.errors).toEqual([
        {
          pointer: "/marked_at",
          message: "marked_at is more than 2 minutes later than the box's clock; check the phone's time",
        },
      ]);
      expect(marksStored(s)).toBe(0);
    });

    test("marked_at before today (site time) began: 400 at /marked_at, even a minute before midnight", async () => {
      const s = await setup();
      // 23:59 in Stockholm the day before; the box's day began at 2026-06-14T22:00Z.
      for (const old of ["2026-06-14T21:59:00Z", "2026-06-10T10:00:00Z"]) {
        const p = expectProblem(
          await mark(s, { id: ID, registration_number: "A1", zone: 1002, marked_at: old }),
          400,
          "validation",
        );
        expect(p.errors).toEqual([
          {
            pointer: "/marked_at",
            message: "marked_at is before today (site time) began: a mark counts on its own day only",
          },
        ]);
      }
      // Midnight itself is today.
      expect(
        (await mark(s, { registration_number: "A1", zone: 1002, marked_at: "2026-06-14T22:00:00Z" })).json
          .data.first_seen_at,
      ).toBe("2026-06-14T22:00:00.000000Z");
      expect(marksStored(s)).toBe(1);
    });

    test("marked_at that is not a date-time: 400 at /marked_at", async () => {
      const s = await setup();
      for (const bad of ["yesterday", "2026-06-15T25:00:00Z", ""]) {
        const p = expectProblem(
          await mark(s, { registration_number: "A1", zone: 1002, marked_at: bad }),
          400,
          "validation",
        );
        expect(p.errors?.[0]?.pointer).toBe("/marked_at");
      }
      expectProblem(
        await mark(s, { registration_number: "A1", zone: 1002, marked_at: 1_781_000_000 }),
        400,
        "validation",
      );
      expect(marksStored(s)).toBe(0);
    });

    test("an id that is not a phone's id (too short, spaces): 400 validation", async () => {
      const s = await setup();
      for (const id of ["short", "has spaces in it", "x".repeat(65), 42])
        expectProblem(await mark(s, { id, registration_number: "A1", zone: 1002 }), 400, "validation");
      expect(marksStored(s)).toBe(0);
    });

    test("a stored id with another car, zone, note or handheld: 409 mark-exists, the stored mark unchanged", async () => {
      const s = await setup();
      const body = { id: ID, registration_number: "A1", zone: 1002, note: "n", marked_at: at(T0) };
      expect((await mark(s, body)).status).toBe(201);
      const other = s.token("permits:read", "notices:write");
      for (const [changed, token] of [
        [{ registration_number: "B2" }, s.marker],
        [{ zone: 1003 }, s.marker],
        [{ note: "other" }, s.marker],
        [{}, other],
      ] as const) {
        const p = expectProblem(await mark(s, { ...body, ...changed }, token), 409, "mark-exists");
        expect(p.detail).toContain(`Mark id ${ID} is already stored for A1 in zone 1002`);
      }
      expect((await verdict(s, "A1", 1002)).observation).toMatchObject({
        first_seen_at: "2026-06-15T10:02:00.000000Z",
        note: "n",
      });
      expect(marksStored(s)).toBe(1);
    });

    test("marked later in another zone than this mark's time: 409 marked-later-elsewhere, the later mark stands", async () => {
      const s = await setup();
      s.clock.advance(30 * MIN);
      expect((await mark(s, { registration_number: "A1", zone: 1003 })).status).toBe(201);
      const p = expectProblem(
        await mark(s, { id: ID, registration_number: "A1", zone: 1002, marked_at: at(T0) }),
        409,
        "marked-later-elsewhere",
      );
      expect(p.detail).toBe(
        "A1 was marked in zone 1003 at 2026-06-15T10:32:00.000000Z, after this mark's time (2026-06-15T10:02:00.000000Z): the later mark stands",
      );
      expect(await verdict(s, "A1", 1002)).toMatchObject({ observation: null });
      expect((await verdict(s, "A1", 1003)).observation.first_seen_at).toBe("2026-06-15T10:32:00.000000Z");
      // One made earlier elsewhere is replaced as before: the car moved here since.
      expect(
        (await mark(s, { registration_number: "A1", zone: 1002, marked_at: at(T0 + 31 * MIN) })).status,
      ).toBe(201);
      expect(await verdict(s, "A1", 1003)).toMatchObject({ observation: null });
      expect(marksStored(s)).toBe(1);
    });
  });
});

describe("marks in the saved list", () => {
  test("a marked car with nothing else is among the zone's plates, and the phone gives the box's OVER TIME LIMIT", async () => {
    const s = await setup();
    expect(
      (await mark(s, { registration_number: "Mark 1", zone: 1002, note: "valves 1 and 6" })).status,
    ).toBe(201);
    expect((await mark(s, { registration_number: "ELSE1", zone: 1003 })).status).toBe(201);
    const res = await call(s.app, "GET", "/api/v1/tickets/zone/1002/permits", { token: s.reader });
    expect(res.status).toBe(200);
    expect(Value.Check(ZonePermits, res.json)).toBe(true);
    expect(res.json.plates).toEqual(["MARK1"]);
    expect(res.json.observations).toEqual([
      {
        registration_number: "Mark 1",
        plate_norm: "MARK1",
        zone: 1002,
        first_seen_at: "2026-06-15T10:02:00.000000Z",
        limit_seconds: 7200,
        note: "valves 1 and 6",
      },
    ]);
    const saved = savedZone(res.json);
    for (const later of [10 * MIN, 2 * H + 14 * MIN, 14 * H]) {
      s.clock.set(T0 + later);
      expect(offlineVerdict(saved, "mark-1", T0 + later)).toEqual(await verdict(s, "mark-1", 1002));
    }
    expect(offlineVerdict(saved, "mark-1", T0 + 2 * H + 14 * MIN)?.state).toBe("over_time_limit");
    // A mark changes the list: its ETag moves.
    s.clock.set(T0);
    const etag = res.headers.get("etag")!;
    await mark(s, { registration_number: "NEW1", zone: 1002 });
    const after = await call(s.app, "GET", "/api/v1/tickets/zone/1002/permits", {
      token: s.reader,
      headers: { "if-none-match": etag },
    });
    expect(after.status).toBe(200);
    expect(after.json.plates).toEqual(["MARK1", "NEW1"]);
  });
});
