import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { offlineVerdict, savedZone } from "../../../src/client/offline-verdict.ts";
import { patrolList } from "../../../src/client/patrol-list.ts";
import { applyChanges } from "../../../src/domain/permits/saved-list-changes.ts";
import { normalizePlate } from "../../../src/domain/plates.ts";
import { formatMicros } from "../../../src/domain/time/zoned.ts";
import {
  KnownZones,
  PlateChecks,
  ZonePermitChanges,
  ZonePermits,
} from "../../../src/modules/enforcement/model.ts";
import { askVerdict, call, expectProblem, testApp, testClock } from "../../support/app.ts";
import { cityLot } from "../../support/lots.ts";
import { seeded } from "../../support/random.ts";

const MIN = 60_000;
const H = 60 * MIN;
const T0 = Date.parse("2026-06-15T10:00:00Z");
const ZONES = [1001, 1002, 1003];
const PLATES = ["ABC123", "abc 123", "AB-C123", "XYZ789", "ÅÄÖ111", "KLM 456", "QRS.321", "TUV654"];

function setup(graceMinutes: number) {
  const clock = testClock(T0);
  const s = testApp({ timezone: "Europe/Stockholm", graceMinutes, recentHours: 24 }, clock);
  return {
    ...s,
    clock,
    reader: s.token("permits:read"),
    terminal: s.token("tickets:write"),
    admin: s.token("admin"),
    marker: s.token("permits:read", "notices:write"),
  };
}
type Box = ReturnType<typeof setup>;

const iso = (ms: number) => new Date(ms).toISOString();

/** A terminal's event for a ticket: what every event here sends besides its type, id, zone, plate and times. */
function ticketEvent(
  eventType: string,
  ticketId: string,
  zone: number,
  plate: string,
  start: number,
  end: number | null,
) {
  return {
    eventType,
    ticketId,
    zoneCode: String(zone),
    parkingLotId: null,
    startDate: iso(start),
    endDate: end === null ? null : iso(end),
    licenseNumber: plate,
    ticketCost: { amountInclVat: 1000, vatRate: 25, currencyCode: "SEK" },
  };
}

const postEvent = (s: Box, body: unknown) =>
  call(s.app, "POST", "/api/v1/actions/tickets", { token: s.terminal, body });

/**
 * A random site through every write path: tickets created, updated, stopped, moved and canceled
 * by a terminal, operator permits with and without weekly windows, some over midnight, in three
 * zones, starting and ending around the instant of the test.
 */
async function randomSite(s: Box, seed: number): Promise<void> {
  const r = seeded(seed);
  const when = () => T0 + (r.int(48 * 60) - 30 * 60) * MIN;
  const tickets: string[] = [];
  for (let i = 0; i < 40; i++) {
    const start = when();
    const end = r.rand() < 0.15 ? null : start + (5 + r.int(6 * 60)) * MIN;
    const id = `T${seed}-${i}`;
    const res = await postEvent(
      s,
      ticketEvent("TicketCreated", id, r.pick(ZONES), r.pick(PLATES), start, end),
    );
    expect(res.status).toBe(200);
    tickets.push(id);
  }
  for (const id of tickets) {
    const roll = r.rand();
    const plate = r.pick(PLATES);
    const start = when();
    let body: Record<string, unknown> | null = null;
    if (roll < 0.1) body = { eventType: "TicketCanceled", ticketId: id };
    else if (roll < 0.2)
      body = ticketEvent("TicketStopped", id, r.pick(ZONES), plate, start, start + r.int(3 * 60) * MIN + MIN);
    else if (roll < 0.3)
      body = ticketEvent("TicketUpdated", id, r.pick(ZONES), plate, start, start + r.int(8 * 60) * MIN + MIN);
    if (body) expect((await postEvent(s, body)).status).toBe(200);
  }
  for (let i = 0; i < 12; i++) {
    const start = when() - 48 * H;
    const days =
      r.rand() < 0.5
        ? []
        : Array.from({ length: 1 + r.int(3) }, () => {
            const from = r.int(24);
            const to = (from + 1 + r.int(12)) % 24;
            return {
              weekday: 1 + r.int(7),
              start_time: `${String(from).padStart(2, "0")}:00:00`,
              end_time: `${String(to).padStart(2, "0")}:30:00`,
            };
          });
    const res = await call(s.app, "POST", "/api/v1/permits", {
      token: s.admin,
      body: {
        registration_number: r.pick(PLATES),
        zone: r.pick(ZONES),
        start_at: iso(start),
        end_at: r.rand() < 0.3 ? null : iso(start + (49 + r.int(72)) * H),
        note: `permit ${i}`,
        days,
      },
    });
    expect(res.status).toBe(201);
  }
}

/**
 * Tickets that end around the instants judged (an hour either side of the test's start), so the
 * patrol list has cars in grace, just past it and ending soon. Its own draws, after the marks'.
 */
async function ticketsEndingNow(s: Box, seed: number): Promise<void> {
  const r = seeded(seed * 13);
  for (let i = 0; i < 24; i++) {
    const end = T0 + (r.int(120) - 60) * MIN + r.int(MIN);
    const res = await postEvent(
      s,
      ticketEvent(
        "TicketCreated",
        `E${seed}-${i}`,
        r.pick(ZONES),
        r.pick(PLATES),
        end - (10 + r.int(120)) * MIN,
        end,
      ),
    );
    expect(res.status).toBe(200);
  }
}

/** Cars only marked, with no ticket or permit anywhere. */
const MARKED_ONLY = ["MARK1", "mark 2"];

/**
 * Time limits in two zones (2 h and 45 min; the third has none) and attendants' marks there, made
 * this morning and last night (site time), some cars marked in both zones: the list the phone
 * saves must judge OVER TIME LIMIT, the day's end and a car seen elsewhere as the box does. Its
 * own random draws, after the site's, so the tickets and permits drawn above are unchanged.
 */
async function randomMarks(s: Box, seed: number): Promise<void> {
  for (const [zone, maxTime] of [
    [1001, 2 * 3600],
    [1002, 45 * 60],
  ] as const)
    expect(
      (
        await call(s.app, "POST", "/api/v1/parkings", {
          token: s.admin,
          body: { ...cityLot(), zone_number: zone, max_time: maxTime },
        })
      ).status,
    ).toBe(201);
  const r = seeded(seed * 13);
  for (let i = 0; i < 14; i++) {
    s.clock.set(T0 - r.int(16 * 60) * MIN);
    const res = await call(s.app, "POST", "/api/v1/attendants/observations", {
      token: s.marker,
      body: {
        registration_number: r.pick([...PLATES, ...MARKED_ONLY]),
        zone: r.pick([1001, 1002]),
        note: `mark ${i}`,
      },
    });
    // The clock is set back and forth: a mark timed before the car's mark in another zone is
    // refused (409 marked-later-elsewhere), and the later mark stands.
    expect([200, 201, 409]).toContain(res.status);
  }
  s.clock.set(T0);
}

const online = (s: Box, plate: string, zone: number) => askVerdict(s.app, s.reader, plate, zone);

describe("the handheld's offline verdict is the box's verdict", () => {
  for (const [seed, grace] of [
    [1, 0],
    [2, 10],
    [3, 90],
    [4, 30],
    [5, 0],
  ] as const)
    test(`random site (seed ${seed}, grace ${grace} min): every plate, every zone, now and later, marks included`, async () => {
      const s = setup(grace);
      await randomSite(s, seed);
      await randomMarks(s, seed);
      await ticketsEndingNow(s, seed);
      const r = seeded(seed * 7);
      let compared = 0;
      const states = new Set<string>();
      const reasons = new Set<string>();
      for (const zone of ZONES) {
        s.clock.set(T0);
        const res = await call(s.app, "GET", `/api/v1/tickets/zone/${zone}/permits`, { token: s.reader });
        expect(res.status).toBe(200);
        expect(Value.Check(ZonePermits, res.json)).toBe(true);
        const saved = savedZone(res.json);
        // Now, and at later instants without writes in between: the saved list judges as the box.
        for (const later of [0, 1, 7, 45, 61, 179, 600, 1439].map((m) => m * MIN + r.int(MIN))) {
          s.clock.set(T0 + later);
          // The phone's patrol list, made as the page makes it: the box's verdict says the same of every car.
          const patrol = new Map(
            patrolList(saved, T0 + later, { here: null, lots: new Map() }).map((e) => [e.plate, e]),
          );
          for (const typed of [...PLATES, ...MARKED_ONLY, "NOPE1", "abc.123"]) {
            const box = await online(s, typed, zone);
            const phone = offlineVerdict(saved, typed, T0 + later);
            const listed = patrol.get(normalizePlate(typed));
            expect(
              listed
                ? { reason: listed.reason, at: listed.at === null ? null : formatMicros(listed.at) }
                : null,
            ).toEqual(phone === null ? null : box.patrol);
            if (listed) reasons.add(listed.reason);
            if (phone === null) {
              // Not among the zone's plates: the box finds nothing for this zone either.
              expect(["valid_elsewhere", "none"]).toContain(box.state);
              expect(box.permits.filter((p: { zone: number }) => p.zone === zone)).toEqual([]);
            } else {
              expect(phone).toEqual(box);
              compared++;
              states.add(box.state);
              if (box.observation) states.add("marked");
            }
          }
        }
      }
      expect(compared).toBeGreaterThan(50);
      // The marks were judged, over the limit and under it.
      expect(states.has("over_time_limit")).toBe(true);
      expect(states.has("marked")).toBe(true);
      // The patrol list was compared with the box on cars due for several reasons.
      expect(reasons.size).toBeGreaterThanOrEqual(grace === 0 ? 3 : 4);
    });

  test("a plate typed with dots, spaces, dashes or in lower case is found in the saved list", async () => {
    const s = setup(0);
    const res = await postEvent(s, ticketEvent("TicketCreated", "1", 1002, "ABC123", T0 - H, T0 + H));
    expect(res.status).toBe(200);
    const saved = savedZone(
      (await call(s.app, "GET", "/api/v1/tickets/zone/1002/permits", { token: s.reader })).json,
    );
    for (const typed of ["abc.123", "ABC 123", "abc-123", "Abc123"])
      expect(offlineVerdict(saved, typed, T0)?.state).toBe("valid_here");
    expect(offlineVerdict(saved, "ABD123", T0)).toBeNull();
  });
});

describe("GET /api/v1/tickets/zone/{zone}/permits", () => {
  test("the zone's plates only, with their permits in every zone; ETag and 304; recorded as a zone list", async () => {
    const s = setup(10);
    const send = (id: string, plate: string, zone: number) =>
      postEvent(s, ticketEvent("TicketCreated", id, zone, plate, T0 - H, T0 + H));
    await send("a", "HERE1", 1002);
    await send("b", "HERE1", 1001);
    await send("c", "ELSE1", 1001);
    const res = await call(s.app, "GET", "/api/v1/tickets/zone/1002/permits", { token: s.reader });
    expect(res.status).toBe(200);
    expect(res.json.plates).toEqual(["HERE1"]);
    expect(res.json.permits.map((p: { id: string; zone: number }) => [p.id, p.zone]).sort()).toEqual([
      ["a", 1002],
      ["b", 1001],
    ]);
    expect(res.json).toMatchObject({
      zone: 1002,
      grace_minutes: 10,
      recent_hours: 24,
      timezone: "Europe/Stockholm",
    });
    const etag = res.headers.get("etag")!;
    // A minute later, nothing changed: 304, though the list would be taken at another instant.
    s.clock.advance(MIN);
    const again = await call(s.app, "GET", "/api/v1/tickets/zone/1002/permits", {
      token: s.reader,
      headers: { "if-none-match": etag },
    });
    expect(again.status).toBe(304);
    // A write to one of its plates elsewhere changes it.
    await send("d", "HERE1", 1003);
    const changed = await call(s.app, "GET", "/api/v1/tickets/zone/1002/permits", {
      token: s.reader,
      headers: { "if-none-match": etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.json.taken_at).toBe("2026-06-15T10:01:00.000000Z");
    s.lookupRecorder.flush();
    const page = await call(s.app, "GET", "/api/v1/lookups?limit=10", { token: s.admin });
    expect(page.json.data[0]).toMatchObject({ by: "zone_list", query: "1002", results: 1 });
  });

  test("?since=ETAG: the changes from the version the handheld holds, which applied give the whole list", async () => {
    const s = setup(10);
    const send = (type: string, id: string, plate: string, zone: number, end = T0 + H) =>
      postEvent(s, ticketEvent(type, id, zone, plate, T0 - H, end));
    const lot = { ...cityLot(), zone_number: 1002, max_time: 7200 };
    expect((await call(s.app, "POST", "/api/v1/parkings", { token: s.admin, body: lot })).status).toBe(201);
    for (let i = 0; i < 30; i++) await send("TicketCreated", `z${i}`, `ZON${100 + i}`, 1002);
    await send("TicketCreated", "x", "MOVE1", 1002);
    const path = "/api/v1/tickets/zone/1002/permits";
    const first = await call(s.app, "GET", path, { token: s.reader });
    const held = first.json as ZonePermits;
    const heldTag = first.headers.get("etag")!;
    // A car arrives, one's ticket moves to another zone, another's is extended; a mark is made.
    s.clock.advance(MIN);
    await send("TicketCreated", "new", "NEW1", 1002);
    await send("CreateOrUpdate", "x", "MOVE1", 1003);
    await send("CreateOrUpdate", "z3", "ZON103", 1002, T0 + 3 * H);
    expect(
      (
        await call(s.app, "POST", "/api/v1/attendants/observations", {
          token: s.marker,
          body: { registration_number: "ZON105", zone: 1002 },
        })
      ).status,
    ).toBe(201);
    const changes = await call(s.app, "GET", `${path}?since=${encodeURIComponent(heldTag)}`, {
      token: s.reader,
    });
    expect(changes.status).toBe(200);
    expect(Value.Check(ZonePermitChanges, changes.json)).toBe(true);
    expect(changes.json).toMatchObject({
      since: heldTag,
      removed: ["MOVE1"],
      plates: ["NEW1", "ZON103", "ZON105"],
    });
    const whole = await call(s.app, "GET", path, { token: s.reader });
    expect(changes.headers.get("etag")).toBe(whole.headers.get("etag"));
    const applied = applyChanges(held, changes.json as ZonePermitChanges);
    expect({ ...held, ...applied, taken_at: whole.json.taken_at }).toEqual(whole.json);
    // Far smaller than the list: what a handheld in a busy zone downloads each time.
    expect(changes.text.length).toBeLessThan(whole.text.length / 4);
    // Its current version: 304; a version the box no longer knows: the whole list.
    const current = await call(
      s.app,
      "GET",
      `${path}?since=${encodeURIComponent(whole.headers.get("etag")!)}`,
      {
        token: s.reader,
        headers: { "if-none-match": whole.headers.get("etag")! },
      },
    );
    expect(current.status).toBe(304);
    // The same version asked again: the same changes, made once.
    const twice = await call(s.app, "GET", `${path}?since=${encodeURIComponent(heldTag)}`, {
      token: s.reader,
    });
    expect(twice.text).toBe(changes.text);
    // Over a quarter of the list changed: the whole list, made and compressed once for all.
    const wholeTag = whole.headers.get("etag")!;
    for (let i = 0; i < 20; i++) await send("TicketCreated", `m${i}`, `MANY${100 + i}`, 1002);
    const many = await call(s.app, "GET", `${path}?since=${encodeURIComponent(wholeTag)}`, {
      token: s.reader,
    });
    expect(many.json.since).toBeUndefined();
    expect(many.json.plates.length).toBe(51);
    const unknown = await call(s.app, "GET", `${path}?since=%22nope%22`, { token: s.reader });
    expect(unknown.json.since).toBeUndefined();
    expect(unknown.json.plates.length).toBe(51);
    expectProblem(await call(s.app, "GET", `${path}?since=`, { token: s.reader }), 400, "validation");
  });

  test("a zone that is not a zone number is a 400", async () => {
    const s = setup(0);
    expectProblem(
      await call(s.app, "GET", "/api/v1/tickets/zone/x1/permits", { token: s.reader }),
      400,
      "validation",
    );
  });
});

describe("GET /api/v1/attendants/zones", () => {
  test("lots' zones with names and map points, and zones with tickets or permits in the last 30 days", async () => {
    const s = setup(0);
    const lot = await call(s.app, "POST", "/api/v1/parkings", {
      token: s.admin,
      body: {
        ...cityLot(),
        zone_number: 1001,
        parking_lot_location: [{ latitude: 59.33, longitude: 18.07 }],
      },
    });
    expect(lot.status).toBe(201);
    const send = (id: string, zone: number, end: number) =>
      postEvent(s, ticketEvent("TicketCreated", id, zone, "ABC123", end - H, end));
    await send("recent", 1002, T0 - 29 * 24 * H);
    await send("old", 1003, T0 - 31 * 24 * H);
    expect(
      (
        await call(s.app, "POST", "/api/v1/permits", {
          token: s.admin,
          body: {
            registration_number: "RES1",
            zone: 1004,
            start_at: iso(T0 - 400 * 24 * H),
            end_at: null,
            note: "",
          },
        })
      ).status,
    ).toBe(201);
    const res = await call(s.app, "GET", "/api/v1/attendants/zones", { token: s.reader });
    expect(res.status).toBe(200);
    expect(Value.Check(KnownZones, res.json)).toBe(true);
    expect(res.json.data.map((z: { zone: number; recent: boolean }) => [z.zone, z.recent])).toEqual([
      [1001, false],
      [1002, true],
      [1004, true],
    ]);
    expect(res.json.data[0].lots[0]).toMatchObject({ locations: [{ latitude: 59.33, longitude: 18.07 }] });
  });
});

test("past 1,000 recent zones the list says it is not complete (the lots' zones always listed)", async () => {
  const s = setup(0);
  expect(
    (
      await call(s.app, "POST", "/api/v1/parkings", {
        token: s.admin,
        body: { ...cityLot(), zone_number: 999_999 },
      })
    ).status,
  ).toBe(201);
  for (let z = 1; z <= 1_001; z++)
    expect(
      (await postEvent(s, ticketEvent("TicketCreated", `z${z}`, z, "ABC123", T0 - H, T0 + H))).status,
    ).toBe(200);
  const res = await call(s.app, "GET", "/api/v1/attendants/zones", { token: s.reader });
  expect(res.json.complete).toBe(false);
  expect(res.json.data.length).toBe(1_001);
  expect(res.json.data.at(-1).zone).toBe(999_999);
}, 60_000);

describe("GET /api/v1/attendants/checks", () => {
  test("today's verdicts and plate lookups of the car, newest first, written or still waiting", async () => {
    const s = setup(0);
    s.clock.set(Date.parse("2026-06-14T21:30:00Z")); // yesterday in Stockholm (23:30)
    await online(s, "ABC123", 1001);
    s.clock.set(Date.parse("2026-06-15T06:00:00Z"));
    await online(s, "abc 123", 1002);
    s.lookupRecorder.flush();
    s.clock.set(Date.parse("2026-06-15T07:00:00Z"));
    expect(
      (
        await call(s.app, "GET", "/api/v1/attendants/check-tickets?registration_number=ABC-123", {
          token: s.reader,
        })
      ).status,
    ).toBe(200);
    await online(s, "XYZ789", 1002);
    const res = await call(s.app, "GET", "/api/v1/attendants/checks?registration_number=abc123", {
      token: s.reader,
    });
    expect(res.status).toBe(200);
    expect(Value.Check(PlateChecks, res.json)).toBe(true);
    expect(
      res.json.data.map((c: { at: string; zone: number | null; verdict: string | null }) => [
        c.at,
        c.zone,
        c.verdict,
      ]),
    ).toEqual([
      ["2026-06-15T07:00:00.000000Z", null, null],
      ["2026-06-15T06:00:00.000000Z", 1002, "none"],
    ]);
  });

  test("only this plate's: not another plate's verdict that starts with it and '@', and an all-digit plate past its number's zone lookups", async () => {
    const s = setup(0);
    s.clock.set(Date.parse("2026-06-15T06:00:00Z"));
    await online(s, "1234", 5);
    await online(s, "ZZZ9", 6);
    await online(s, "ZZZ9@77", 5);
    s.lookupRecorder.flush();
    // Sixty lookups of zone 1234 after it: their query is the plate's text too.
    for (let i = 0; i < 60; i++)
      expect(
        (await call(s.app, "GET", "/api/v1/attendants/check-tickets?zone=1234", { token: s.reader })).status,
      ).toBe(200);
    s.lookupRecorder.flush();
    const digits = await call(s.app, "GET", "/api/v1/attendants/checks?registration_number=1234", {
      token: s.reader,
    });
    expect(digits.json.data.map((c: { zone: number }) => c.zone)).toEqual([5]);
    const zzz = await call(s.app, "GET", "/api/v1/attendants/checks?registration_number=ZZZ9", {
      token: s.reader,
    });
    expect(zzz.json.data.map((c: { zone: number }) => c.zone)).toEqual([6]);
  });

  test("reading a car's checks is itself recorded (who, when, which plate), in the audit and not among the car's checks", async () => {
    const s = setup(0);
    s.clock.set(Date.parse("2026-06-15T06:00:00Z"));
    await online(s, "ABC123", 1001);
    s.clock.set(Date.parse("2026-06-15T06:05:00Z"));
    const reader = s.credentials.createToken({ name: "handheld-7", scopes: ["permits:read"] }).token;
    const first = await call(s.app, "GET", "/api/v1/attendants/checks?registration_number=abc-123", {
      token: reader,
    });
    expect(first.json.data.length).toBe(1);
    // Read again, before and after the records are written: the reads are not checks of the car.
    const again = await call(s.app, "GET", "/api/v1/attendants/checks?registration_number=ABC123", {
      token: reader,
    });
    expect(again.json.data.length).toBe(1);
    s.lookupRecorder.flush();
    const later = await call(s.app, "GET", "/api/v1/attendants/checks?registration_number=ABC123", {
      token: reader,
    });
    expect(later.json.data.length).toBe(1);
    s.lookupRecorder.flush();
    const audit = await call(s.app, "GET", "/api/v1/lookups?registration_number=ABC123", { token: s.admin });
    expect(audit.status).toBe(200);
    const reads = audit.json.data.filter((r: { by: string }) => r.by === "checks");
    expect(reads.length).toBe(3);
    expect(reads[0]).toMatchObject({
      at: "2026-06-15T06:05:00.000000Z",
      credential: "token:handheld-7",
      by: "checks",
      query: "ABC123",
      results: 1,
      verdict: null,
    });
    // By who asked, too: what an operator looks for when a car's history was read.
    const byWho = await call(s.app, "GET", "/api/v1/lookups?credential=token:handheld-7", { token: s.admin });
    expect(byWho.json.data.map((r: { by: string }) => r.by)).toEqual(["checks", "checks", "checks"]);
  });

  test("without a plate, or with one that cannot be a plate: 400", async () => {
    const s = setup(0);
    expectProblem(
      await call(s.app, "GET", "/api/v1/attendants/checks", { token: s.reader }),
      400,
      "validation",
    );
    expectProblem(
      await call(s.app, "GET", "/api/v1/attendants/checks?registration_number=%20-%20", { token: s.reader }),
      400,
      "validation",
    );
  });
});
