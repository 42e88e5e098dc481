import { describe, expect, test } from "bun:test";
import { examples } from "../modules/intake/examples.ts";
import { call, expectProblem, testApp } from "../support/app.ts";
import { cityLot, createdLot, lotSetup } from "../support/lots.ts";

/**
 * One integer reading everywhere (issue 11, item 10): JSON integers, digit strings only where the
 * interface says senders send them, never "0x10" or "1e2", and one zone range 0..2147483647.
 */

const permit = { registration_number: "ABC123", zone: 7, start_at: "2026-06-15T10:00:00Z" };

function setup() {
  const s = testApp();
  return { ...s, admin: s.token("admin"), writer: s.token("tickets:write"), reader: s.token("permits:read") };
}

describe("admin writes take JSON integers only", () => {
  for (const bad of ["0x10", "1e2", "12", " 5", "+5"])
    test(`lot zone_number ${JSON.stringify(bad)} is a 400 naming the field`, async () => {
      const s = setup();
      const res = await call(s.app, "POST", "/api/v1/parkings", {
        token: s.admin,
        body: { ...cityLot(), zone_number: bad },
      });
      expect(expectProblem(res, 400, "validation").errors?.map((e) => e.pointer)).toContain("/zone_number");
      expect((await call(s.app, "GET", "/api/v1/parkings")).json.data).toEqual([]);
    });

  test("fee amounts and units as strings are refused too", async () => {
    const s = setup();
    const lot = cityLot();
    lot.parking_lot_fee[0] = { ...lot.parking_lot_fee[0]!, cost_per_unit: "0x10" as unknown as number };
    const res = await call(s.app, "POST", "/api/v1/parkings", { token: s.admin, body: lot });
    expect(expectProblem(res, 400, "validation").errors?.[0]?.pointer).toBe(
      "/parking_lot_fee/0/cost_per_unit",
    );
  });

  for (const bad of ["0x10", "1e2", "7"])
    test(`permit zone ${JSON.stringify(bad)} is a 400`, async () => {
      const s = setup();
      const res = await call(s.app, "POST", "/api/v1/permits", {
        token: s.admin,
        body: { ...permit, zone: bad },
      });
      expect(expectProblem(res, 400, "validation").errors?.[0]?.pointer).toBe("/zone");
    });

  test("a JSON number written 1e2 is the integer 100", async () => {
    const s = setup();
    const res = await s.app.handle(
      new Request("http://localhost/api/v1/permits", {
        method: "POST",
        headers: { authorization: `Bearer ${s.admin}`, "content-type": "application/json" },
        body: '{"registration_number":"ABC123","zone":1e2,"start_at":"2026-06-15T10:00:00Z"}',
      }),
    );
    expect(res.status).toBe(201);
    expect(((await res.json()) as { data: { zone: number } }).data.zone).toBe(100);
  });

  test("zone 2147483648 is refused on lots and permits, 2147483647 accepted", async () => {
    const s = setup();
    for (const [path, body] of [
      ["/api/v1/parkings", { ...cityLot(), zone_number: 2147483648 }],
      ["/api/v1/permits", { ...permit, zone: 2147483648 }],
    ] as const)
      expectProblem(await call(s.app, "POST", path, { token: s.admin, body }), 400, "validation");
    expect(
      (
        await call(s.app, "POST", "/api/v1/permits", {
          token: s.admin,
          body: { ...permit, zone: 2147483647 },
        })
      ).status,
    ).toBe(201);
  });
});

describe("path and query numbers: digits only", () => {
  for (const bad of ["0x10", "1e2", "+1", "1.0"])
    test(`/api/v1/parkings/${bad} and ?zone=${bad} are 400`, async () => {
      const s = setup();
      await createdLot(lotSetup());
      expectProblem(
        await call(s.app, "GET", `/api/v1/parkings/${encodeURIComponent(bad)}`),
        400,
        "validation",
      );
      expectProblem(
        await call(s.app, "GET", `/api/v1/permits?zone=${encodeURIComponent(bad)}`, { token: s.admin }),
        400,
        "validation",
      );
    });

  test("?zone=16 filters permits; ?zone=2147483648 is out of range", async () => {
    const s = setup();
    await call(s.app, "POST", "/api/v1/permits", { token: s.admin, body: { ...permit, zone: 16 } });
    const ok = await call(s.app, "GET", "/api/v1/permits?zone=16", { token: s.admin });
    expect(ok.json.data).toHaveLength(1);
    const far = await call(s.app, "GET", "/api/v1/permits?zone=2147483648", { token: s.admin });
    expect(expectProblem(far, 400, "validation").errors?.[0]?.pointer).toBe("/zone");
  });
});

describe("intake and lookups share the zone range", () => {
  for (const zone of [2147483648, "2147483648", "0x10", "1e2"])
    test(`intake refuses zoneCode ${JSON.stringify(zone)}`, async () => {
      const s = setup();
      const res = await call(s.app, "POST", "/api/v1/actions/tickets", {
        token: s.writer,
        body: { ...examples.TicketCreated, zoneCode: zone },
      });
      expect(expectProblem(res, 400, "validation").errors?.[0]?.pointer).toBe("/zoneCode");
      expect(s.ctx.store.tickets.count()).toBe(0);
    });

  test("intake refuses a parkingLotId past the id range", async () => {
    const s = setup();
    const res = await call(s.app, "POST", "/api/v1/actions/tickets", {
      token: s.writer,
      body: { ...examples.TicketCreated, parkingLotId: "99999999999" },
    });
    expect(expectProblem(res, 400, "validation").errors?.[0]?.pointer).toBe("/parkingLotId");
  });

  test("the largest zone intake stores is one lookups find", async () => {
    const s = setup();
    const body = { ...examples.TicketCreated, zoneCode: "2147483647" };
    expect((await call(s.app, "POST", "/api/v1/actions/tickets", { token: s.writer, body })).status).toBe(
      200,
    );
    const byQuery = await call(s.app, "GET", "/api/v1/attendants/check-tickets?zone=2147483647", {
      token: s.reader,
    });
    expect(byQuery.status).toBe(200);
    const zoneList = await call(s.app, "GET", "/api/v1/tickets/zone/2147483647", { token: s.reader });
    expect(zoneList.status).toBe(200);
    for (const bad of ["2147483648", "0x10", "1e2", " 12"])
      expectProblem(
        await call(s.app, "GET", "/api/v1/attendants/check-tickets", {
          token: s.reader,
          body: { zone: bad },
        }),
        400,
        "validation",
      );
  });
});

describe("PATCH keeps what it is not given (item 12)", () => {
  test("an inactive lot stays inactive when PATCH leaves out active", async () => {
    const s = lotSetup();
    const lot = await createdLot(s, { ...cityLot(), active: false });
    const res = await call(s.app, "PATCH", `/api/v1/parkings/${lot.id}`, {
      token: s.admin,
      body: { name: "Nytt" },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ name: "Nytt", active: false });
    const again = await call(s.app, "GET", `/api/v1/parkings/${lot.id}`);
    expect(again.json.data.active).toBe(false);
  });

  test("create and replace without active still make an active lot", async () => {
    const s = lotSetup();
    const { active: _, ...rest } = cityLot();
    const lot = await createdLot(s, rest);
    expect(lot.active).toBe(true);
    await call(s.app, "PATCH", `/api/v1/parkings/${lot.id}`, { token: s.admin, body: { active: false } });
    const put = await call(s.app, "PUT", `/api/v1/parkings/${lot.id}`, { token: s.admin, body: rest });
    expect(put.json.data.active).toBe(true);
  });
});
