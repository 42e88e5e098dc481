import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { createContext } from "../../src/context.ts";
import { LotCatalog } from "../../src/lots/service.ts";
import { openStore } from "../../src/store/db.ts";
import { call, expectProblem, testApp } from "../support/app.ts";

/** A lot as an operator would send it: weekday day and night rates, Saturday pro rata. */
export const cityLot = () => ({
  name: "Centrum P-hus",
  number_of_spaces: 240,
  zone_number: 1234,
  max_time: 86_400,
  parking_lot_fee: [
    {
      cost_per_unit: 2000,
      unit: 1,
      start_time: "08:00:00",
      end_time: "18:00:00",
      type_of_day: 1,
      round: true,
    },
    {
      cost_per_unit: 500,
      unit: 1,
      start_time: "18:00:00",
      end_time: "08:00:00",
      type_of_day: 1,
      round: true,
    },
    {
      cost_per_unit: 1000,
      unit: 1,
      start_time: "10:00:00",
      end_time: "16:00:00",
      type_of_day: 2,
      round: false,
    },
  ],
  variable_fees: [],
  parking_lot_open: [{ type_of_day: 1, open_time: "06:00:00", close_time: "23:59:59" }],
  parking_lot_location: [{ latitude: 59.3326, longitude: 18.0649 }],
  active: true,
  max_fee: 25_000,
});

function setup() {
  const s = testApp();
  return { ...s, admin: s.token("admin") };
}

async function created(s: ReturnType<typeof setup>, body: unknown = cityLot()) {
  const res = await call(s.app, "POST", "/api/v1/parkings", { token: s.admin, body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.json.data;
}

describe("reading lots (public)", () => {
  test("an empty list is {data: []} with an ETag, no credentials needed", async () => {
    const s = setup();
    const res = await call(s.app, "GET", "/api/v1/parkings");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    expect(res.json).toEqual({ data: [] });
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-z]+"$/);
  });

  test("list and single lot carry every field of the interface, in order", async () => {
    const s = setup();
    const lot = await created(s);
    const list = await call(s.app, "GET", "/api/v1/parkings");
    expect(list.json.data).toEqual([lot]);
    expect(Object.keys(lot)).toEqual([
      "id",
      "name",
      "number_of_spaces",
      "zone_number",
      "max_time",
      "parking_lot_fee",
      "variable_fees",
      "parking_lot_open",
      "parking_lot_location",
      "active",
      "max_fee",
    ]);
    expect(Object.keys(lot.parking_lot_fee[0])).toEqual([
      "id",
      "cost_per_unit",
      "unit",
      "start_time",
      "end_time",
      "type_of_day",
      "round",
    ]);
    const one = await call(s.app, "GET", `/api/v1/parkings/${lot.id}`);
    expect(one.status).toBe(200);
    expect(one.json).toEqual({ data: lot });
    expect(one.headers.get("etag")).toBeTruthy();
  });

  test("If-None-Match answers 304; a write changes the ETag", async () => {
    const s = setup();
    const lot = await created(s);
    for (const path of ["/api/v1/parkings", `/api/v1/parkings/${lot.id}`, "/api/v1/parkings?active=true"]) {
      const first = await call(s.app, "GET", path);
      const etag = first.headers.get("etag")!;
      const again = await call(s.app, "GET", path, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
      expect(again.text).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      const listed = await call(s.app, "GET", path, { headers: { "if-none-match": `"x", W/${etag}` } });
      expect(listed.status).toBe(304);
      const other = await call(s.app, "GET", path, { headers: { "if-none-match": '"stale"' } });
      expect(other.status).toBe(200);
    }
    const before = (await call(s.app, "GET", "/api/v1/parkings")).headers.get("etag")!;
    await call(s.app, "PATCH", `/api/v1/parkings/${lot.id}`, { token: s.admin, body: { max_fee: 1 } });
    const after = await call(s.app, "GET", "/api/v1/parkings", { headers: { "if-none-match": before } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(before);
    expect(after.json.data[0].max_fee).toBe(1);
  });

  test("?active=true lists active lots only, ?active=false inactive ones", async () => {
    const s = setup();
    const a = await created(s);
    const b = await created(s, { ...cityLot(), name: "Stängd", active: false });
    const ids = async (q: string) =>
      (await call(s.app, "GET", `/api/v1/parkings${q}`)).json.data.map((l: { id: number }) => l.id);
    expect(await ids("")).toEqual([a.id, b.id]);
    expect(await ids("?active=true")).toEqual([a.id]);
    expect(await ids("?active=false")).toEqual([b.id]);
    const bad = await call(s.app, "GET", "/api/v1/parkings?active=maybe");
    const p = expectProblem(bad, 400, "validation");
    expect(p.errors![0]!.pointer).toBe("/active");
  });

  test("unknown lot is 404 lot-not-found; a non-numeric id is 400", async () => {
    const s = setup();
    const res = await call(s.app, "GET", "/api/v1/parkings/999");
    expect(expectProblem(res, 404, "lot-not-found").detail).toContain("999");
    const bad = expectProblem(await call(s.app, "GET", "/api/v1/parkings/abc"), 400, "validation");
    expect(bad.errors![0]!.pointer).toBe("/id");
  });

  test("a write by another connection (parkd lots import while serve runs) shows at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parkd-lots-"));
    try {
      const store = openStore(dir);
      const app = createApp(createContext(store, { timezone: "Europe/Stockholm" }));
      const first = await call(app, "GET", "/api/v1/parkings");
      expect(first.json.data).toEqual([]);
      const other = openStore(dir);
      const lot = {
        id: 7,
        ...cityLot(),
        parking_lot_fee: [],
        parking_lot_open: [],
        parking_lot_location: [],
      };
      new LotCatalog(other).importLots([lot], "cli:import");
      other.close();
      const second = await call(app, "GET", "/api/v1/parkings", {
        headers: { "if-none-match": first.headers.get("etag")! },
      });
      expect(second.status).toBe(200);
      expect(second.json.data.map((l: { id: number }) => l.id)).toEqual([7]);
      expect((await call(app, "GET", "/api/v1/parkings/7")).status).toBe(200);
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("admin writes", () => {
  test("POST creates: 201, Location, defaults and sub-record ids filled", async () => {
    const s = setup();
    const res = await call(s.app, "POST", "/api/v1/parkings", {
      token: s.admin,
      body: {
        name: "Hamnen",
        zone_number: "12",
        parking_lot_fee: [
          {
            id: 5,
            cost_per_unit: 100,
            unit: 2,
            start_time: "00:00:00",
            end_time: "23:59:59",
            type_of_day: 3,
            round: true,
          },
          {
            cost_per_unit: 100,
            unit: 1,
            start_time: "09:00:00",
            end_time: "17:00:00",
            type_of_day: 1,
            round: false,
          },
        ],
        variable_fees: [{ type_of_day: 2, from_minute: 0, cost_per_unit: 0, unit: 1 }],
      },
    });
    expect(res.status).toBe(201);
    const lot = res.json.data;
    expect(res.headers.get("location")).toBe(`/api/v1/parkings/${lot.id}`);
    expect(lot).toMatchObject({
      name: "Hamnen",
      zone_number: 12,
      number_of_spaces: 0,
      max_time: 0,
      max_fee: 0,
      active: true,
      parking_lot_open: [],
      parking_lot_location: [],
    });
    expect(lot.parking_lot_fee.map((f: { id: number }) => f.id)).toEqual([5, 6]);
    expect(lot.variable_fees[0]).toEqual({
      id: 1,
      type_of_day: 2,
      from_minute: 0,
      to_minute: null,
      cost_per_unit: 0,
      unit: 1,
    });
    expect((await call(s.app, "GET", res.headers.get("location")!)).json.data).toEqual(lot);
  });

  test("POST with an id keeps it; the same id again is 409 lot-exists", async () => {
    const s = setup();
    const lot = await created(s, { id: 42, ...cityLot() });
    expect(lot.id).toBe(42);
    const again = await call(s.app, "POST", "/api/v1/parkings", {
      token: s.admin,
      body: { id: 42, ...cityLot() },
    });
    expectProblem(again, 409, "lot-exists");
    const next = await created(s);
    expect(next.id).toBe(43);
  });

  test("a deleted lot's id is not handed out again", async () => {
    const s = setup();
    const a = await created(s);
    expect((await call(s.app, "DELETE", `/api/v1/parkings/${a.id}`, { token: s.admin })).status).toBe(204);
    const b = await created(s);
    expect(b.id).toBe(a.id + 1);
  });

  test("writes need admin: 401 without credentials (before validation), 403 without the scope", async () => {
    const s = setup();
    const lot = await created(s);
    const reader = s.token("permits:read");
    const writes: [string, string, unknown][] = [
      ["POST", "/api/v1/parkings", cityLot()],
      ["PUT", `/api/v1/parkings/${lot.id}`, cityLot()],
      ["PATCH", `/api/v1/parkings/${lot.id}`, { name: "x" }],
      ["DELETE", `/api/v1/parkings/${lot.id}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const anon = await call(s.app, method, path, { body });
      expectProblem(anon, 401, "unauthorized");
      expect(anon.headers.get("www-authenticate")).toBe('Bearer realm="parking"');
      expectProblem(await call(s.app, method, path, { body: { bogus: true } }), 401, "unauthorized");
      expectProblem(await call(s.app, method, path, { body, token: reader }), 403, "insufficient-scope");
    }
    expect((await call(s.app, "GET", "/api/v1/parkings")).json.data).toEqual([lot]);
  });

  test("PUT replaces the whole lot; fields left out go back to their defaults", async () => {
    const s = setup();
    const lot = await created(s);
    const res = await call(s.app, "PUT", `/api/v1/parkings/${lot.id}`, {
      token: s.admin,
      body: { name: "Nytt namn", zone_number: 99 },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({
      id: lot.id,
      name: "Nytt namn",
      number_of_spaces: 0,
      zone_number: 99,
      max_time: 0,
      parking_lot_fee: [],
      variable_fees: [],
      parking_lot_open: [],
      parking_lot_location: [],
      active: true,
      max_fee: 0,
    });
    expect((await call(s.app, "GET", `/api/v1/parkings/${lot.id}`)).json.data).toEqual(res.json.data);
    const same = await call(s.app, "PUT", `/api/v1/parkings/${lot.id}`, { token: s.admin, body: { ...lot } });
    expect(same.json.data).toEqual(lot);
  });

  test("PUT: unknown lot 404, id that differs from the path 400", async () => {
    const s = setup();
    const lot = await created(s);
    expectProblem(
      await call(s.app, "PUT", "/api/v1/parkings/999", { token: s.admin, body: cityLot() }),
      404,
      "lot-not-found",
    );
    const p = expectProblem(
      await call(s.app, "PUT", `/api/v1/parkings/${lot.id}`, {
        token: s.admin,
        body: { ...cityLot(), id: lot.id + 1 },
      }),
      400,
      "validation",
    );
    expect(p.errors).toEqual([{ pointer: "/id", message: expect.stringContaining(String(lot.id)) }]);
  });

  test("PATCH changes only the fields sent; arrays are replaced whole", async () => {
    const s = setup();
    const lot = await created(s);
    const res = await call(s.app, "PATCH", `/api/v1/parkings/${lot.id}`, {
      token: s.admin,
      body: { active: false, parking_lot_location: [{ latitude: 57.7, longitude: 11.97 }] },
      headers: { "content-type": "application/merge-patch+json" },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({
      ...lot,
      active: false,
      parking_lot_location: [{ id: 1, latitude: 57.7, longitude: 11.97 }],
    });
    expectProblem(
      await call(s.app, "PATCH", "/api/v1/parkings/999", { token: s.admin, body: { name: "x" } }),
      404,
      "lot-not-found",
    );
    const clash = await call(s.app, "PATCH", `/api/v1/parkings/${lot.id}`, {
      token: s.admin,
      body: {
        parking_lot_fee: [
          ...lot.parking_lot_fee,
          {
            cost_per_unit: 1,
            unit: 1,
            start_time: "17:00:00",
            end_time: "19:00:00",
            type_of_day: 1,
            round: true,
          },
        ],
      },
    });
    const p = expectProblem(clash, 400, "validation");
    expect(p.errors!.map((e) => e.pointer)).toEqual(["/parking_lot_fee/3"]);
    expect((await call(s.app, "GET", `/api/v1/parkings/${lot.id}`)).json.data.parking_lot_fee).toHaveLength(
      3,
    );
  });

  test("DELETE answers 204, then the lot is gone (404 on every route)", async () => {
    const s = setup();
    const lot = await created(s);
    const res = await call(s.app, "DELETE", `/api/v1/parkings/${lot.id}`, { token: s.admin });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expectProblem(await call(s.app, "GET", `/api/v1/parkings/${lot.id}`), 404, "lot-not-found");
    expectProblem(
      await call(s.app, "DELETE", `/api/v1/parkings/${lot.id}`, { token: s.admin }),
      404,
      "lot-not-found",
    );
    expectProblem(
      await call(
        s.app,
        "GET",
        `/api/v1/parkings/${lot.id}/quote?start=2026-06-15T10:00&end=2026-06-15T11:00`,
      ),
      404,
      "lot-not-found",
    );
    expect((await call(s.app, "GET", "/api/v1/parkings")).json.data).toEqual([]);
  });
});

describe("validation of lot bodies", () => {
  const fee = cityLot().parking_lot_fee[0]!;
  const withFee = (change: Record<string, unknown>) => ({
    ...cityLot(),
    parking_lot_fee: [{ ...fee, ...change }],
  });
  const cases: [string, unknown, string][] = [
    ["unit out of range", withFee({ unit: 5 }), "/parking_lot_fee/0/unit"],
    ["unit zero", withFee({ unit: 0 }), "/parking_lot_fee/0/unit"],
    ["type_of_day out of range", withFee({ type_of_day: 4 }), "/parking_lot_fee/0/type_of_day"],
    ["start_time not HH:MM:SS", withFee({ start_time: "8:00" }), "/parking_lot_fee/0/start_time"],
    ["end_time past 24:00:00", withFee({ end_time: "25:00:00" }), "/parking_lot_fee/0/end_time"],
    ["start_time 24:00:00", withFee({ start_time: "24:00:00" }), "/parking_lot_fee/0/start_time"],
    ["negative cost", withFee({ cost_per_unit: -1 }), "/parking_lot_fee/0/cost_per_unit"],
    ["cost not a whole number", withFee({ cost_per_unit: 12.5 }), "/parking_lot_fee/0/cost_per_unit"],
    ["round not boolean", withFee({ round: "yes" }), "/parking_lot_fee/0/round"],
    [
      "round missing",
      { ...cityLot(), parking_lot_fee: [{ ...fee, round: undefined }] },
      "/parking_lot_fee/0/round",
    ],
    ["negative max_fee", { ...cityLot(), max_fee: -1 }, "/max_fee"],
    ["negative max_time", { ...cityLot(), max_time: -5 }, "/max_time"],
    ["negative number_of_spaces", { ...cityLot(), number_of_spaces: -1 }, "/number_of_spaces"],
    [
      "latitude out of range",
      { ...cityLot(), parking_lot_location: [{ latitude: 91, longitude: 18 }] },
      "/parking_lot_location/0/latitude",
    ],
    [
      "longitude out of range",
      { ...cityLot(), parking_lot_location: [{ latitude: 59, longitude: -181 }] },
      "/parking_lot_location/0/longitude",
    ],
    [
      "open_time malformed",
      { ...cityLot(), parking_lot_open: [{ type_of_day: 1, open_time: "06:60:00", close_time: "18:00:00" }] },
      "/parking_lot_open/0/open_time",
    ],
    ["empty name", { ...cityLot(), name: "" }, "/name"],
    ["blank name", { ...cityLot(), name: "   " }, "/name"],
    ["missing zone_number", { ...cityLot(), zone_number: undefined }, "/zone_number"],
    ["unknown top-level field", { ...cityLot(), colour: "red" }, "/colour"],
    ["unknown field in a fee", withFee({ price: 10 }), "/parking_lot_fee/0/price"],
    [
      "unknown field in a location",
      { ...cityLot(), parking_lot_location: [{ latitude: 1, longitude: 2, alt: 3 }] },
      "/parking_lot_location/0/alt",
    ],
    [
      "variable fee step ends before it starts",
      {
        ...cityLot(),
        variable_fees: [{ type_of_day: 1, from_minute: 60, to_minute: 30, cost_per_unit: 1, unit: 1 }],
      },
      "/variable_fees/0/to_minute",
    ],
    [
      "variable fee steps overlap",
      {
        ...cityLot(),
        variable_fees: [
          { type_of_day: 1, from_minute: 0, to_minute: 60, cost_per_unit: 1, unit: 1 },
          { type_of_day: 1, from_minute: 30, to_minute: null, cost_per_unit: 1, unit: 1 },
        ],
      },
      "/variable_fees/1",
    ],
    [
      "fee windows overlap on the same day type",
      { ...cityLot(), parking_lot_fee: [fee, { ...fee, start_time: "12:00:00", end_time: "20:00:00" }] },
      "/parking_lot_fee/1",
    ],
    [
      "duplicate sub-record ids",
      {
        ...cityLot(),
        parking_lot_open: [
          { id: 3, type_of_day: 1, open_time: "06:00:00", close_time: "18:00:00" },
          { id: 3, type_of_day: 2, open_time: "06:00:00", close_time: "18:00:00" },
        ],
      },
      "/parking_lot_open/1/id",
    ],
  ];

  test.each(cases)("%s → 400 at the field", async (_name, body, pointer) => {
    const s = setup();
    for (const [method, path] of [
      ["POST", "/api/v1/parkings"],
      ["PUT", `/api/v1/parkings/${(await created(s)).id}`],
    ] as const) {
      const res = await call(s.app, method, path, { token: s.admin, body });
      const p = expectProblem(res, 400, "validation");
      expect(p.errors!.map((e) => e.pointer)).toContain(pointer);
    }
    expect((await call(s.app, "GET", "/api/v1/parkings")).json.data).toHaveLength(1);
  });

  test("PATCH rejects unknown and invalid fields too", async () => {
    const s = setup();
    const lot = await created(s);
    const path = `/api/v1/parkings/${lot.id}`;
    const unknown = expectProblem(
      await call(s.app, "PATCH", path, { token: s.admin, body: { maxFee: 5 } }),
      400,
      "validation",
    );
    expect(unknown.errors).toEqual([{ pointer: "/maxFee", message: "Unknown field" }]);
    const bad = expectProblem(
      await call(s.app, "PATCH", path, { token: s.admin, body: { max_fee: -5 } }),
      400,
      "validation",
    );
    expect(bad.errors![0]!.pointer).toBe("/max_fee");
    expect((await call(s.app, "GET", path)).json.data).toEqual(lot);
  });

  test("several unknown fields are all listed", async () => {
    const s = setup();
    const res = await call(s.app, "POST", "/api/v1/parkings", {
      token: s.admin,
      body: { ...withFee({ extra: 1 }), other: 2 },
    });
    const p = expectProblem(res, 400, "validation");
    expect(p.errors!.map((e) => e.pointer).sort()).toEqual(["/other", "/parking_lot_fee/0/extra"]);
  });

  test("malformed JSON 400, a body that is not JSON 415, no body 400", async () => {
    const s = setup();
    expectProblem(
      await call(s.app, "POST", "/api/v1/parkings", { token: s.admin, body: '{"name":' }),
      400,
      "malformed-json",
    );
    expectProblem(
      await call(s.app, "POST", "/api/v1/parkings", {
        token: s.admin,
        body: "name=x",
        headers: { "content-type": "text/plain" },
      }),
      415,
      "unsupported-media-type",
    );
    expectProblem(await call(s.app, "POST", "/api/v1/parkings", { token: s.admin }), 400, "validation");
    expectProblem(
      await call(s.app, "POST", "/api/v1/parkings", { token: s.admin, body: [] }),
      400,
      "validation",
    );
  });
});

describe("price quotes (public)", () => {
  const q = (id: number, start: string, end: string) =>
    `/api/v1/parkings/${id}/quote?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}`;

  test("Friday 17:30 → Saturday 11:30: the amount, currency and breakdown", async () => {
    const s = setup();
    const lot = await created(s);
    const res = await call(s.app, "GET", q(lot.id, "2026-06-12T17:30:00+02:00", "2026-06-13T11:30"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    const d = res.json.data;
    // 20 kr (17:30-18:00) + 70 kr (night 18-08) + free 08-10 + 15 kr (90 min pro rata) = 105 kr.
    expect(d).toMatchObject({
      amount_incl_vat: 10500,
      amount_before_cap: 10500,
      currency_code: "SEK",
      capped_by_max_fee: false,
      exceeds_max_time: false,
      start: "2026-06-12T15:30:00.000000Z",
      end: "2026-06-13T09:30:00.000000Z",
    });
    expect(
      d.breakdown.map((l: { from: string; to: string; amount: number }) => [l.from, l.to, l.amount]),
    ).toEqual([
      ["2026-06-12T15:30:00.000000Z", "2026-06-12T16:00:00.000000Z", 2000],
      ["2026-06-12T16:00:00.000000Z", "2026-06-13T06:00:00.000000Z", 7000],
      ["2026-06-13T06:00:00.000000Z", "2026-06-13T08:00:00.000000Z", 0],
      ["2026-06-13T08:00:00.000000Z", "2026-06-13T09:30:00.000000Z", 1500],
    ]);
    expect(d.breakdown[0]).toEqual({
      from: "2026-06-12T15:30:00.000000Z",
      to: "2026-06-12T16:00:00.000000Z",
      amount: 2000,
      source: "fee",
      fee_ids: [lot.parking_lot_fee[0].id],
      type_of_day: 1,
      cost_per_unit: 2000,
      unit: 1,
      round: true,
      minutes: 30,
      units: 1,
    });
    expect(d.breakdown[2]).toMatchObject({
      source: "free",
      fee_ids: [],
      cost_per_unit: null,
      unit: null,
      round: null,
    });
  });

  test("the cap, max_time and the configured currency", async () => {
    const s = testApp({ currency: "EUR" });
    const admin = s.token("admin");
    const res = await call(s.app, "POST", "/api/v1/parkings", {
      token: admin,
      body: { ...cityLot(), max_fee: 5000, max_time: 3600 },
    });
    const id = res.json.data.id;
    const d = (await call(s.app, "GET", q(id, "2026-06-12T17:30", "2026-06-13T11:30"))).json.data;
    expect(d).toMatchObject({
      amount_incl_vat: 5000,
      amount_before_cap: 10500,
      capped_by_max_fee: true,
      exceeds_max_time: true,
      currency_code: "EUR",
    });
  });

  test("holidays come from the configuration", async () => {
    const plain = testApp({ holidays: [] });
    const se = testApp();
    const prices: number[] = [];
    for (const s of [plain, se]) {
      const id = (await call(s.app, "POST", "/api/v1/parkings", { token: s.token("admin"), body: cityLot() }))
        .json.data.id;
      // Midsummer Eve 2026 (a Friday): weekday rate without holidays, free with the Swedish list.
      prices.push(
        (await call(s.app, "GET", q(id, "2026-06-19T08:00", "2026-06-19T12:00"))).json.data.amount_incl_vat,
      );
    }
    expect(prices).toEqual([8000, 0]);
  });

  test("bad instants, end before start, a stay too long, missing parameters: 400 with pointers", async () => {
    const s = setup();
    const lot = await created(s);
    const bad = expectProblem(
      await call(s.app, "GET", q(lot.id, "yesterday", "2026-13-01T00:00")),
      400,
      "validation",
    );
    expect(bad.errors as unknown[]).toEqual([
      { pointer: "/start", message: expect.any(String), in: "query" },
      { pointer: "/end", message: expect.any(String), in: "query" },
    ]);
    const back = expectProblem(
      await call(s.app, "GET", q(lot.id, "2026-06-15T12:00", "2026-06-15T11:59")),
      400,
      "validation",
    );
    expect(back.errors as unknown[]).toEqual([
      { pointer: "/end", message: "Must not be before start", in: "query" },
    ]);
    const long = expectProblem(
      await call(s.app, "GET", q(lot.id, "2026-01-01T00:00Z", "2027-06-01T00:00Z")),
      400,
      "validation",
    );
    expect(long.errors![0]!.pointer).toBe("/end");
    const missing = expectProblem(
      await call(s.app, "GET", `/api/v1/parkings/${lot.id}/quote?start=2026-06-15T10:00`),
      400,
      "validation",
    );
    expect(missing.errors![0]).toMatchObject({ pointer: "/end", in: "query" });
    expectProblem(
      await call(s.app, "GET", q(999, "2026-06-15T10:00", "2026-06-15T11:00")),
      404,
      "lot-not-found",
    );
  });

  test("a zero-length stay costs nothing", async () => {
    const s = setup();
    const lot = await created(s);
    const d = (await call(s.app, "GET", q(lot.id, "2026-06-15T10:00", "2026-06-15T10:00"))).json.data;
    expect(d).toMatchObject({ amount_incl_vat: 0, breakdown: [] });
  });
});
