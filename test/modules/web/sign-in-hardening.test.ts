import { describe, expect, spyOn, test } from "bun:test";
import { CHECKS_WAITING } from "../../../src/modules/admin/credentials/passwords.ts";
import { MAX_SESSIONS_PER_CREDENTIAL } from "../../../src/modules/web/sessions.ts";
import { attachMeta } from "../../../src/platform/http/request-meta.ts";
import { call, expectProblem, request, testApp, testClock } from "../../support/app.ts";

const SESSION = "/api/v1/session";
const cookieOf = (res: { headers: Headers }) => (res.headers.get("set-cookie") ?? "").split(";")[0]!;

/** A sign-in as a browser sends it from a page: the box is `box.local:8443` here. */
function fromPage(s: ReturnType<typeof testApp>, body: unknown, headers: Record<string, string>) {
  return s.app.handle(
    new Request("https://localhost/api/v1/session", {
      method: "POST",
      headers: { host: "box.local:8443", ...headers },
      // Bytes, so that no Content-Type is added when the test gives none.
      body: new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body)),
    }),
  );
}

describe("sign-in takes JSON from the app's own pages only", () => {
  test("a body without Content-Type, or as text, is 415 and signs nobody in", async () => {
    const s = testApp();
    const token = s.token("permits:read");
    const kinds: Record<string, string>[] = [
      {},
      { "content-type": "text/plain" },
      { "content-type": "application/x+json" },
    ];
    for (const headers of kinds) {
      const res = await fromPage(s, { token }, headers);
      expect(res.status).toBe(415);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect(s.sessions.size).toBe(0);
  });

  const json = { "content-type": "application/json" };
  test.each([
    ["another port of the same host", { origin: "https://box.local:9999" }],
    ["another scheme", { origin: "http://box.local:8443" }],
    ["another site", { origin: "https://evil.example" }],
    ["an opaque origin", { origin: "null" }],
    ["Sec-Fetch-Site: same-site", { "sec-fetch-site": "same-site" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    [
      "a same-origin Origin but a cross-site Sec-Fetch-Site",
      { origin: "https://box.local:8443", "sec-fetch-site": "cross-site" },
    ],
  ])("from %s: 403 cross-origin, no session", async (_, headers) => {
    const s = testApp();
    const res = await fromPage(s, { token: s.token("permits:read") }, { ...json, ...headers });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { type: string }).type).toBe("/problems/cross-origin");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(s.sessions.size).toBe(0);
  });

  test.each([
    ["the page itself (Origin)", { origin: "https://box.local:8443" }],
    ["the page itself (Sec-Fetch-Site)", { "sec-fetch-site": "same-origin" }],
    ["a typed address (Sec-Fetch-Site: none)", { "sec-fetch-site": "none" }],
    ["a client that is not a browser", {}],
  ])("from %s: signed in", async (_, headers) => {
    const s = testApp();
    const res = await fromPage(s, { token: s.token("permits:read") }, { ...json, ...headers });
    expect(res.status).toBe(200);
    expect(cookieOf(res)).toStartWith("parkd_session=");
  });
});

describe("sign-in lockout", () => {
  test("never refuses a valid token, and says how long it lasts", async () => {
    const s = testApp();
    let locked: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 40 && !locked; i++) {
      const r = await call(s.app, "POST", SESSION, { body: { token: `pk_wrong${i}` } });
      if (r.status === 429) locked = r;
    }
    expect(locked).toBeDefined();
    expectProblem(locked!, 429, "too-many-requests");
    expect(locked!.json.detail).toMatch(/try again in \d+ (s|min)$/);
    expect(Number(locked!.headers.get("retry-after"))).toBeGreaterThan(0);
    // The address is locked for wrong tokens, not for a right one.
    const ok = await call(s.app, "POST", SESSION, { body: { token: s.token("permits:read") } });
    expect(ok.status).toBe(200);
    expect((await call(s.app, "POST", SESSION, { body: { token: "pk_still_wrong" } })).status).toBe(429);
  });

  test("a locked user name is refused before its password is checked, even a right one", async () => {
    const s = testApp();
    await s.user("operator", "correct horse battery", "admin");
    let status = 0;
    for (let i = 0; i < 40 && status !== 429; i++)
      status = (await call(s.app, "POST", SESSION, { body: { username: "operator", password: `nope-${i}` } }))
        .status;
    expect(status).toBe(429);
    const right = await call(s.app, "POST", SESSION, {
      body: { username: "operator", password: "correct horse battery" },
    });
    expectProblem(right, 429, "too-many-requests");
    // Ten real password checks (argon2id): about a second alone, five on a busy machine.
  }, 30_000);
});

/** A sign-in with a name and password from a client address, as the front end hands it over. */
async function signInFrom(s: ReturnType<typeof testApp>, ip: string, username: string, password: string) {
  const r = request("POST", SESSION, { body: { username, password } });
  attachMeta(r, { id: "t", ip });
  const res = await s.app.handle(r);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

describe("a password spray over changing user names", () => {
  test("is stopped per address across names; a user signed in before from there is still served", async () => {
    const s = testApp();
    await s.user("operator", "correct horse battery", "admin");
    await s.user("attendant", "another long password", "permits:read");
    expect((await signInFrom(s, "10.0.0.9", "operator", "correct horse battery")).status).toBe(200);
    const verify = spyOn(Bun.password, "verify");
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++)
        statuses.push((await signInFrom(s, "10.0.0.9", `guess-${i}`, "Summer2026!")).status);
      // 30 failures (three times the per-name limit), then 429 for every further new name.
      expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
      expect(statuses.slice(30)).toEqual(Array(10).fill(429));
      expect(verify.mock.calls.length).toBe(30);
      const locked = await signInFrom(s, "10.0.0.9", "attendant", "another long password");
      const p = expectProblem(locked, 429, "too-many-requests");
      expect(p.detail).toContain("this address");
      expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(verify.mock.calls.length).toBe(30);
      // The name and password verified before from there: served, without argon2id work.
      expect((await signInFrom(s, "10.0.0.9", "operator", "correct horse battery")).status).toBe(200);
      expect(verify.mock.calls.length).toBe(30);
      expect((await signInFrom(s, "10.0.0.7", "attendant", "another long password")).status).toBe(200);
    } finally {
      verify.mockRestore();
    }
  }, 60_000);

  test("Basic failures on the API and sign-in failures add up per address", async () => {
    const s = testApp();
    const ask = (name: string) => {
      const r = request("GET", "/api/v1/whoami", {
        authorization: `Basic ${Buffer.from(`${name}:Summer2026!`).toString("base64")}`,
      });
      attachMeta(r, { id: "t", ip: "10.0.0.4" });
      return s.app.handle(r);
    };
    for (let i = 0; i < 20; i++) expect((await ask(`api-${i}`)).status).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await signInFrom(s, "10.0.0.4", `web-${i}`, "Summer2026!")).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    expect((await ask("api-late")).status).toBe(429);
  }, 60_000);

  test("past a few waiting password checks a new one is refused at once; a pair verified before is served", async () => {
    const s = testApp();
    await s.user("operator", "correct horse battery", "admin");
    expect((await signInFrom(s, "10.0.1.1", "operator", "correct horse battery")).status).toBe(200);
    // An unknown name is checked against a hash made on first need: made now, not under the mock.
    expect((await signInFrom(s, "10.0.1.1", "nobody", "Summer2026!")).status).toBe(401);
    const real = Bun.password.verify;
    const held: (() => void)[] = [];
    let release: ReturnType<typeof setInterval> | undefined;
    const verify = spyOn(Bun.password, "verify").mockImplementation(async (password, hash) => {
      await new Promise<void>((r) => held.push(r));
      return real(password, hash);
    });
    try {
      // Spread over addresses, so that no lockout stops them first.
      const queued = Array.from({ length: 2 + CHECKS_WAITING }, (_, i) =>
        signInFrom(s, `10.0.2.${i + 1}`, `guess-${i}`, "Summer2026!"),
      );
      for (let i = 0; i < 200 && held.length < 2; i++) await Bun.sleep(10);
      await Bun.sleep(20);
      expect(held.length).toBe(2);
      const refused = await Promise.race([
        signInFrom(s, "10.0.3.1", "guess-late", "Summer2026!"),
        Bun.sleep(2_000).then(() => null),
      ]);
      expect(refused).not.toBeNull();
      expectProblem(refused!, 503, "password-checks-busy");
      expect(refused!.headers.get("retry-after")).toBe("1");
      // A pair verified before skips the queue.
      const known = await Promise.race([
        signInFrom(s, "10.0.3.2", "operator", "correct horse battery"),
        Bun.sleep(2_000).then(() => null),
      ]);
      expect(known?.status).toBe(200);
      // Released, the queued checks are answered (401: those names do not exist).
      release = setInterval(() => {
        for (const r of held.splice(0)) r();
      }, 5);
      expect((await Promise.all(queued)).map((r) => r.status)).toEqual(Array(queued.length).fill(401));
      expect((await signInFrom(s, "10.0.3.1", "guess-late", "Summer2026!")).status).toBe(401);
    } finally {
      clearInterval(release);
      verify.mockRestore();
      for (const r of held.splice(0)) r();
    }
  }, 60_000);
});

describe("sessions per credential", () => {
  test("one credential signing in again and again evicts only its own oldest sessions", async () => {
    const s = testApp();
    const mine = await call(s.app, "POST", SESSION, { body: { token: s.token("admin") } });
    const other = cookieOf(mine);
    const spray = s.token("permits:read");
    const first = cookieOf(await call(s.app, "POST", SESSION, { body: { token: spray } }));
    for (let i = 0; i < MAX_SESSIONS_PER_CREDENTIAL + 20; i++)
      expect((await call(s.app, "POST", SESSION, { body: { token: spray } })).status).toBe(200);
    expect(s.sessions.size).toBe(MAX_SESSIONS_PER_CREDENTIAL + 1);
    expect((await call(s.app, "GET", SESSION, { headers: { cookie: other } })).status).toBe(200);
    expect((await call(s.app, "GET", SESSION, { headers: { cookie: first } })).status).toBe(401);
  });
});

describe("sign-out", () => {
  test("the app's own page signs out without the csrf value; anything else still needs it", async () => {
    const s = testApp();
    const signIn = async () =>
      cookieOf(await call(s.app, "POST", SESSION, { body: { token: s.token("admin") } }));
    const a = await signIn();
    const cross = await call(s.app, "DELETE", SESSION, {
      headers: { cookie: a, host: "box.local", origin: "http://box.local:9999" },
    });
    expectProblem(cross, 403, "csrf");
    expect((await call(s.app, "GET", SESSION, { headers: { cookie: a } })).status).toBe(200);
    const own = await call(s.app, "DELETE", SESSION, {
      headers: { cookie: a, "sec-fetch-site": "same-origin" },
    });
    expect(own.status).toBe(204);
    expect(own.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await call(s.app, "GET", SESSION, { headers: { cookie: a } })).status).toBe(401);
  });
});

describe("a lost session says why", () => {
  const signInWith = async (s: ReturnType<typeof testApp>, body: unknown) =>
    cookieOf(await call(s.app, "POST", SESSION, { body }));
  const reasonOf = async (s: ReturnType<typeof testApp>, cookie: string) => {
    const r = await call(s.app, "GET", SESSION, { headers: { cookie } });
    expectProblem(r, 401, "unauthorized");
    return r.json.reason as string | undefined;
  };

  test("revoked, deleted, expired, ended; nothing without a cookie", async () => {
    const clock = testClock();
    const s = testApp({}, clock);
    const made = s.credentials.createToken({ name: "h", scopes: ["permits:read"] });
    const revoked = await signInWith(s, { token: made.token });
    await s.user("attendant-2", "correct horse battery", "permits:read");
    const deleted = await signInWith(s, { username: "attendant-2", password: "correct horse battery" });
    const expired = await signInWith(s, { token: s.token("permits:read") });
    s.credentials.revokeToken(made.id);
    s.credentials.deleteUser("attendant-2");
    expect(await reasonOf(s, revoked)).toBe("revoked");
    expect(await reasonOf(s, deleted)).toBe("deleted");
    clock.advance(13 * 3_600_000);
    expect(await reasonOf(s, expired)).toBe("expired");
    // A box over another store (or a cookie from before its sessions were kept) knows none of
    // these: the session ended, no more is known.
    const other = testApp({}, clock);
    expect(await reasonOf(other, expired)).toBe("ended");
    expect(await reasonOf(s, "parkd_session=nonsense")).toBe("ended");
    expect(await reasonOf(s, "parkd_session=Ab12Cd34.a-session-of-an-earlier-release")).toBe("ended");
    expect(await reasonOf(s, "")).toBeUndefined();
  });
});
