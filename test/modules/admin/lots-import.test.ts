import { describe, expect, test } from "bun:test";
import { call, expectProblem, testApp } from "../../support/app.ts";
import { cityLot, createdLot, lotSetup } from "../../support/lots.ts";

const IMPORT = "/api/v1/parkings/import";

async function exported(s: ReturnType<typeof lotSetup>) {
  return (await call(s.app, "GET", "/api/v1/parkings")).json as { data: Record<string, unknown>[] };
}

describe("POST /api/v1/parkings/import", () => {
  test("a dry run names each lot by index and id: created, changed (with fields), unchanged; writes nothing", async () => {
    const s = lotSetup();
    const kept = await createdLot(s);
    const renamed = await createdLot(s, { ...cityLot(), name: "Hamnen" });
    const before = await exported(s);
    const file = {
      data: [kept, { ...renamed, name: "Hamnen Syd", number_of_spaces: 12 }, { name: "Ny", zone_number: 9 }],
    };
    const res = await call(s.app, "POST", `${IMPORT}?dry_run=true`, { token: s.admin, body: file });
    expect(res.status).toBe(200);
    const report = res.json.data;
    expect(report).toMatchObject({
      dry_run: true,
      applied: false,
      created: 1,
      changed: 1,
      unchanged: 1,
      refused: 0,
    });
    expect(report.lots).toEqual([
      { index: 0, id: kept.id, name: kept.name, outcome: "unchanged", changed_fields: [], errors: [] },
      {
        index: 1,
        id: renamed.id,
        name: "Hamnen Syd",
        outcome: "changed",
        changed_fields: ["name", "number_of_spaces"],
        errors: [],
      },
      { index: 2, id: renamed.id + 1, name: "Ny", outcome: "created", changed_fields: [], errors: [] },
    ]);
    expect(await exported(s)).toEqual(before);

    const applied = await call(s.app, "POST", IMPORT, { token: s.admin, body: file });
    expect(applied.status).toBe(200);
    expect(applied.json.data).toMatchObject({ dry_run: false, applied: true, created: 1, changed: 1 });
    const after = (await exported(s)).data;
    expect(after.map((l) => l.name)).toEqual([kept.name, "Hamnen Syd", "Ny"]);
  });

  test("one bad lot: the dry run says which and why, the import is refused whole and writes nothing", async () => {
    const s = lotSetup();
    const lot = await createdLot(s);
    const before = await exported(s);
    const file = {
      data: [
        { ...lot, name: "Would be renamed" },
        { id: 40, name: "Bad", zone_number: 1, parking_lot_fee: [{ cost_per_unit: 100, unit: 9 }] },
        { name: "Would be new", zone_number: 2 },
      ],
    };
    const dry = await call(s.app, "POST", `${IMPORT}?dry_run=true`, { token: s.admin, body: file });
    expect(dry.status).toBe(200);
    expect(dry.json.data).toMatchObject({ applied: false, created: 1, changed: 1, refused: 1 });
    const bad = dry.json.data.lots[1];
    expect(bad).toMatchObject({ index: 1, id: 40, name: "Bad", outcome: "refused" });
    expect(bad.errors.map((e: { pointer: string }) => e.pointer)).toContain("/parking_lot_fee/0/unit");

    const res = await call(s.app, "POST", IMPORT, { token: s.admin, body: file });
    const problem = expectProblem(res, 400, "validation");
    expect(problem.detail).toBe("1 lot(s) refused: index 1 (id 40); nothing was written");
    expect(problem.errors!.map((e) => e.pointer)).toContain("/data/1/parking_lot_fee/0/unit");
    expect(await exported(s)).toEqual(before);
  });

  test("a duplicate id, a lot breaking the fee rules, and a file that is no export are refused", async () => {
    const s = lotSetup();
    const overlapping = {
      ...cityLot(),
      id: 5,
      parking_lot_fee: [cityLot().parking_lot_fee[0], cityLot().parking_lot_fee[0]],
    };
    const dup = await call(s.app, "POST", `${IMPORT}?dry_run=true`, {
      token: s.admin,
      body: {
        data: [{ id: 3, name: "A", zone_number: 1 }, { id: 3, name: "B", zone_number: 1 }, overlapping],
      },
    });
    expect(dup.json.data.lots[1].errors).toEqual([
      { pointer: "/id", message: "Duplicate lot id (also at index 0)" },
    ]);
    expect(dup.json.data.lots[2].outcome).toBe("refused");
    expect(dup.json.data.refused).toBe(2);

    // A body that is no lot file is refused with a dry run too: the document's LotFile says so.
    for (const url of [IMPORT, `${IMPORT}?dry_run=true`])
      for (const body of [[], { lots: [] }, { data: {} }, "x", {}]) {
        const res = await call(s.app, "POST", url, { token: s.admin, body: JSON.stringify(body) });
        expectProblem(res, 400, "validation");
      }
    expect((await exported(s)).data).toEqual([]);
  });

  test("admin only", async () => {
    const s = lotSetup();
    const res = await call(s.app, "POST", IMPORT, { token: s.token("permits:read"), body: { data: [] } });
    expectProblem(res, 403, "insufficient-scope");
    expectProblem(await call(s.app, "POST", IMPORT, { body: { data: [] } }), 401, "unauthorized");
  });
});

describe("lot ids stay within what the API can address", () => {
  test("an import whose lots would get ids past the largest is refused, and so is a new lot after it", async () => {
    const s = testApp();
    const admin = s.token("admin");
    const lot = { ...cityLot(), id: 2_147_483_647 };
    const { id: _, ...noId } = lot;
    const r = await call(s.app, "POST", "/api/v1/parkings/import", {
      token: admin,
      body: { data: [lot, { ...noId, name: "Next" }] },
    });
    const p = expectProblem(r, 400, "validation");
    expect(JSON.stringify(p.errors)).toContain("No free lot id");
    expect((await call(s.app, "GET", "/api/v1/parkings", { token: admin })).json.data).toHaveLength(0);
    // With the largest id taken by a lot made on purpose, a lot without an id is refused, not given an id no one can use.
    expect((await call(s.app, "POST", "/api/v1/parkings", { token: admin, body: lot })).status).toBe(201);
    expectProblem(
      await call(s.app, "POST", "/api/v1/parkings", { token: admin, body: noId }),
      409,
      "lot-exists",
    );
  });
});
