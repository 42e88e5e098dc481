import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { PlateChecks } from "../../../src/modules/enforcement/model.ts";
import { OfflineChecksReceipt } from "../../../src/modules/enforcement/offline-checks/model.ts";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";

const T0 = Date.parse("2026-06-15T10:00:00Z");
const PATH = "/api/v1/attendants/offline-checks";
const MIN = 60_000;

function setup() {
  const clock = testClock(T0);
  const s = testApp({ timezone: "Europe/Stockholm", graceMinutes: 0, recentHours: 24 }, clock);
  return {
    ...s,
    clock,
    reader: s.token("permits:read"),
    terminal: s.token("tickets:write"),
    admin: s.token("admin"),
  };
}
type Box = ReturnType<typeof setup>;

const check = (over: Record<string, unknown> = {}) => ({
  registration_number: "abc 123",
  zone: 1002,
  checked_at: new Date(T0 - 20 * MIN).toISOString(),
  verdict: "valid_here",
  list_taken_at: new Date(T0 - 30 * MIN).toISOString(),
  ...over,
});
const send = (s: Box, checks: unknown[], token = s.reader) =>
  call(s.app, "POST", PATH, { token, body: { checks } });
const offlineRecords = (s: Box) =>
  s.ctx.store.sqlite
    .query(
      "SELECT at, by, query, results, verdict FROM permit_lookups WHERE by = 'offline_verdict' ORDER BY at",
    )
    .all();

describe("POST /api/v1/attendants/offline-checks", () => {
  test("each check is a lookup record at the instant the handheld answered, shown as answered offline", async () => {
    const s = setup();
    const res = await send(s, [
      check(),
      check({
        registration_number: "XYZ 789",
        checked_at: new Date(T0 - 10 * MIN).toISOString(),
        verdict: "not_in_list",
      }),
    ]);
    expect(res.status).toBe(200);
    expect(Value.Check(OfflineChecksReceipt, res.json)).toBe(true);
    expect(res.json).toEqual({ recorded: 2, already: 0 });
    s.lookupRecorder.flush();
    expect(offlineRecords(s)).toEqual([
      { at: T0 - 20 * MIN, by: "offline_verdict", query: "ABC123@1002", results: 1, verdict: "valid_here" },
      { at: T0 - 10 * MIN, by: "offline_verdict", query: "XYZ789@1002", results: 0, verdict: null },
    ]);
    // An online verdict after it: the car's checks today, newest first by when it was checked.
    s.clock.set(T0 + MIN);
    expect(
      (
        await call(s.app, "GET", "/api/v1/attendants/verdict?registration_number=ABC123&zone=1002", {
          token: s.reader,
        })
      ).status,
    ).toBe(200);
    const checks = await call(s.app, "GET", "/api/v1/attendants/checks?registration_number=abc123", {
      token: s.reader,
    });
    expect(Value.Check(PlateChecks, checks.json)).toBe(true);
    expect(checks.json.data).toEqual([
      expect.objectContaining({ zone: 1002, verdict: "none", offline: false }),
      expect.objectContaining({
        zone: 1002,
        verdict: "valid_here",
        offline: true,
        at: "2026-06-15T09:40:00.000000Z",
      }),
    ]);
    // The operator's audit shows who and when, as answered offline.
    const audit = await call(s.app, "GET", "/api/v1/lookups?registration_number=XYZ789", { token: s.admin });
    expect(audit.status).toBe(200);
    expect(audit.json.data).toEqual([
      expect.objectContaining({ by: "offline_verdict", query: "XYZ789@1002", verdict: null, results: 0 }),
    ]);
  });

  test("a batch sent again (its answer lost) records nothing twice, written or still waiting", async () => {
    const s = setup();
    const batch = [check(), check({ zone: 1003 })];
    expect((await send(s, batch)).json).toEqual({ recorded: 2, already: 0 });
    expect((await send(s, batch)).json).toEqual({ recorded: 0, already: 2 });
    s.lookupRecorder.flush();
    expect(
      (await send(s, [...batch, check({ verdict: "none", checked_at: new Date(T0 - MIN).toISOString() })]))
        .json,
    ).toEqual({
      recorded: 1,
      already: 2,
    });
    // The same check twice in one batch is one record.
    expect((await send(s, [check({ zone: 7 }), check({ zone: 7 })])).json).toEqual({
      recorded: 1,
      already: 1,
    });
    s.lookupRecorder.flush();
    expect(offlineRecords(s)).toHaveLength(4);
  });

  test("a phone a little fast is recorded as sent, once however often it sends; over 2 minutes ahead is 400 and nothing is recorded", async () => {
    const s = setup();
    const fast = check({ checked_at: new Date(T0 + 90_000).toISOString() });
    expect((await send(s, [fast])).json).toEqual({ recorded: 1, already: 0 });
    s.clock.set(T0 + 10_000);
    expect((await send(s, [fast])).json).toEqual({ recorded: 0, already: 1 });
    s.lookupRecorder.flush();
    s.clock.set(T0 + 20_000);
    expect((await send(s, [fast])).json).toEqual({ recorded: 0, already: 1 });
    const p = expectProblem(
      await send(s, [
        check({ zone: 1 }),
        check({ zone: 2, checked_at: new Date(T0 + 20_000 + 3 * MIN).toISOString() }),
      ]),
      400,
      "validation",
    );
    expect(p.errors?.map((e) => e.pointer)).toEqual(["/checks/1/checked_at"]);
    s.lookupRecorder.flush();
    expect(offlineRecords(s)).toEqual([expect.objectContaining({ at: T0 + 90_000, query: "ABC123@1002" })]);
  });

  test("every field checked: a typo anywhere is 400 at its pointer, and nothing is recorded", async () => {
    const s = setup();
    const cases: [unknown[], string][] = [
      [[check({ registration_number: "--" })], "/checks/0/registration_number"],
      [[check({ checked_at: "yesterday" })], "/checks/0/checked_at"],
      [[check({ checked_at: "2026-06-15" })], "/checks/0/checked_at"],
      [[check({ checked_at: new Date(T0 - 91 * 86_400_000).toISOString() })], "/checks/0/checked_at"],
      [[check({ list_taken_at: "2026-13-01T00:00:00Z" })], "/checks/0/list_taken_at"],
      // 32 characters sent that normalize to 480, as the verdict refuses them.
      [[check({ registration_number: "\uFDFA".repeat(32) })], "/checks/0/registration_number"],
      [[check({ camera_read: "\uFDFA".repeat(32) })], "/checks/0/camera_read"],
      [[check({ camera_read: "--" })], "/checks/0/camera_read"],
    ];
    for (const [checks, pointer] of cases) {
      const p = expectProblem(await send(s, checks), 400, "validation");
      expect(p.errors?.map((e) => e.pointer)).toEqual([pointer]);
    }
    for (const body of [
      { checks: [] },
      { checks: Array.from({ length: 201 }, () => check()) },
      { checks: [check({ verdict: "maybe" })] },
      { checks: [check({ zone: -1 })] },
      { checks: [check({ zone: "1002" })] },
      { checks: [check({ extra: 1 })] },
      { checks: [{ ...check(), registration_number: undefined }] },
      {},
      [],
    ])
      expectProblem(await call(s.app, "POST", PATH, { token: s.reader, body }), 400, "validation");
    s.lookupRecorder.flush();
    expect(offlineRecords(s)).toEqual([]);
  });

  test("without a credential 401; a terminal's token 403", async () => {
    const s = setup();
    expectProblem(await call(s.app, "POST", PATH, { body: { checks: [check()] } }), 401, "unauthorized");
    expectProblem(await send(s, [check()], s.terminal), 403, "insufficient-scope");
    s.lookupRecorder.flush();
    expect(offlineRecords(s)).toEqual([]);
  });
});
