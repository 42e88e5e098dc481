import { describe, expect, test } from "bun:test";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";

const SESSION = "/api/v1/session";

function cookieOf(res: { headers: Headers }): string {
  const set = res.headers.get("set-cookie") ?? "";
  return set.split(";")[0]!;
}

async function signIn(app: ReturnType<typeof testApp>["app"], body: unknown) {
  const res = await call(app, "POST", SESSION, { body });
  expect(res.status).toBe(200);
  return { cookie: cookieOf(res), csrf: res.json.data.csrf as string, res };
}

describe("browser sessions", () => {
  test("a token signs in: HttpOnly SameSite=Strict cookie, the session's identity and csrf value", async () => {
    const s = testApp();
    const token = s.token("admin");
    const { cookie, csrf, res } = await signIn(s.app, { token });
    const set = res.headers.get("set-cookie")!;
    // A lasting cookie (12 h unless used), not one that dies with the browser.
    expect(set).toMatch(
      /^parkd_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/,
    );
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.json.data).toMatchObject({ kind: "token", scopes: ["admin"] });
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = await call(s.app, "GET", SESSION, { headers: { cookie } });
    expect(again.status).toBe(200);
    expect(again.json.data.csrf).toBe(csrf);
    // The cookie authenticates API requests like the token would.
    expect((await call(s.app, "GET", "/api/v1/whoami", { headers: { cookie } })).status).toBe(200);
    expect((await call(s.app, "GET", "/api/v1/tokens", { headers: { cookie } })).status).toBe(200);
  });

  test("the session says the site's time zone, as a browser names it, whatever the case it was typed in", async () => {
    for (const [given, said] of [
      ["Europe/Stockholm", "Europe/Stockholm"],
      ["europe/stockholm", "Europe/Stockholm"],
      ["UTC", "UTC"],
    ] as const) {
      const s = testApp({ timezone: given });
      const { cookie, res } = await signIn(s.app, { token: s.token("admin") });
      expect(res.json.data.time_zone).toBe(said);
      expect((await call(s.app, "GET", SESSION, { headers: { cookie } })).json.data.time_zone).toBe(said);
    }
  });

  test("the cookie's end follows the session's: each GET of the session sets it again, up to the 7 days", async () => {
    const clock = testClock(Date.parse("2026-06-15T06:00:00Z"));
    const s = testApp({}, clock);
    const { cookie } = await signIn(s.app, { token: s.token("permits:read") });
    const maxAge = (res: { headers: Headers }) =>
      /Max-Age=(\d+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
    clock.set(Date.parse("2026-06-15T17:00:00Z"));
    const again = await call(s.app, "GET", SESSION, { headers: { cookie } });
    expect(again.status).toBe(200);
    expect((again.headers.get("set-cookie") ?? "").split(";")[0]).toBe(cookie);
    expect(maxAge(again)).toBe("43200");
    // Used every 11 hours for nearly a week: the cookie lasts only to the session's 7th day.
    for (let h = 22; h < 7 * 24 - 2; h += 11) {
      clock.set(Date.parse("2026-06-15T06:00:00Z") + h * 3_600_000);
      expect((await call(s.app, "GET", SESSION, { headers: { cookie } })).status).toBe(200);
    }
    clock.set(Date.parse("2026-06-22T04:00:00Z"));
    expect(maxAge(await call(s.app, "GET", SESSION, { headers: { cookie } }))).toBe("7200");
    clock.set(Date.parse("2026-06-22T06:00:01Z"));
    const gone = await call(s.app, "GET", SESSION, { headers: { cookie } });
    expect(gone.status).toBe(401);
  });

  test("Secure when served over HTTPS", async () => {
    const s = testApp();
    const res = await s.app.handle(
      new Request("https://localhost/api/v1/session", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: s.token("permits:read") }),
      }),
    );
    expect(res.headers.get("set-cookie")).toContain("; Secure");
  });

  test("a user name and password sign in; a wrong one is 401 and counts as a failure", async () => {
    const s = testApp();
    await s.user("operator", "correct horse battery", "admin");
    const ok = await signIn(s.app, { username: "operator", password: "correct horse battery" });
    expect((await call(s.app, "GET", SESSION, { headers: { cookie: ok.cookie } })).json.data.kind).toBe(
      "user",
    );
    const bad = await call(s.app, "POST", SESSION, {
      body: { username: "operator", password: "wrong password!" },
    });
    expectProblem(bad, 401, "unauthorized");
    expect(bad.headers.get("set-cookie")).toBeNull();
    expect(bad.headers.get("www-authenticate")).not.toContain("Basic");
    expectProblem(await call(s.app, "POST", SESSION, { body: { token: "pk_nope" } }), 401, "unauthorized");
    expect(s.ctx.metrics.render()).toContain('parkd_auth_failures_total{reason="browser sign-in"} 2');
  });

  test("bad bodies are 400, not JSON is 415", async () => {
    const s = testApp();
    expectProblem(await call(s.app, "POST", SESSION, { body: {} }), 400, "validation");
    expectProblem(await call(s.app, "POST", SESSION, { body: { token: "x", extra: 1 } }), 400, "validation");
    expectProblem(await call(s.app, "POST", SESSION, { body: { username: "a" } }), 400, "validation");
    const form = await call(s.app, "POST", SESSION, {
      body: "token=abc",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
  });

  test("too many failures from one address: 429", async () => {
    const s = testApp();
    let last = 0;
    for (let i = 0; i < 40 && last !== 429; i++)
      last = (await call(s.app, "POST", SESSION, { body: { token: `pk_wrong${i}` } })).status;
    expect(last).toBe(429);
  });

  test("writes through the cookie need X-CSRF-Token: missing or wrong is 403, right is accepted", async () => {
    const s = testApp();
    const { cookie, csrf } = await signIn(s.app, { token: s.token("admin") });
    const body = { name: "handheld-2", scopes: ["permits:read"] };
    expectProblem(await call(s.app, "POST", "/api/v1/tokens", { body, headers: { cookie } }), 403, "csrf");
    expectProblem(
      await call(s.app, "POST", "/api/v1/tokens", { body, headers: { cookie, "x-csrf-token": `${csrf}x` } }),
      403,
      "csrf",
    );
    expect(s.credentials.listTokens().some((t) => t.name === "handheld-2")).toBe(false);
    const ok = await call(s.app, "POST", "/api/v1/tokens", {
      body,
      headers: { cookie, "x-csrf-token": csrf },
    });
    expect(ok.status).toBe(201);
    // A Bearer request needs no csrf value: no browser sends that header by itself.
    const bearer = await call(s.app, "POST", "/api/v1/tokens", {
      body: { name: "handheld-3", scopes: ["permits:read"] },
      token: s.token("admin"),
    });
    expect(bearer.status).toBe(201);
  });

  test("an attendant's session has the attendant's scopes", async () => {
    const s = testApp();
    const { cookie } = await signIn(s.app, { token: s.token("permits:read") });
    expect(
      (
        await call(s.app, "GET", "/api/v1/attendants/check-tickets?registration_number=ABC123", {
          headers: { cookie },
        })
      ).status,
    ).toBe(200);
    expectProblem(
      await call(s.app, "GET", "/api/v1/tokens", { headers: { cookie } }),
      403,
      "insufficient-scope",
    );
  });

  test("revoking the token or deleting the user ends their sessions at once", async () => {
    const s = testApp();
    const made = s.credentials.createToken({ name: "handheld-1", scopes: ["permits:read"] });
    const t = await signIn(s.app, { token: made.token });
    await s.user("terminal-2", "correct horse battery", "permits:read");
    const u = await signIn(s.app, { username: "terminal-2", password: "correct horse battery" });
    s.credentials.revokeToken(made.id);
    s.credentials.deleteUser("terminal-2");
    for (const cookie of [t.cookie, u.cookie]) {
      expectProblem(await call(s.app, "GET", SESSION, { headers: { cookie } }), 401, "unauthorized");
      expectProblem(await call(s.app, "GET", "/api/v1/whoami", { headers: { cookie } }), 401, "unauthorized");
    }
  });

  test("a session unused for 12 hours ends; one in use lives on", async () => {
    const clock = testClock();
    const s = testApp({}, clock);
    const a = await signIn(s.app, { token: s.token("admin") });
    const b = await signIn(s.app, { token: s.token("admin") });
    for (let i = 0; i < 3; i++) {
      clock.advance(6 * 3_600_000);
      expect((await call(s.app, "GET", SESSION, { headers: { cookie: b.cookie } })).status).toBe(200);
    }
    expectProblem(await call(s.app, "GET", SESSION, { headers: { cookie: a.cookie } }), 401, "unauthorized");
  });

  test("sign-out needs the csrf value, ends the session and clears the cookie", async () => {
    const s = testApp();
    const { cookie, csrf } = await signIn(s.app, { token: s.token("admin") });
    expectProblem(await call(s.app, "DELETE", SESSION, { headers: { cookie } }), 403, "csrf");
    const out = await call(s.app, "DELETE", SESSION, { headers: { cookie, "x-csrf-token": csrf } });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expectProblem(await call(s.app, "GET", SESSION, { headers: { cookie } }), 401, "unauthorized");
    expectProblem(await call(s.app, "GET", "/api/v1/tokens", { headers: { cookie } }), 401, "unauthorized");
    // Signed out already: nothing to refuse.
    expect((await call(s.app, "DELETE", SESSION, { headers: { cookie } })).status).toBe(204);
  });

  test("the process keeps only a hash of the session id, and never its csrf value", async () => {
    const s = testApp();
    const { cookie, csrf } = await signIn(s.app, { token: s.token("admin") });
    const id = cookie.split("=")[1]!;
    expect((await call(s.app, "GET", SESSION, { headers: { cookie } })).status).toBe(200);
    const inner = s.sessions as unknown as Record<"held" | "unwritten" | "lost", Map<string, unknown>>;
    const held = JSON.stringify([...inner.held, ...inner.unwritten, ...inner.lost]);
    expect(held).toContain(new Bun.CryptoHasher("sha256").update(id).digest("hex"));
    expect(held).not.toContain(id);
    expect(held).not.toContain(csrf);
    expect(s.sessions.size).toBe(1);
  });
});

test("both sign-in forms at once are refused", async () => {
  const s = testApp();
  const res = await call(s.app, "POST", SESSION, {
    body: { token: s.token("admin"), username: "x", password: "y" },
  });
  expectProblem(res, 400, "validation");
  expect(res.headers.get("set-cookie")).toBeNull();
});
