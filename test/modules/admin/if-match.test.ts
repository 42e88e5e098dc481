import { describe, expect, test } from "bun:test";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";
import { createdLot, lotSetup } from "../../support/lots.ts";

/** Optimistic concurrency on lots and permits: ETag on reads, If-Match on writes (RFC 9110 §13.1.1). */

describe("lots under If-Match", () => {
  test("two editors of one lot: the second write, made against the old version, is refused and changes nothing", async () => {
    const s = lotSetup();
    const lot = await createdLot(s);
    const path = `/api/v1/parkings/${lot.id}`;
    const tab1 = await call(s.app, "GET", path);
    const tab2 = await call(s.app, "GET", path);
    const etag = tab1.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-z]+"$/);
    expect(tab2.headers.get("etag")).toBe(etag);

    const renamed = await call(s.app, "PATCH", path, {
      token: s.admin,
      body: { name: "Tab one" },
      headers: { "if-match": etag },
    });
    expect(renamed.status).toBe(200);
    const next = renamed.headers.get("etag")!;
    expect(next).not.toBe(etag);
    expect((await call(s.app, "GET", path)).headers.get("etag")).toBe(next);

    const lost = await call(s.app, "PATCH", path, {
      token: s.admin,
      body: { number_of_spaces: 10 },
      headers: { "if-match": etag },
    });
    const problem = expectProblem(lost, 412, "precondition-failed");
    expect(problem.detail).toContain(`Parking lot ${lot.id}`);
    expect(problem.detail).toContain(next);
    const now = await call(s.app, "GET", path);
    expect(now.json.data.name).toBe("Tab one");
    expect(now.json.data.number_of_spaces).toBe(lot.number_of_spaces);

    const put = await call(s.app, "PUT", path, {
      token: s.admin,
      body: { ...lot, id: undefined, name: "Tab two" },
      headers: { "if-match": etag },
    });
    expectProblem(put, 412, "precondition-failed");
    const del = await call(s.app, "DELETE", path, { token: s.admin, headers: { "if-match": etag } });
    expectProblem(del, 412, "precondition-failed");
    expect((await call(s.app, "GET", path)).status).toBe(200);
  });

  test("the current tag, one of a list, or * lets the write through; a weak tag never does", async () => {
    const s = lotSetup();
    const lot = await createdLot(s);
    const path = `/api/v1/parkings/${lot.id}`;
    const etag = (await call(s.app, "GET", path)).headers.get("etag")!;
    const weak = await call(s.app, "PATCH", path, {
      token: s.admin,
      body: { name: "A" },
      headers: { "if-match": `W/${etag}` },
    });
    expectProblem(weak, 412, "precondition-failed");
    const listed = await call(s.app, "PATCH", path, {
      token: s.admin,
      body: { name: "B" },
      headers: { "if-match": `"old", ${etag}` },
    });
    expect(listed.status).toBe(200);
    const star = await call(s.app, "PATCH", path, {
      token: s.admin,
      body: { name: "C" },
      headers: { "if-match": "*" },
    });
    expect(star.status).toBe(200);
    const del = await call(s.app, "DELETE", path, {
      token: s.admin,
      headers: { "if-match": star.headers.get("etag")! },
    });
    expect(del.status).toBe(204);
  });

  test("without If-Match writes behave as before; a missing lot is 404 whatever If-Match says", async () => {
    const s = lotSetup();
    const lot = await createdLot(s);
    const path = `/api/v1/parkings/${lot.id}`;
    const plain = await call(s.app, "PATCH", path, { token: s.admin, body: { name: "No header" } });
    expect(plain.status).toBe(200);
    expect(plain.json.data.name).toBe("No header");
    const missing = await call(s.app, "PATCH", "/api/v1/parkings/999", {
      token: s.admin,
      body: { name: "X" },
      headers: { "if-match": '"abc"' },
    });
    expectProblem(missing, 404, "lot-not-found");
    // A refused body is a 400 before any version is compared
    const bad = await call(s.app, "PATCH", path, {
      token: s.admin,
      body: { number_of_spaces: -1 },
      headers: { "if-match": '"abc"' },
    });
    expect(bad.status).toBe(400);
  });
});

describe("permits under If-Match", () => {
  const permit = { registration_number: "ABC123", zone: 7, start_at: "2026-06-01T00:00:00Z" };

  function setup() {
    const clock = testClock("2026-06-15T12:00:00Z");
    const s = testApp({}, clock);
    return { ...s, clock, admin: s.token("admin") };
  }

  test("GET carries the stored version's ETag; a stale PUT, PATCH or DELETE is 412 and changes nothing", async () => {
    const s = setup();
    const created = await call(s.app, "POST", "/api/v1/permits", { token: s.admin, body: permit });
    const path = `/api/v1/permits/${created.json.data.id}`;
    const read = await call(s.app, "GET", path, { token: s.admin });
    const etag = read.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-z]+"$/);

    s.clock.advance(1000);
    const changed = await call(s.app, "PATCH", path, {
      token: s.admin,
      body: { note: "first" },
      headers: { "if-match": etag },
    });
    expect(changed.status).toBe(200);
    const next = changed.headers.get("etag")!;
    expect(next).not.toBe(etag);
    expect((await call(s.app, "GET", path, { token: s.admin })).headers.get("etag")).toBe(next);

    for (const [method, body] of [
      ["PATCH", { note: "second" }],
      ["PUT", { ...permit, note: "second" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await call(s.app, method, path, { token: s.admin, body, headers: { "if-match": etag } });
      expect(expectProblem(res, 412, "precondition-failed").detail).toContain(next);
    }
    const after = await call(s.app, "GET", path, { token: s.admin });
    expect(after.json.data.note).toBe("first");

    // The clock moving (and `active` with it) is no change of the permit
    s.clock.advance(86_400_000);
    const del = await call(s.app, "DELETE", path, { token: s.admin, headers: { "if-match": next } });
    expect(del.status).toBe(204);
  });

  test("without If-Match a permit write goes ahead as before", async () => {
    const s = setup();
    const created = await call(s.app, "POST", "/api/v1/permits", { token: s.admin, body: permit });
    const path = `/api/v1/permits/${created.json.data.id}`;
    const res = await call(s.app, "PUT", path, { token: s.admin, body: { ...permit, zone: 8 } });
    expect(res.status).toBe(200);
    expect(res.json.data.zone).toBe(8);
  });
});
