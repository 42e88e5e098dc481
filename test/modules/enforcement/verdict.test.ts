import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { Verdict } from "../../../src/modules/enforcement/model.ts";
import { permitLookups } from "../../../src/platform/store/schema/index.ts";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";
import { cityLot } from "../../support/lots.ts";
import { seedTicket } from "../../support/seed.ts";

const VERDICT = "/api/v1/attendants/verdict";
const CHECK = "/api/v1/attendants/check-tickets";

// 2026-06-15 is a Monday; Stockholm is UTC+2.
function setup(config = {}) {
  const clock = testClock("2026-06-15T20:00:00Z");
  const s = testApp({ timezone: "Europe/Stockholm", ...config }, clock);
  return { ...s, clock, reader: s.token("permits:read"), admin: s.token("admin") };
}

const ask = (s: ReturnType<typeof setup>, plate: string, zone: number | string) =>
  call(s.app, "GET", `${VERDICT}?registration_number=${encodeURIComponent(plate)}&zone=${zone}`, {
    token: s.reader,
  });

async function mondayEvenings(s: ReturnType<typeof setup>) {
  const res = await call(s.app, "POST", "/api/v1/permits", {
    token: s.admin,
    body: {
      registration_number: "ABC123",
      zone: 1002,
      start_at: "2026-01-01T00:00:00",
      end_at: "2027-06-30T00:00:00",
      note: "resident",
      days: [{ weekday: 1, start_time: "21:00:00", end_time: "24:00:00" }],
    },
  });
  expect(res.status).toBe(201);
  return res.json.data.id as number;
}

describe("GET /api/v1/attendants/verdict", () => {
  test("inside a Monday 21:00-24:00 window: valid here until midnight, not the permit's end", async () => {
    const s = setup();
    const id = await mondayEvenings(s);
    const res = await ask(s, "abc 123", 1002);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      registration_number: "ABC123",
      zone: 1002,
      state: "valid_here",
      checked_at: "2026-06-15T20:00:00.000000Z",
      valid_until: "2026-06-15T22:00:00.000000Z",
      ended_at: null,
      next_opening: null,
      zones: [],
      grace_minutes: 0,
      observation: null,
      patrol: null,
      permits: [
        {
          kind: "permit",
          id: String(id),
          registration_number: "ABC123",
          zone: 1002,
          state: "valid",
          start_at: "2025-12-31T23:00:00.000000Z",
          end_at: "2027-06-29T22:00:00.000000Z",
          valid_until: "2026-06-15T22:00:00.000000Z",
          ended_at: null,
          next_opening: null,
          ticket_status: null,
          parking_lot_id: null,
          lot_name: null,
          note: "resident",
          windows: [{ weekday: 1, start_time: "21:00:00", end_time: "24:00:00" }],
        },
      ],
    });
  });

  test("outside the window: outside hours with the next opening (check-tickets lists it unchanged)", async () => {
    const s = setup();
    await mondayEvenings(s);
    s.clock.set("2026-06-16T08:00:00Z");
    const res = await ask(s, "ABC123", 1002);
    expect(res.json.state).toBe("outside_hours");
    expect(res.json.next_opening).toBe("2026-06-22T19:00:00.000000Z");
    expect(res.json.permits[0].state).toBe("outside_hours");
    const check = await call(s.app, "GET", `${CHECK}?registration_number=ABC123`, { token: s.reader });
    expect(check.json).toEqual([expect.objectContaining({ zone: 1002, active: false })]);
  });

  test("a ticket for another zone: valid elsewhere, naming the zone", async () => {
    const s = setup();
    const lot = await call(s.app, "POST", "/api/v1/parkings", {
      token: s.admin,
      body: { ...cityLot(), id: 7, name: "Stora torget" },
    });
    expect(lot.status).toBe(201);
    seedTicket(s.ctx, {
      ticketId: "4711",
      plate: "XYZ 999",
      zone: 1001,
      parkingLotId: 7,
      start: "2026-06-15T19:00:00Z",
      end: "2026-06-15T21:30:00Z",
    });
    const res = await ask(s, "xyz999", 1002);
    expect(res.json).toMatchObject({
      state: "valid_elsewhere",
      zones: [1001],
      valid_until: "2026-06-15T21:30:00.000000Z",
    });
    expect(res.json.permits[0]).toMatchObject({
      kind: "ticket",
      id: "4711",
      state: "valid",
      ticket_status: "running",
      parking_lot_id: 7,
      lot_name: "Stora torget",
      note: "",
    });
    const here = await ask(s, "XYZ999", 1001);
    expect(here.json.state).toBe("valid_here");
  });

  test("--grace-minutes: a ticket here that just ended is in grace, then not", async () => {
    const s = setup({ graceMinutes: 5 });
    seedTicket(s.ctx, {
      ticketId: "T1",
      plate: "GRA 1",
      zone: 1002,
      start: "2026-06-15T18:00:00Z",
      end: "2026-06-15T19:57:00Z",
      status: "stopped",
    });
    const res = await ask(s, "GRA1", 1002);
    expect(res.json).toMatchObject({
      state: "grace",
      ended_at: "2026-06-15T19:57:00.000000Z",
      valid_until: "2026-06-15T20:02:00.000000Z",
      grace_minutes: 5,
    });
    s.clock.set("2026-06-15T20:02:00Z");
    expect((await ask(s, "GRA1", 1002)).json.state).toBe("none");
    const off = setup();
    seedTicket(off.ctx, {
      ticketId: "T1",
      plate: "GRA 1",
      zone: 1002,
      start: "2026-06-15T18:00:00Z",
      end: "2026-06-15T19:57:00Z",
    });
    expect((await ask(off, "GRA1", 1002)).json.state).toBe("none");
  });

  test("canceled tickets count for nothing; an unknown plate is none", async () => {
    const s = setup();
    seedTicket(s.ctx, {
      ticketId: "C1",
      plate: "CAN1",
      zone: 1002,
      start: "2026-06-15T19:00:00Z",
      status: "canceled",
    });
    expect((await ask(s, "CAN1", 1002)).json).toMatchObject({ state: "none", permits: [] });
    expect((await ask(s, "NOPE1", 1002)).json.state).toBe("none");
  });

  test("recorded like a lookup, as PLATE@ZONE", async () => {
    const s = setup();
    await mondayEvenings(s);
    await ask(s, "abc-123", 1002);
    s.lookupRecorder.flush();
    const rows = s.ctx.store.db.select().from(permitLookups).all();
    expect(rows).toEqual([expect.objectContaining({ by: "verdict", query: "ABC123@1002", results: 1 })]);
  });

  test("both parameters are required and checked; scope permits:read", async () => {
    const s = setup();
    for (const q of ["?registration_number=ABC123", "?zone=1002", "", "?registration_number=&zone=1002"]) {
      const res = await call(s.app, "GET", `${VERDICT}${q}`, { token: s.reader });
      expectProblem(res, 400, "validation");
    }
    expectProblem(await ask(s, "ABC123", "12a"), 400, "validation");
    expectProblem(await ask(s, "A\u0001B", 1002), 400, "validation");
    const terminal = s.token("tickets:write");
    const res = await call(s.app, "GET", `${VERDICT}?registration_number=A1&zone=1`, { token: terminal });
    expectProblem(res, 403, "insufficient-scope");
    expectProblem(await call(s.app, "GET", `${VERDICT}?registration_number=A1&zone=1`), 401, "unauthorized");
  });
});

describe("the verdict in /openapi.json", () => {
  test("with an example of every state, each matching the route's answer shape", async () => {
    const s = setup();
    const doc = (await call(s.app, "GET", "/openapi.json")).json;
    const op = doc.paths["/api/v1/attendants/verdict"].get;
    const examples = op.responses["200"].content["application/json"].examples;
    expect(Object.keys(examples)).toEqual([
      "valid_here",
      "valid_elsewhere",
      "grace",
      "outside_hours",
      "over_time_limit",
      "none",
    ]);
    for (const [state, e] of Object.entries(examples as Record<string, { value: { state: string } }>))
      expect([state, e.value.state, Value.Check(Verdict, e.value)]).toEqual([state, state, true]);
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      "camera_read",
      "registration_number",
      "zone",
    ]);
  });
});
