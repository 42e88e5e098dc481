import { describe, expect, test } from "bun:test";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";

const BASE = "/api/v1/permits";

function setup() {
  const clock = testClock("2026-06-15T12:00:00Z");
  const s = testApp({ timezone: "Europe/Stockholm" }, clock);
  return { ...s, clock, admin: s.token("admin") };
}

const resident = {
  registration_number: "ABC 123",
  zone: 1234,
  start_at: "2026-06-01T00:00:00",
  end_at: "2026-12-31T23:59:59+01:00",
  note: "resident, Storgatan 1",
  days: [
    { weekday: 1, start_time: "18:00:00", end_time: "08:00:00" },
    { weekday: 6, start_time: "00:00:00", end_time: "24:00:00" },
  ],
};

describe("operator permits: create, read, list", () => {
  test("POST answers 201 with Location and the stored permit, times in UTC", async () => {
    const s = setup();
    const res = await call(s.app, "POST", BASE, { token: s.admin, body: resident });
    expect(res.status).toBe(201);
    const id = res.json.data.id;
    expect(res.headers.get("location")).toBe(`${BASE}/${id}`);
    expect(res.json.data).toEqual({
      id,
      registration_number: "ABC 123",
      zone: 1234,
      start_at: "2026-05-31T22:00:00.000000Z",
      end_at: "2026-12-31T22:59:59.000000Z",
      note: "resident, Storgatan 1",
      days: resident.days,
      active: false, // Monday 14:00 in Stockholm: outside both windows
      created_at: "2026-06-15T12:00:00.000000Z",
      updated_at: "2026-06-15T12:00:00.000000Z",
      created_by: expect.stringMatching(/^token:/),
    });
    const one = await call(s.app, "GET", `${BASE}/${id}`, { token: s.admin });
    expect(one.json).toEqual(res.json);
  });

  test("defaults: no end is open-ended, no note is empty, no days is always", async () => {
    const s = setup();
    const res = await call(s.app, "POST", BASE, {
      token: s.admin,
      body: { registration_number: "XYZ999", zone: 7, start_at: "2026-06-15T10:00:00Z" },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ zone: 7, end_at: null, note: "", days: [], active: true });
  });

  test("list, filtered by plate (normalized) and zone", async () => {
    const s = setup();
    await call(s.app, "POST", BASE, { token: s.admin, body: resident });
    await call(s.app, "POST", BASE, { token: s.admin, body: { ...resident, zone: 99 } });
    await call(s.app, "POST", BASE, { token: s.admin, body: { ...resident, registration_number: "DEF456" } });
    const all = await call(s.app, "GET", BASE, { token: s.admin });
    expect(all.json.data).toHaveLength(3);
    const byPlate = await call(s.app, "GET", `${BASE}?registration_number=abc-123`, { token: s.admin });
    expect(byPlate.json.data.map((p: { zone: number }) => p.zone)).toEqual([1234, 99]);
    const both = await call(s.app, "GET", `${BASE}?registration_number=abc123&zone=99`, { token: s.admin });
    expect(both.json.data).toHaveLength(1);
    expect(all.json.next_cursor).toBeNull();
  });

  test("sorted by a column either way; all at once, or a page at a time with a limit", async () => {
    const s = setup();
    const issue = async (plate: string, zone: number, start: string, end: string | null) =>
      (
        await call(s.app, "POST", BASE, {
          token: s.admin,
          body: { registration_number: plate, zone, start_at: start, end_at: end },
        })
      ).json.data.id as number;
    const a = await issue("CCC333", 2, "2026-06-03T00:00:00Z", null);
    const b = await issue("AAA111", 1, "2026-06-01T00:00:00Z", "2026-07-01T00:00:00Z");
    const c = await issue("bbb 222", 2, "2026-06-02T00:00:00Z", "2026-08-01T00:00:00Z");
    const list = async (q: string) => {
      const ids: number[] = [];
      let cursor: string | null = null;
      do {
        const res = await call(s.app, "GET", `${BASE}${q}${cursor ? `&cursor=${cursor}` : ""}`, {
          token: s.admin,
        });
        expect(res.status).toBe(200);
        ids.push(...res.json.data.map((p: { id: number }) => p.id));
        cursor = res.json.next_cursor;
      } while (cursor);
      return ids;
    };
    expect(await list("?sort=-id")).toEqual([c, b, a]);
    expect(await list("?sort=registration_number&limit=1")).toEqual([b, c, a]);
    expect(await list("?sort=start_at&limit=2")).toEqual([b, c, a]);
    // Open-ended (a) first by end ascending, last descending.
    expect(await list("?sort=end_at&limit=1")).toEqual([a, b, c]);
    expect(await list("?sort=-end_at&limit=1")).toEqual([c, b, a]);
    expect(await list("?sort=zone&limit=1")).toEqual([b, a, c]);
    const page = await call(s.app, "GET", `${BASE}?limit=2`, { token: s.admin });
    expect(page.json.data).toHaveLength(2);
    expect(page.json.next_cursor).toEqual(expect.any(String));
    expectProblem(
      await call(s.app, "GET", `${BASE}?sort=zone&cursor=${page.json.next_cursor}`, { token: s.admin }),
      400,
      "validation",
    );
    for (const bad of ["?sort=note", "?limit=0", "?limit=501", "?cursor=x"])
      expectProblem(await call(s.app, "GET", `${BASE}${bad}`, { token: s.admin }), 400, "validation");
  });
});

describe("operator permits: change and delete", () => {
  test("PUT replaces the whole permit; left-out fields take their defaults", async () => {
    const s = setup();
    const id = (await call(s.app, "POST", BASE, { token: s.admin, body: resident })).json.data.id;
    s.clock.advance(60_000);
    const res = await call(s.app, "PUT", `${BASE}/${id}`, {
      token: s.admin,
      body: { registration_number: "ABC123", zone: 1234, start_at: "2026-06-01T00:00:00Z" },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      registration_number: "ABC123",
      end_at: null,
      note: "",
      days: [],
      active: true,
      created_at: "2026-06-15T12:00:00.000000Z",
      updated_at: "2026-06-15T12:01:00.000000Z",
    });
  });

  test("PATCH changes the given fields and checks the result as a whole", async () => {
    const s = setup();
    const id = (await call(s.app, "POST", BASE, { token: s.admin, body: resident })).json.data.id;
    const res = await call(s.app, "PATCH", `${BASE}/${id}`, {
      token: s.admin,
      body: { note: "moved out", days: [] },
    });
    expect(res.json.data).toMatchObject({ note: "moved out", days: [], active: true, zone: 1234 });
    expect(res.json.data.end_at).toBe("2026-12-31T22:59:59.000000Z");
    const open = await call(s.app, "PATCH", `${BASE}/${id}`, { token: s.admin, body: { end_at: null } });
    expect(open.json.data.end_at).toBeNull();
    const bad = await call(s.app, "PATCH", `${BASE}/${id}`, {
      token: s.admin,
      body: { end_at: "2026-01-01T00:00:00Z" },
    });
    expect(expectProblem(bad, 400, "validation").errors).toEqual([
      { pointer: "/end_at", message: "end_at must be after start_at" },
    ]);
    expect((await call(s.app, "GET", `${BASE}/${id}`, { token: s.admin })).json.data.end_at).toBeNull();
    expectProblem(
      await call(s.app, "PATCH", `${BASE}/${id}`, { token: s.admin, body: {} }),
      400,
      "validation",
    );
  });

  test("DELETE answers 204; after that the permit is gone everywhere", async () => {
    const s = setup();
    const reader = s.token("permits:read");
    const id = (
      await call(s.app, "POST", BASE, {
        token: s.admin,
        body: { registration_number: "GONE1", zone: 3, start_at: "2026-06-01T00:00:00Z" },
      })
    ).json.data.id;
    expect((await call(s.app, "GET", "/api/v1/tickets/zone/3", { token: reader })).json.data).toEqual([
      "GONE1",
    ]);
    const del = await call(s.app, "DELETE", `${BASE}/${id}`, { token: s.admin });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expectProblem(await call(s.app, "GET", `${BASE}/${id}`, { token: s.admin }), 404, "permit-not-found");
    expectProblem(await call(s.app, "DELETE", `${BASE}/${id}`, { token: s.admin }), 404, "permit-not-found");
    expectProblem(
      await call(s.app, "PUT", `${BASE}/${id}`, { token: s.admin, body: resident }),
      404,
      "permit-not-found",
    );
    expect((await call(s.app, "GET", "/api/v1/tickets/zone/3", { token: reader })).json.data).toEqual([]);
  });
});

describe("operator permits: refused input changes nothing", () => {
  test("unknown fields are refused, at any depth, on POST, PUT and PATCH", async () => {
    const s = setup();
    const typo = await call(s.app, "POST", BASE, { token: s.admin, body: { ...resident, ende_at: null } });
    expect(expectProblem(typo, 400, "validation").errors).toEqual([
      { pointer: "/ende_at", message: "Unknown field" },
    ]);
    const deep = await call(s.app, "POST", BASE, {
      token: s.admin,
      body: {
        ...resident,
        days: [{ weekday: 1, start_time: "08:00:00", end_time: "09:00:00", weekdays: [2] }],
      },
    });
    expect(expectProblem(deep, 400, "validation").errors).toEqual([
      { pointer: "/days/0/weekdays", message: "Unknown field" },
    ]);
    expect((await call(s.app, "GET", BASE, { token: s.admin })).json.data).toEqual([]);
    const id = (await call(s.app, "POST", BASE, { token: s.admin, body: resident })).json.data.id;
    expectProblem(
      await call(s.app, "PUT", `${BASE}/${id}`, { token: s.admin, body: { ...resident, active: false } }),
      400,
      "validation",
    );
    expectProblem(
      await call(s.app, "PATCH", `${BASE}/${id}`, { token: s.admin, body: { notes: "x" } }),
      400,
      "validation",
    );
    expect((await call(s.app, "GET", `${BASE}/${id}`, { token: s.admin })).json.data.note).toBe(
      resident.note,
    );
  });

  test("every failing field is listed with a pointer", async () => {
    const s = setup();
    const res = await call(s.app, "POST", BASE, {
      token: s.admin,
      body: {
        registration_number: "",
        zone: "north",
        start_at: "2026-06-01T00:00:00Z",
        days: [{ weekday: 8, start_time: "25:00:00", end_time: "08:00:00" }],
      },
    });
    const pointers = expectProblem(res, 400, "validation")
      .errors!.map((e) => e.pointer)
      .sort();
    expect(pointers).toEqual(["/days/0/start_time", "/days/0/weekday", "/registration_number", "/zone"]);
  });

  test("dates and windows that cannot be", async () => {
    const s = setup();
    const post = (body: object) =>
      call(s.app, "POST", BASE, { token: s.admin, body: { ...resident, ...body } });
    const pointer = async (body: object) =>
      expectProblem(await post(body), 400, "validation").errors![0]!.pointer;
    expect(await pointer({ start_at: "yesterday" })).toBe("/start_at");
    expect(await pointer({ start_at: "2026-02-30T00:00:00Z" })).toBe("/start_at");
    expect(await pointer({ end_at: "2026-05-01T00:00:00Z" })).toBe("/end_at");
    expect(await pointer({ end_at: "2026-06-01T00:00:00" })).toBe("/end_at");
    expect(await pointer({ registration_number: " - " })).toBe("/registration_number");
    expect(await pointer({ days: [{ weekday: 1, start_time: "08:00:00", end_time: "08:00:00" }] })).toBe(
      "/days/0/end_time",
    );
    expect(await pointer({ days: [{ weekday: 1, start_time: "24:00:00", end_time: "08:00:00" }] })).toBe(
      "/days/0/start_time",
    );
    expect(await pointer({ days: [{ weekday: 1, start_time: "8:00", end_time: "09:00:00" }] })).toBe(
      "/days/0/start_time",
    );
    expect((await call(s.app, "GET", BASE, { token: s.admin })).json.data).toEqual([]);
    expectProblem(await call(s.app, "POST", BASE, { token: s.admin, body: "{" }), 400, "malformed-json");
    expectProblem(await call(s.app, "GET", `${BASE}/abc`, { token: s.admin }), 400, "validation");
    expectProblem(await call(s.app, "GET", `${BASE}/0`, { token: s.admin }), 400, "validation");
    expectProblem(await call(s.app, "GET", `${BASE}/999`, { token: s.admin }), 404, "permit-not-found");
  });
});

describe("operator permits: admin only", () => {
  test("permits:read and tickets:write are 403; no token is 401", async () => {
    const s = setup();
    for (const scope of ["permits:read", "tickets:write"] as const) {
      const token = s.token(scope);
      expectProblem(await call(s.app, "GET", BASE, { token }), 403, "insufficient-scope");
      expectProblem(await call(s.app, "POST", BASE, { token, body: resident }), 403, "insufficient-scope");
      expectProblem(await call(s.app, "DELETE", `${BASE}/1`, { token }), 403, "insufficient-scope");
    }
    expectProblem(await call(s.app, "POST", BASE, { body: resident }), 401, "unauthorized");
    expect((await call(s.app, "GET", BASE, { token: s.admin })).json.data).toEqual([]);
  });
});

test("credentials are checked before the body: no token and a bad body is 401, not 400", async () => {
  const s = setup();
  expectProblem(await call(s.app, "POST", BASE, { body: { zonee: 1 } }), 401, "unauthorized");
  expectProblem(await call(s.app, "POST", BASE, { body: { zone: "x" } }), 401, "unauthorized");
  expectProblem(await call(s.app, "GET", `${BASE}?zone=x`, {}), 401, "unauthorized");
  const reader = s.token("permits:read");
  expectProblem(
    await call(s.app, "PATCH", `${BASE}/1`, { token: reader, body: { x: 1 } }),
    403,
    "insufficient-scope",
  );
  // Tokens in the query string end up in logs: refused (test/platform/auth-limits.test.ts).
  const viaQuery = await call(s.app, "GET", `${BASE}?access_token=${s.admin}`);
  expectProblem(viaQuery, 401, "unauthorized");
});
