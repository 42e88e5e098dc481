import { describe, expect, test } from "bun:test";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";

/**
 * A plate the handheld's camera filled in: the verdict (and an offline one) says so, and the
 * lookup record keeps the camera's read beside the plate asked, so the audit tells a read taken
 * as read from a corrected one, and both from a typed plate.
 */
const T0 = Date.parse("2026-06-15T10:00:00Z");

function setup() {
  const s = testApp({ timezone: "Europe/Stockholm" }, testClock(T0));
  return { ...s, reader: s.token("permits:read"), admin: s.token("admin") };
}
type Box = ReturnType<typeof setup>;

const audit = async (s: Box) => {
  s.lookupRecorder.flush();
  const res = await call(s.app, "GET", "/api/v1/lookups?by=verdict,offline_verdict", { token: s.admin });
  expect(res.status).toBe(200);
  return (res.json as { data: { query: string; by: string; camera_read: string | null }[] }).data
    .map((r) => ({ by: r.by, query: r.query, camera_read: r.camera_read }))
    .sort((a, b) => a.query.localeCompare(b.query));
};

describe("the camera's read in the lookup records", () => {
  test("typed, read and taken, read and corrected: three verdicts, three records the audit tells apart", async () => {
    const s = setup();
    const verdict = (q: string) =>
      call(s.app, "GET", `/api/v1/attendants/verdict?zone=1002&${q}`, { token: s.reader });
    expect((await verdict("registration_number=TYP123")).status).toBe(200);
    expect((await verdict("registration_number=ABC123&camera_read=abc%20123")).status).toBe(200);
    expect((await verdict("registration_number=ABC12B&camera_read=ABC128")).status).toBe(200);
    expect(await audit(s)).toEqual([
      { by: "verdict", query: "ABC123@1002", camera_read: "ABC123" },
      { by: "verdict", query: "ABC12B@1002", camera_read: "ABC128" },
      { by: "verdict", query: "TYP123@1002", camera_read: null },
    ]);
  });

  test("a camera's read that cannot be a plate is refused, naming the field, and nothing is recorded", async () => {
    const s = setup();
    for (const bad of ["%00ABC", "-%20-", "A".repeat(40)]) {
      const res = await call(
        s.app,
        "GET",
        `/api/v1/attendants/verdict?zone=1002&registration_number=ABC123&camera_read=${bad}`,
        { token: s.reader },
      );
      expectProblem(res, 400, "validation");
      expect(JSON.stringify(res.json)).toContain("camera_read");
    }
    expect(await audit(s)).toEqual([]);
  });

  test("an offline verdict carries the camera's read too; a bad one is refused with its pointer", async () => {
    const s = setup();
    const check = (over: Record<string, unknown>) => ({
      registration_number: "ABC 123",
      zone: 1002,
      checked_at: new Date(T0 - 60_000).toISOString(),
      verdict: "valid_here",
      list_taken_at: new Date(T0 - 600_000).toISOString(),
      ...over,
    });
    const bad = await call(s.app, "POST", "/api/v1/attendants/offline-checks", {
      token: s.reader,
      body: { checks: [check({ camera_read: "\u0000" })] },
    });
    expectProblem(bad, 400, "validation");
    expect(JSON.stringify(bad.json)).toContain("/checks/0/camera_read");
    const ok = await call(s.app, "POST", "/api/v1/attendants/offline-checks", {
      token: s.reader,
      body: { checks: [check({ camera_read: "A8C 123" }), check({ registration_number: "XYZ 789" })] },
    });
    expect(ok.status).toBe(200);
    expect(await audit(s)).toEqual([
      { by: "offline_verdict", query: "ABC123@1002", camera_read: "A8C123" },
      { by: "offline_verdict", query: "XYZ789@1002", camera_read: null },
    ]);
  });
});
