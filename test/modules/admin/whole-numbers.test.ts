import { describe, expect, test } from "bun:test";
import { call, testApp } from "../../support/app.ts";

/**
 * Every whole number in a path or query is read one way: ASCII digits only. `0x10`, `1e1`, `+5`
 * and ` 5` are refused with a problem that names the parameter, never read as 16, 10 or 5.
 */
describe("whole numbers in paths and queries", () => {
  const s = testApp();
  const admin = s.token("admin");
  const CASES: [string, (v: string) => string][] = [
    ["id", (v) => `/api/v1/parkings/${v}`],
    ["id", (v) => `/api/v1/permits/${v}`],
    ["limit", (v) => `/api/v1/lookups?limit=${v}`],
    ["limit", (v) => `/api/v1/changes?limit=${v}`],
    ["limit", (v) => `/api/v1/tickets?limit=${v}`],
    ["zone", (v) => `/api/v1/tickets?zone=${v}`],
    ["step", (v) => `/api/v1/occupancy/history?from=2026-06-15&to=2026-06-16&step=${v}`],
  ];

  test.each(CASES)("%s in %p", async (name, path) => {
    for (const bad of ["0x10", "1e1", "%2B10", "%2010", "10.0"]) {
      const r = await call(s.app, "GET", path(bad), { token: admin });
      expect(r.status, `${path(bad)}`).toBe(400);
      expect(r.json.errors?.[0]?.pointer ?? r.json.detail).toContain(name);
    }
    const good = await call(s.app, "GET", path("10"), { token: admin });
    expect([200, 404]).toContain(good.status);
  });
});
