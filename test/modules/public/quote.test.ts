import { describe, expect, test } from "bun:test";
import { call, expectProblem, testApp } from "../../support/app.ts";
import { cityLot, createdLot, lotSetup } from "../../support/lots.ts";

describe("price quotes (public)", () => {
  const q = (id: number, start: string, end: string) =>
    `/api/v1/parkings/${id}/quote?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}`;

  test("Friday 17:30 → Saturday 11:30: the amount, currency and breakdown", async () => {
    const s = lotSetup();
    const lot = await createdLot(s);
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
    const s = lotSetup();
    const lot = await createdLot(s);
    const bad = expectProblem(
      await call(s.app, "GET", q(lot.id, "yesterday", "tomorrow")),
      400,
      "validation",
    );
    expect(bad.errors as unknown[]).toEqual([
      { pointer: "/start", message: expect.any(String), in: "query" },
      { pointer: "/end", message: expect.any(String), in: "query" },
    ]);
    // The shape of a date-time (the document's pattern) but no such day.
    const noDay = expectProblem(
      await call(s.app, "GET", q(lot.id, "2026-06-15T10:00", "2026-13-01T00:00")),
      400,
      "validation",
    );
    expect(noDay.errors as unknown[]).toEqual([
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

  test("stays of more than 31 days are not quoted: 400 naming /end", async () => {
    const s = lotSetup();
    const lot = await createdLot(s);
    for (const [start, end] of [
      ["2026-01-01T00:00Z", "2027-02-01T00:00Z"], // 13 months
      ["2026-06-01T00:00", "2026-07-03T00:00"], // 32 days
      ["2026-06-01T00:00Z", "2026-07-02T01:00:01Z"], // 31 days, 1 h and a second
    ]) {
      const long = expectProblem(await call(s.app, "GET", q(lot.id, start!, end!)), 400, "validation");
      expect(long.errors as unknown[]).toEqual([
        {
          pointer: "/end",
          message: "Must be within 31 days of start: longer stays are not quoted",
          in: "query",
        },
      ]);
      expect(long.detail).toContain("end");
    }
    // A month from the 1st to the 1st is quoted, across the autumn clock change (31 days and an hour) too.
    for (const [start, end] of [
      ["2026-07-01T00:00", "2026-08-01T00:00"],
      ["2026-10-01T00:00", "2026-11-01T00:00"],
    ]) {
      const ok = await call(s.app, "GET", q(lot.id, start!, end!));
      expect(ok.status).toBe(200);
      expect(ok.json.data.amount_incl_vat).toBeGreaterThan(0);
    }
  });

  test("a zero-length stay costs nothing", async () => {
    const s = lotSetup();
    const lot = await createdLot(s);
    const d = (await call(s.app, "GET", q(lot.id, "2026-06-15T10:00", "2026-06-15T10:00"))).json.data;
    expect(d).toMatchObject({ amount_incl_vat: 0, breakdown: [] });
  });
});
