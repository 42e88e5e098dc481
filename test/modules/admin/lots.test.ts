import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../../src/app.ts";
import { createContext } from "../../../src/context.ts";
import { LotCatalog } from "../../../src/modules/admin/lots/service.ts";
import { openStore } from "../../../src/platform/store/db.ts";
import { call, expectProblem } from "../../support/app.ts";
import { cityLot, createdLot, lotSetup } from "../../support/lots.ts";

describe("reading lots (public)", () => {
  test("kiosk pages from any origin may read lots and quotes; admin writes carry no such header", async () => {
    const s = lotSetup();
    const lot = await createdLot(s);
    const quote = `/api/v1/parkings/${lot.id}/quote?start=2026-06-15T10:00:00Z&end=2026-06-15T11:00:00Z`;
    for (const path of ["/api/v1/parkings", `/api/v1/parkings/${lot.id}`, quote]) {
      const res = await call(s.app, "GET", path, { headers: { origin: "http://kiosk.local" } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("access-control-allow-origin"), path).toBe("*");
    }
    const write = await call(s.app, "PATCH", `/api/v1/parkings/${lot.id}`, {
      token: s.admin,
      body: { name: "X" },
    });
    expect(write.status).toBe(200);
    expect(write.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("an empty list is {data: []} with an ETag, no credentials needed", async () => {
    const s = lotSetup();
    const res = await call(s.app, "GET", "/api/v1/parkings");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    expect(res.json).toEqual({ data: [] });
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-z]+"$/);
  });

  test("list and single lot carry every field of the interface, in order", async () => {
    const s = lotSetup();
    const lot = await createdLot(s);
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
    const s = lotSetup();
    const lot = await createdLot(s);
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
    const s = lotSetup();
    const a = await createdLot(s);
    const b = await createdLot(s, { ...cityLot(), name: "Stängd", active: false });
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
    const s = lotSetup();
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
      expect(
        new LotCatalog(other).importFile({ data: [lot] }, { who: "cli", via: "cli" }, false).applied,
      ).toBe(true);
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
    const s = lotSetup();
    const res = await call(s.app, "POST", "/api/v1/parkings", {
      token: s.admin,
      body: {
        name: "Hamnen",
        zone_number: 12,
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
    const s = lotSetup();
    const lot = await createdLot(s, { id: 42, ...cityLot() });
    expect(lot.id).toBe(42);
    const again = await call(s.app, "POST", "/api/v1/parkings", {
      token: s.admin,
      body: { id: 42, ...cityLot() },
    });
    expectProblem(again, 409, "lot-exists");
    const next = await createdLot(s);
    expect(next.id).toBe(43);
  });

  test("a deleted lot's id is not handed out again", async () => {
    const s = lotSetup();
    const a = await createdLot(s);
    expect((await call(s.app, "DELETE", `/api/v1/parkings/${a.id}`, { token: s.admin })).status).toBe(204);
    const b = await createdLot(s);
    expect(b.id).toBe(a.id + 1);
  });

  test("writes need admin: 401 without credentials (before validation), 403 without the scope", async () => {
    const s = lotSetup();
    const lot = await createdLot(s);
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
    const s = lotSetup();
    const lot = await createdLot(s);
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
    const s = lotSetup();
    const lot = await createdLot(s);
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
    const s = lotSetup();
    const lot = await createdLot(s);
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
    const s = lotSetup();
    const lot = await createdLot(s);
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
