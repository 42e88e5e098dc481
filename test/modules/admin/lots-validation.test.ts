import { describe, expect, test } from "bun:test";
import { call, expectProblem } from "../../support/app.ts";
import { cityLot, createdLot, lotSetup } from "../../support/lots.ts";

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
    const s = lotSetup();
    for (const [method, path] of [
      ["POST", "/api/v1/parkings"],
      ["PUT", `/api/v1/parkings/${(await createdLot(s)).id}`],
    ] as const) {
      const res = await call(s.app, method, path, { token: s.admin, body });
      const p = expectProblem(res, 400, "validation");
      expect(p.errors!.map((e) => e.pointer)).toContain(pointer);
    }
    expect((await call(s.app, "GET", "/api/v1/parkings")).json.data).toHaveLength(1);
  });

  test("PATCH rejects unknown and invalid fields too", async () => {
    const s = lotSetup();
    const lot = await createdLot(s);
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
    const s = lotSetup();
    const res = await call(s.app, "POST", "/api/v1/parkings", {
      token: s.admin,
      body: { ...withFee({ extra: 1 }), other: 2 },
    });
    const p = expectProblem(res, 400, "validation");
    expect(p.errors!.map((e) => e.pointer).sort()).toEqual(["/other", "/parking_lot_fee/0/extra"]);
  });

  test("malformed JSON 400, a body that is not JSON 415, no body 400", async () => {
    const s = lotSetup();
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
