import { describe, expect, test } from "bun:test";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";

async function setup() {
  const clock = testClock("2026-06-15T10:00:00Z");
  const s = testApp({}, clock);
  const admin = s.token("admin");
  const h1 = s.token("notices:write");
  const h2 = s.token("notices:write");
  for (const [code, amount] of [
    ["no-permit", 50_000],
    ["over-time", 30_000],
  ] as const)
    await call(s.app, "POST", "/api/v1/notice-reasons", {
      token: admin,
      body: { code, title: code, amount },
    });
  let n = 0;
  const issue = async (token: string, plate: string, reason: string) => {
    const r = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token,
      body: {
        id: `notice-${String(++n).padStart(4, "0")}`,
        registration_number: plate,
        zone: 1002,
        verdict: reason === "over-time" ? "over_time_limit" : "none",
        reason,
        observed_at: new Date(clock.now()).toISOString(),
      },
    });
    expect(r.status).toBe(201);
    clock.advance(3_600_000);
    return r.json.data;
  };
  return { s, clock, admin, h1, h2, issue };
}

describe("the operator's notices", () => {
  test("search by plate, attendant, reason, state and date; paged by cursor", async () => {
    const { s, admin, h1, h2, issue } = await setup();
    await issue(h1, "ABC123", "no-permit");
    await issue(h2, "abc 123", "over-time");
    await issue(h1, "XYZ789", "no-permit");
    const numbers = async (q: string) =>
      (await call(s.app, "GET", `/api/v1/notices${q}`, { token: admin })).json.data.map(
        (n: { number: number }) => n.number,
      );
    expect(await numbers("")).toEqual([3, 2, 1]);
    expect(await numbers("?registration_number=ABC%20123")).toEqual([2, 1]);
    const who = (await call(s.app, "GET", "/api/v1/notices/2", { token: admin })).json.data.issued_by;
    expect(await numbers(`?attendant=${encodeURIComponent(who)}`)).toEqual([2]);
    expect(await numbers("?reason=no-permit")).toEqual([3, 1]);
    expect(await numbers("?from=2026-06-15T11:00:00Z&to=2026-06-15T12:00:00Z")).toEqual([2]);
    await call(s.app, "POST", "/api/v1/notices/3/void", { token: admin, body: { reason: "wrong plate" } });
    expect(await numbers("?state=voided")).toEqual([3]);
    expect(await numbers("?state=issued")).toEqual([2, 1]);
    const first = await call(s.app, "GET", "/api/v1/notices?limit=2", { token: admin });
    expect(first.json.next_cursor).not.toBeNull();
    const rest = await call(s.app, "GET", `/api/v1/notices?limit=2&cursor=${first.json.next_cursor}`, {
      token: admin,
    });
    expect(rest.json.data.map((n: { number: number }) => n.number)).toEqual([1]);
    expectProblem(
      await call(s.app, "GET", "/api/v1/notices?cursor=bogus", { token: admin }),
      400,
      "validation",
    );
    expectProblem(
      await call(s.app, "GET", "/api/v1/notices?state=paid", { token: admin }),
      400,
      "validation",
    );
  });

  test("void: recorded with who and why; a second void is 409; unknown number 404", async () => {
    const { s, admin, h1, issue } = await setup();
    await issue(h1, "ABC123", "no-permit");
    const v = await call(s.app, "POST", "/api/v1/notices/1/void", {
      token: admin,
      body: { reason: "permit shown" },
    });
    expect(v.status).toBe(200);
    expect(v.json.data).toMatchObject({
      state: "voided",
      void_reason: "permit shown",
      voided_by: expect.stringMatching(/^token:/),
    });
    const twice = await call(s.app, "POST", "/api/v1/notices/1/void", {
      token: admin,
      body: { reason: "again" },
    });
    expectProblem(twice, 409, "notice-voided");
    expect((await call(s.app, "GET", "/api/v1/notices/1", { token: admin })).json.data.void_reason).toBe(
      "permit shown",
    );
    expectProblem(
      await call(s.app, "POST", "/api/v1/notices/9/void", { token: admin, body: { reason: "x" } }),
      404,
      "notice-not-found",
    );
    expectProblem(
      await call(s.app, "POST", "/api/v1/notices/1/void", { token: admin, body: { reason: "" } }),
      400,
      "validation",
    );
    expectProblem(await call(s.app, "GET", "/api/v1/notices/0", { token: admin }), 400, "validation");
    const history = await call(s.app, "GET", "/api/v1/changes?subject=notice&subject_id=1", { token: admin });
    expect(history.json.data.map((c: { action: string }) => c.action)).toEqual(["void", "issue"]);
    expect(history.json.data[0].after).toEqual({ state: "voided", void_reason: "permit shown" });
  });

  test("CSV as the revenue report's: se with semicolons and decimal commas, rfc4180 with commas, text cells guarded", async () => {
    const { s, admin, h1, issue } = await setup();
    await issue(h1, "ABC123", "no-permit");
    await issue(h1, "=CMD1", "over-time");
    const se = await call(s.app, "GET", "/api/v1/notices.csv", { token: admin });
    expect(se.headers.get("content-type")).toStartWith("text/csv");
    const lines = se.text.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toStartWith("Nummer;Utfärdad (Europe/Stockholm);Registreringsnummer");
    expect(lines[1]).toStartWith("1;2026-06-15 12:00:00;ABC123;1002;;none;no-permit;500,00;SEK;");
    expect(lines[2]).toContain(";'=CMD1;");
    const rfc = await call(s.app, "GET", "/api/v1/notices.csv?variant=rfc4180&reason=over-time", {
      token: admin,
    });
    const rows = rfc.text.split("\r\n");
    expect(rows[0]).toStartWith("number,issued_at (Europe/Stockholm),registration_number");
    // The site's time, as in the Swedish form and every other CSV, with its offset.
    expect(rows[1]).toMatch(/^2,2026-06-15T13:00:00\+02:00,/);
    expect(rows[1]).toContain(",300.00,SEK,");
    expect(rows).toHaveLength(3);
  });

  test("reasons: added, changed and retired with the change history; a code twice is 409; unknown 404", async () => {
    const { s, admin, h1, issue } = await setup();
    await issue(h1, "ABC123", "no-permit");
    expectProblem(
      await call(s.app, "POST", "/api/v1/notice-reasons", {
        token: admin,
        body: { code: "no-permit", title: "x", amount: 1 },
      }),
      409,
      "reason-exists",
    );
    expectProblem(
      await call(s.app, "PATCH", "/api/v1/notice-reasons/nothing", { token: admin, body: { amount: 1 } }),
      404,
      "reason-not-found",
    );
    expectProblem(
      await call(s.app, "POST", "/api/v1/notice-reasons", {
        token: admin,
        body: { code: "Bad Code", title: "x", amount: 1 },
      }),
      400,
      "validation",
    );
    const changed = await call(s.app, "PATCH", "/api/v1/notice-reasons/no-permit", {
      token: admin,
      body: { amount: 60_000 },
    });
    expect(changed.json.data.amount).toBe(60_000);
    // An issued notice keeps the amount it was issued with.
    expect((await call(s.app, "GET", "/api/v1/notices/1", { token: admin })).json.data.amount).toBe(50_000);
    const history = await call(s.app, "GET", "/api/v1/changes?subject=notice_reason&subject_id=no-permit", {
      token: admin,
    });
    expect(history.json.data.map((c: { action: string }) => c.action)).toEqual(["update", "create"]);
    expect(history.json.data[0].before).toEqual({ amount: 50_000 });
    const list = await call(s.app, "GET", "/api/v1/notice-reasons", { token: admin });
    expect(list.json.data.map((r: { code: string }) => r.code)).toEqual(["no-permit", "over-time"]);
  });
});
