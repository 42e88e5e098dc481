import { describe, expect, test } from "bun:test";
import { handheldBase, isLoopback, SignInCodes } from "../../../src/modules/web/sign-in-codes.ts";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";

const CODES = "/api/v1/session/codes";

describe("one-time sign-in codes", () => {
  test("a code signs the handheld in as its token, once; the token is never in the URL", async () => {
    const s = testApp({ publicUrl: "https://parking-box.lan:8443" });
    const admin = s.token("admin");
    const made = s.credentials.createToken({ name: "handheld-5", scopes: ["permits:read"] });
    const issued = await call(s.app, "POST", CODES, { token: admin, body: { token_id: made.id } });
    expect(issued.status).toBe(201);
    expect(issued.headers.get("cache-control")).toBe("no-store");
    const { code, sign_in_url, reachable, expires_at } = issued.json.data;
    expect(sign_in_url).toBe(`https://parking-box.lan:8443/#code=${code}`);
    expect(sign_in_url).not.toContain(made.token);
    expect(reachable).toBe(true);
    expect(expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const first = await call(s.app, "POST", "/api/v1/session", { body: { code } });
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ kind: "token", name: "handheld-5", scopes: ["permits:read"] });
    expectProblem(await call(s.app, "POST", "/api/v1/session", { body: { code } }), 401, "unauthorized");
  });

  test("a code lasts ten minutes", async () => {
    const clock = testClock();
    const s = testApp({}, clock);
    const made = s.credentials.createToken({ name: "h", scopes: ["permits:read"] });
    const issue = async () =>
      (await call(s.app, "POST", CODES, { token: s.token("admin"), body: { token_id: made.id } })).json.data
        .code;
    const early = await issue();
    clock.advance(9 * 60_000);
    expect((await call(s.app, "POST", "/api/v1/session", { body: { code: early } })).status).toBe(200);
    const late = await issue();
    clock.advance(10 * 60_000 + 1);
    expectProblem(
      await call(s.app, "POST", "/api/v1/session", { body: { code: late } }),
      401,
      "unauthorized",
    );
  });

  test("a code of a token revoked since signs nobody in; an unknown token gets no code", async () => {
    const s = testApp();
    const admin = s.token("admin");
    const made = s.credentials.createToken({ name: "h", scopes: ["permits:read"] });
    const { code } = (await call(s.app, "POST", CODES, { token: admin, body: { token_id: made.id } })).json
      .data;
    s.credentials.revokeToken(made.id);
    expectProblem(await call(s.app, "POST", "/api/v1/session", { body: { code } }), 401, "unauthorized");
    expectProblem(
      await call(s.app, "POST", CODES, { token: admin, body: { token_id: made.id } }),
      404,
      "credential-not-found",
    );
    expectProblem(
      await call(s.app, "POST", CODES, { token: admin, body: { token_id: "tok_nope" } }),
      404,
      "credential-not-found",
    );
  });

  test("a new code for an existing token, and for a user; earlier codes stay good", async () => {
    const s = testApp({ publicUrl: "https://parking-box.lan:8443" });
    const admin = s.token("admin");
    const made = s.credentials.createToken({ name: "handheld-6", scopes: ["permits:read"] });
    const first = (await call(s.app, "POST", CODES, { token: admin, body: { token_id: made.id } })).json.data;
    const second = (await call(s.app, "POST", CODES, { token: admin, body: { token_id: made.id } })).json
      .data;
    expect(second.code).not.toBe(first.code);
    for (const { code } of [second, first]) {
      const signedIn = await call(s.app, "POST", "/api/v1/session", { body: { code } });
      expect(signedIn.json.data).toMatchObject({ kind: "token", name: "handheld-6" });
    }
    const { id: userId } = await s.credentials.createUser({
      name: "attendant-3",
      scopes: ["permits:read"],
      password: "correct horse battery",
    });
    const issued = await call(s.app, "POST", CODES, { token: admin, body: { user_id: userId } });
    expect(issued.status).toBe(201);
    expect(issued.json.data.sign_in_url).toBe(`https://parking-box.lan:8443/#code=${issued.json.data.code}`);
    const asUser = await call(s.app, "POST", "/api/v1/session", { body: { code: issued.json.data.code } });
    expect(asUser.status).toBe(200);
    expect(asUser.json.data).toMatchObject({ kind: "user", name: "attendant-3", scopes: ["permits:read"] });
    const cookie = (asUser.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect((await call(s.app, "GET", "/api/v1/whoami", { headers: { cookie } })).status).toBe(200);
  });

  test("a user's code: unknown or deleted users get none, and a deleted user's code signs nobody in", async () => {
    const s = testApp();
    const admin = s.token("admin");
    const made = s.credentials.createToken({ name: "h", scopes: ["permits:read"] });
    const { id } = await s.credentials.createUser({
      name: "attendant-4",
      scopes: ["permits:read"],
      password: "correct horse battery",
    });
    const { code } = (await call(s.app, "POST", CODES, { token: admin, body: { user_id: id } })).json.data;
    s.credentials.deleteUser(id);
    expectProblem(await call(s.app, "POST", "/api/v1/session", { body: { code } }), 401, "unauthorized");
    for (const body of [{ user_id: id }, { user_id: "usr_nope" }, { user_id: made.id }, { token_id: id }])
      expectProblem(await call(s.app, "POST", CODES, { token: admin, body }), 404, "credential-not-found");
    // One credential a code: neither, both, or an empty id is a 400 and makes no code.
    for (const body of [{}, { token_id: made.id, user_id: id }, { token_id: "" }, { user_id: 7 }])
      expectProblem(await call(s.app, "POST", CODES, { token: admin, body }), 400, "validation");
  });

  test("only an admin makes codes", async () => {
    const s = testApp();
    const made = s.credentials.createToken({ name: "h", scopes: ["permits:read"] });
    expectProblem(
      await call(s.app, "POST", CODES, { token: made.token, body: { token_id: made.id } }),
      403,
      "insufficient-scope",
    );
    expectProblem(await call(s.app, "POST", CODES, { body: { token_id: made.id } }), 401, "unauthorized");
    expectProblem(
      await call(s.app, "POST", CODES, { token: s.token("admin"), body: { token_id: made.id, extra: 1 } }),
      400,
      "validation",
    );
  });

  test("made from the box's own screen without --public-url: the LAN address, or a warning", async () => {
    const s = testApp();
    const admin = s.token("admin");
    const made = s.credentials.createToken({ name: "h", scopes: ["permits:read"] });
    const issue = () =>
      call(s.app, "POST", CODES, {
        token: admin,
        body: { token_id: made.id },
        headers: { host: "localhost:8443" },
      });
    const alone = (await issue()).json.data;
    expect(alone.reachable).toBe(false);
    expect(alone.sign_in_url).toStartWith("http://localhost:8443/#code=");
    s.ctx.listening = ["https://localhost:8443", "https://192.168.1.20:8443"];
    const lan = (await issue()).json.data;
    expect(lan.reachable).toBe(true);
    expect(lan.sign_in_url).toStartWith("https://192.168.1.20:8443/#code=");
  });
});

describe("the codes themselves", () => {
  test("are kept only as hashes", () => {
    const codes = new SignInCodes();
    const { code } = codes.issue({ kind: "token", id: "tok_1" });
    expect(JSON.stringify([...(codes as unknown as { codes: Map<string, unknown> }).codes])).not.toContain(
      code,
    );
    expect(codes.redeem(code)).toEqual({ kind: "token", id: "tok_1" });
    expect(codes.redeem(code)).toBeNull();
  });

  test.each([
    ["https://localhost:8443", true],
    ["http://127.0.0.1:8080", true],
    ["https://[::1]:8443", true],
    ["https://box.localhost", true],
    ["https://192.168.1.20:8443", false],
    ["https://parking-box.lan", false],
    ["https://[fd00::20]:8443", false],
  ])("%s is loopback: %p", (url, loop) => {
    expect(isLoopback(url)).toBe(loop);
  });

  test("the base: --public-url first, then a LAN address, then the console's own", () => {
    expect(handheldBase("https://p.lan", ["https://192.168.1.2:8443"], "https://localhost:8443")).toEqual({
      base: "https://p.lan",
      reachable: true,
    });
    expect(handheldBase(undefined, ["https://localhost:8443", "https://10.0.0.2:8443"], "x")).toEqual({
      base: "https://10.0.0.2:8443",
      reachable: true,
    });
    expect(handheldBase(undefined, ["https://localhost:8443"], "https://localhost:8443")).toEqual({
      base: "https://localhost:8443",
      reachable: false,
    });
  });
});
