import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { createApp } from "../../src/app.ts";
import { authPlugin } from "../../src/platform/http/auth.ts";
import { attachMeta } from "../../src/platform/http/request-meta.ts";
import { call, expectProblem, request, testApp, testClock } from "../support/app.ts";

/** A route that exercises the shared plumbing the way feature routes do. */
function withProbeRoutes(setup: ReturnType<typeof testApp>) {
  const probe = new Elysia()
    .use(authPlugin(setup.auth))
    .post("/probe", ({ body, credential }) => ({ got: body, by: credential.name }), {
      auth: { scope: "tickets:write", basic: true },
      body: t.Object({ n: t.Integer({ minimum: 0 }), inner: t.Object({ s: t.String({ minLength: 1 }) }) }),
    })
    .get("/probe/read", ({ credential }) => ({ by: credential.name }), { auth: { scope: "permits:read" } })
    .get("/probe/boom", () => {
      throw new Error("secret SELECT * FROM api_tokens at /srv/parkd/src/x.ts");
    });
  return createApp(setup.ctx).use(probe);
}

describe("problem details for the whole app", () => {
  const s = testApp();
  const app = withProbeRoutes(s);
  const writer = s.token("tickets:write");

  test("unknown route is 404 problem+json", async () => {
    const res = await call(app, "GET", "/no/such/route");
    const p = expectProblem(res, 404, "not-found");
    expect(p.detail).toContain("/no/such/route");
  });

  test("whitespace is SP and HTAB only: a no-break space is part of a token and of a media type", async () => {
    const read = s.token("permits:read");
    const asked = (authorization: string) =>
      app.handle(new Request("http://localhost/probe/read", { headers: { authorization } }));
    expect((await asked(`Bearer \t${read} \t`)).status).toBe(200);
    expect((await asked(`Bearer ${read}\u00a0`)).status).toBe(401);
    const posted = await app.handle(
      new Request("http://localhost/probe", {
        method: "POST",
        headers: { authorization: `Bearer ${writer}`, "content-type": "application/json\u00a0" },
        body: '{"n":1,"inner":{"s":"x"}}',
      }),
    );
    expect(posted.status).toBe(415);
  });

  test("malformed JSON is 400", async () => {
    expectProblem(
      await call(app, "POST", "/probe", { token: writer, body: '{"n": 1,' }),
      400,
      "malformed-json",
    );
  });

  test("a body that is not JSON is 415", async () => {
    const res = await call(app, "POST", "/probe", {
      token: writer,
      body: "n=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectProblem(res, 415, "unsupported-media-type");
  });

  test("a body with no Content-Type is read as JSON", async () => {
    const req = new Request("http://localhost/probe", {
      method: "POST",
      headers: { authorization: `Bearer ${writer}` },
      body: new TextEncoder().encode('{"n":1,"inner":{"s":"x"}}'),
    });
    const res = await app.handle(req);
    expect(res.status).toBe(200);
  });

  test("validation lists every failing field with a JSON pointer", async () => {
    const res = await call(app, "POST", "/probe", { token: writer, body: { n: -1, inner: { s: "" } } });
    const p = expectProblem(res, 400, "validation");
    const pointers = p.errors!.map((e) => e.pointer).sort();
    expect(pointers).toEqual(["/inner/s", "/n"]);
    for (const e of p.errors!) expect(e.message.length).toBeGreaterThan(0);
  });

  test("an unexpected failure is 500 with nothing internal in the body", async () => {
    const res = await call(app, "GET", "/probe/boom");
    const p = expectProblem(res, 500, "internal");
    expect(res.text).not.toContain("SELECT");
    expect(res.text).not.toContain("/srv");
    expect(res.text).not.toContain("at ");
    expect(p.detail).not.toContain("secret");
  });
});

describe("authentication and scopes", () => {
  test("no credentials: 401 with the right challenge", async () => {
    const s = testApp();
    const app = withProbeRoutes(s);
    const res = await call(app, "GET", "/probe/read");
    expectProblem(res, 401, "unauthorized");
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="parking"');
    const intake = await call(app, "POST", "/probe", { body: { n: 1, inner: { s: "x" } } });
    expectProblem(intake, 401, "unauthorized");
    expect(intake.headers.get("www-authenticate")).toBe('Bearer realm="parking", Basic realm="parking"');
  });

  test("unknown, revoked and expired tokens are 401", async () => {
    const clock = testClock();
    const s = testApp({}, clock);
    const app = withProbeRoutes(s);
    expectProblem(await call(app, "GET", "/probe/read", { token: "pk_nope" }), 401, "unauthorized");
    const t1 = s.credentials.createToken({ name: "gone", scopes: ["permits:read"] }).token;
    expect((await call(app, "GET", "/probe/read", { token: t1 })).status).toBe(200);
    s.credentials.revokeToken("gone");
    expectProblem(await call(app, "GET", "/probe/read", { token: t1 }), 401, "unauthorized");
    const t2 = s.credentials.createToken({
      name: "brief",
      scopes: ["permits:read"],
      expiresInMs: 60_000,
    }).token;
    expect((await call(app, "GET", "/probe/read", { token: t2 })).status).toBe(200);
    clock.advance(60_000);
    expectProblem(await call(app, "GET", "/probe/read", { token: t2 }), 401, "unauthorized");
  });

  test("a token revoked behind the service's back (the CLI, in another process) is refused within a second", async () => {
    const s = testApp();
    const app = withProbeRoutes(s);
    const token = s.credentials.createToken({ name: "cli", scopes: ["permits:read"] }).token;
    expect((await call(app, "GET", "/probe/read", { token })).status).toBe(200);
    s.ctx.store.sqlite.run("UPDATE api_tokens SET revoked_at = 1 WHERE name = 'cli'");
    const revokedAt = performance.now();
    let res = await call(app, "GET", "/probe/read", { token });
    while (res.status === 200 && performance.now() - revokedAt < 2_000) {
      await Bun.sleep(25);
      res = await call(app, "GET", "/probe/read", { token });
    }
    expectProblem(res, 401, "unauthorized");
    expect(performance.now() - revokedAt).toBeLessThan(1_000);
  });

  test("a credential without the scope is 403 insufficient_scope; admin has every scope", async () => {
    const s = testApp();
    const app = withProbeRoutes(s);
    const res = await call(app, "GET", "/probe/read", { token: s.token("tickets:write") });
    expectProblem(res, 403, "insufficient-scope");
    expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    const admin = await call(app, "GET", "/probe/read", { token: s.token("admin") });
    expect(admin.status).toBe(200);
  });

  test("Basic works only where the route allows it, and checks the password", async () => {
    const s = testApp();
    const app = withProbeRoutes(s);
    const basic = await s.user("terminal-1", "correct horse battery", "tickets:write", "permits:read");
    const ok = await call(app, "POST", "/probe", { authorization: basic, body: { n: 1, inner: { s: "x" } } });
    expect(ok.status).toBe(200);
    expect(ok.json.by).toBe("terminal-1");
    expectProblem(await call(app, "GET", "/probe/read", { authorization: basic }), 401, "unauthorized");
    const wrong = `Basic ${Buffer.from("terminal-1:wrong password!").toString("base64")}`;
    expectProblem(
      await call(app, "POST", "/probe", { authorization: wrong, body: { n: 1, inner: { s: "x" } } }),
      401,
      "unauthorized",
    );
    s.credentials.deleteUser("terminal-1");
    expectProblem(
      await call(app, "POST", "/probe", { authorization: basic, body: { n: 1, inner: { s: "x" } } }),
      401,
      "unauthorized",
    );
  });

  test("repeated failures from one address get 429 with Retry-After; a valid token is still served", async () => {
    const s = testApp();
    const app = withProbeRoutes(s);
    const good = s.token("permits:read");
    const from = (ip: string, token: string) => {
      const r = request("GET", "/probe/read", { token });
      attachMeta(r, { id: "t", ip });
      return app.handle(r);
    };
    for (let i = 0; i < 10; i++) expect((await from("10.0.0.9", "pk_guess")).status).toBe(401);
    const blocked = await from("10.0.0.9", "pk_guess");
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("content-type")).toStartWith("application/problem+json");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await blocked.json()) as { type: string }).type).toBe("/problems/too-many-requests");
    expect((await from("10.0.0.9", good)).status).toBe(200);
    expect((await from("10.0.0.10", good)).status).toBe(200);
  });
});

describe("health", () => {
  test("healthz and readyz answer ok", async () => {
    const { app } = testApp();
    expect((await call(app, "GET", "/healthz")).json).toEqual({ status: "ok" });
    expect((await call(app, "GET", "/readyz")).json).toEqual({ status: "ok" });
  });

  test("readyz stays ready near and at the reserve kept for ticket events, and lists it with its fix", async () => {
    const s = testApp();
    const MB = 1_048_576;
    let free = 150 * MB;
    s.ctx.store.reserveBytes = 100 * MB;
    s.ctx.store.room = () => ({ freeBytes: free, reusableBytes: 20 * MB, sizeBytes: 2000 * MB });
    const near = await call(s.app, "GET", "/readyz");
    expect(near.status).toBe(200);
    expect(near.json).toMatchObject({
      status: "ok",
      problems: [
        {
          condition: "disk-near-reserve",
          summary:
            "170 MB left for records (free on the disk and reusable in the store), 100 MB kept for ticket events",
        },
      ],
    });
    free = 70 * MB;
    const at = await call(s.app, "GET", "/readyz");
    expect(at.status).toBe(200);
    expect((at.json as { problems: { condition: string; fix: string }[] }).problems[0]).toMatchObject({
      condition: "disk-at-reserve",
      fix: expect.stringContaining("free space on that disk"),
    });
    free = 500 * MB;
    expect((await call(s.app, "GET", "/readyz")).json).toEqual({ status: "ok" });
  });

  test("readyz is 503 when the store cannot commit", async () => {
    const s = testApp();
    s.ctx.store.sqlite.run("PRAGMA query_only = ON");
    expectProblem(await call(s.app, "GET", "/readyz"), 503, "store-unavailable");
  });
});

describe("store failures", () => {
  test("a write that the store refuses is 503 problem+json, not 500", async () => {
    const s = testApp();
    const app = createApp(s.ctx).use(
      new Elysia().post("/write", () => {
        s.ctx.store.sqlite.run("INSERT INTO store_probe (id, checked_at) VALUES (7, 1)");
        return { ok: true };
      }),
    );
    s.ctx.store.sqlite.run("PRAGMA query_only = ON");
    expectProblem(await call(app, "POST", "/write", { body: {} }), 503, "store-unavailable");
    s.ctx.store.sqlite.run("PRAGMA query_only = OFF");
    expect((await call(app, "POST", "/write", { body: {} })).status).toBe(200);
  });
});
