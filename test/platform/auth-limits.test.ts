import { describe, expect, spyOn, test } from "bun:test";
import { attachMeta } from "../../src/platform/http/request-meta.ts";
import { call, expectProblem, request, testApp, testClock } from "../support/app.ts";

/** A request as the front end hands it over: from a peer address, maybe through a proxy. */
function from(ip: string, method: string, path: string, opts: Parameters<typeof request>[2] = {}) {
  const r = request(method, path, opts);
  attachMeta(r, { id: "t", ip });
  return r;
}

const basic = (name: string, password: string) =>
  `Basic ${Buffer.from(`${name}:${password}`).toString("base64")}`;

async function problemOf(res: Response) {
  return {
    status: res.status,
    headers: res.headers,
    json: (await res.json()) as { type: string; detail: string },
  };
}

describe("tokens in the query string", () => {
  test("?access_token= is refused on every route, public ones too, with a clear detail", async () => {
    const s = testApp();
    const token = s.token("admin");
    for (const path of [
      `/api/v1/whoami?access_token=${token}`,
      `/api/v1/parkings?x=1&access_token=${token}`,
      `/healthz?access_token=${token}`,
      `/api/v1/attendants/check-tickets?registration_number=ABC123&access_token=${token}`,
    ]) {
      const res = await call(s.app, "GET", path);
      const p = expectProblem(res, 401, "unauthorized");
      expect(p.detail).toContain("query string");
      expect(res.text).not.toContain(token);
    }
    // The same token in the header works.
    expect((await call(s.app, "GET", "/api/v1/whoami", { token })).status).toBe(200);
    // A parameter that merely contains the words is not refused.
    expect((await call(s.app, "GET", "/api/v1/parkings?no_access_token_here=1")).status).toBe(200);
  });
});

describe("failed-authentication lockout", () => {
  test("a valid Bearer token is served from an address that failed many times", async () => {
    const s = testApp();
    const good = s.token("permits:read");
    for (let i = 0; i < 30; i++)
      await s.app.handle(from("10.0.0.9", "GET", "/api/v1/whoami", { token: "pk_x" }));
    const locked = await problemOf(
      await s.app.handle(from("10.0.0.9", "GET", "/api/v1/whoami", { token: "pk_x" })),
    );
    expect(locked.status).toBe(429);
    expect(locked.json.type).toBe("/problems/too-many-requests");
    const ok = await s.app.handle(from("10.0.0.9", "GET", "/api/v1/whoami", { token: good }));
    expect(ok.status).toBe(200);
  });

  test("Basic failures count per address and user name: another user from the same address gets in", async () => {
    const s = testApp();
    await s.user("terminal-1", "correct horse battery", "tickets:write");
    await s.user("terminal-2", "another long password", "tickets:write");
    const verify = spyOn(Bun.password, "verify");
    try {
      for (let i = 0; i < 10; i++) {
        const res = await s.app.handle(
          from("10.0.0.9", "GET", "/api/v1/whoami", { authorization: basic("terminal-1", `wrong-${i}`) }),
        );
        expect(res.status).toBe(401);
      }
      const calls = verify.mock.calls.length;
      // Locked: even the right password gets 429, and no argon2 work is spent on it.
      const locked = await problemOf(
        await s.app.handle(
          from("10.0.0.9", "GET", "/api/v1/whoami", {
            authorization: basic("terminal-1", "correct horse battery"),
          }),
        ),
      );
      expect(locked.status).toBe(429);
      expect(locked.json.detail).toContain("user name");
      expect(verify.mock.calls.length).toBe(calls);
      // Another user behind the same address, and the same user from elsewhere, are not affected.
      const other = await s.app.handle(
        from("10.0.0.9", "GET", "/api/v1/whoami", {
          authorization: basic("terminal-2", "another long password"),
        }),
      );
      expect(other.status).toBe(200);
      const elsewhere = await s.app.handle(
        from("10.0.0.7", "GET", "/api/v1/whoami", {
          authorization: basic("terminal-1", "correct horse battery"),
        }),
      );
      expect(elsewhere.status).toBe(200);
    } finally {
      verify.mockRestore();
    }
  }, 30_000);

  test("Basic failures also count per address across user names: a spray is stopped, a terminal that signed in before is still served", async () => {
    const s = testApp();
    await s.user("terminal-1", "correct horse battery", "tickets:write");
    await s.user("terminal-2", "another long password", "tickets:write");
    const ask = (ip: string, name: string, password: string) =>
      s.app.handle(from(ip, "GET", "/api/v1/whoami", { authorization: basic(name, password) }));
    // terminal-1 has signed in from this address before (its steady traffic).
    expect((await ask("10.0.0.9", "terminal-1", "correct horse battery")).status).toBe(200);
    const verify = spyOn(Bun.password, "verify");
    try {
      // 30 tries over 30 user names (each name stays under its own limit of 10).
      for (let i = 0; i < 30; i++)
        expect((await ask("10.0.0.9", `guess-${i}`, "Summer2026!")).status).toBe(401);
      const spent = verify.mock.calls.length;
      expect(spent).toBe(30);
      const sprayed = await problemOf(await ask("10.0.0.9", "guess-31", "Summer2026!"));
      expect(sprayed.status).toBe(429);
      expect(sprayed.json.detail).toContain("this address");
      // A name and password not verified before get 429 too, without argon2id work.
      expect((await ask("10.0.0.9", "terminal-2", "another long password")).status).toBe(429);
      expect(verify.mock.calls.length).toBe(spent);
      // The terminal verified before is served (from what was verified, no argon2id either).
      expect((await ask("10.0.0.9", "terminal-1", "correct horse battery")).status).toBe(200);
      expect(verify.mock.calls.length).toBe(spent);
      // Other addresses are not affected.
      expect((await ask("10.0.0.7", "terminal-2", "another long password")).status).toBe(200);
    } finally {
      verify.mockRestore();
    }
  }, 60_000);

  test("one argon2id check per name and password at a time, at most two at once", async () => {
    const s = testApp();
    await s.user("terminal-1", "correct horse battery", "tickets:write");
    for (let i = 0; i < 6; i++) await s.user(`other-${i}`, `password number ${i}`, "tickets:write");
    const real = Bun.password.verify;
    let active = 0;
    let most = 0;
    const verify = spyOn(Bun.password, "verify").mockImplementation(async (password, hash) => {
      active++;
      most = Math.max(most, active);
      try {
        return await real(password, hash);
      } finally {
        active--;
      }
    });
    try {
      const same = await Promise.all(
        Array.from({ length: 20 }, () =>
          s.app.handle(
            from("10.0.0.5", "GET", "/api/v1/whoami", {
              authorization: basic("terminal-1", "correct horse battery"),
            }),
          ),
        ),
      );
      expect(same.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(verify.mock.calls.length).toBe(1);
      const different = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          s.app.handle(
            from("10.0.0.6", "GET", "/api/v1/whoami", {
              authorization: basic(`other-${i}`, `password number ${i}`),
            }),
          ),
        ),
      );
      expect(different.map((r) => r.status)).toEqual(Array(6).fill(200));
      expect(verify.mock.calls.length).toBe(7);
      expect(most).toBe(2);
    } finally {
      verify.mockRestore();
    }
  }, 60_000);

  test("Basic on the intake: a check that would wait behind 8 others is refused at once with 503", async () => {
    const s = testApp();
    await s.user("terminal-1", "correct horse battery", "tickets:write");
    const ask = (ip: string, name: string, password: string) =>
      s.app.handle(from(ip, "GET", "/api/v1/whoami", { authorization: basic(name, password) }));
    expect((await ask("10.0.0.5", "terminal-1", "correct horse battery")).status).toBe(200);
    expect((await ask("10.0.0.5", "nobody", "warms the dummy hash")).status).toBe(401);
    const real = Bun.password.verify;
    const held: (() => void)[] = [];
    const verify = spyOn(Bun.password, "verify").mockImplementation(async (password, hash) => {
      await new Promise<void>((r) => held.push(r));
      return real(password, hash);
    });
    let release: ReturnType<typeof setInterval> | undefined;
    try {
      const queued = Array.from({ length: 10 }, (_, i) =>
        ask(`10.0.1.${i + 1}`, `guess-${i}`, "Summer2026!"),
      );
      for (let i = 0; i < 200 && held.length < 2; i++) await Bun.sleep(10);
      const busy = await problemOf(await ask("10.0.2.1", "guess-late", "Summer2026!"));
      expect(busy.status).toBe(503);
      expect(busy.json.type).toBe("/problems/password-checks-busy");
      expect(busy.headers.get("retry-after")).toBe("1");
      // The terminal verified before is served meanwhile.
      expect((await ask("10.0.2.2", "terminal-1", "correct horse battery")).status).toBe(200);
      release = setInterval(() => {
        for (const r of held.splice(0)) r();
      }, 5);
      expect((await Promise.all(queued)).map((r) => r.status)).toEqual(Array(10).fill(401));
    } finally {
      clearInterval(release);
      verify.mockRestore();
      for (const r of held.splice(0)) r();
    }
  }, 60_000);

  test("a steady terminal never waits for argon2id: its password is checked again in the background before it lapses", async () => {
    const clock = testClock();
    const s = testApp({}, clock);
    await s.user("terminal-1", "correct horse battery", "tickets:write");
    const ask = () =>
      s.app.handle(
        from("10.0.0.5", "GET", "/api/v1/whoami", {
          authorization: basic("terminal-1", "correct horse battery"),
        }),
      );
    expect((await ask()).status).toBe(200);
    const real = Bun.password.verify;
    let release: () => void = () => {};
    const verify = spyOn(Bun.password, "verify").mockImplementation(async (password, hash) => {
      await new Promise<void>((r) => {
        release = r;
      });
      return real(password, hash);
    });
    try {
      clock.advance(30_000);
      expect((await ask()).status).toBe(200);
      expect(verify.mock.calls.length).toBe(0);
      clock.advance(16_000); // 46 s after the check: refreshed in the background, answered at once
      expect((await ask()).status).toBe(200);
      expect(verify.mock.calls.length).toBe(1);
      expect((await ask()).status).toBe(200);
      expect(verify.mock.calls.length).toBe(1);
      release();
      await Bun.sleep(600);
      clock.advance(40_000); // 86 s after the first check, 40 s after the refresh
      expect((await ask()).status).toBe(200);
      expect(verify.mock.calls.length).toBe(1);
    } finally {
      verify.mockRestore();
    }
  }, 60_000);

  test("failures and lockouts are counted in the metrics", async () => {
    const s = testApp();
    for (let i = 0; i < 11; i++)
      await s.app.handle(from("10.0.0.9", "GET", "/api/v1/whoami", { token: "pk_x" }));
    const text = s.ctx.metrics.render();
    expect(text).toContain(
      'parkd_auth_failures_total{reason="unknown, expired or revoked credentials"} 10\n',
    );
    expect(text).toContain("parkd_auth_lockouts_total 1\n");
    expect(text).toContain("parkd_auth_rate_limited_requests_total 1\n");
  });
});

describe("--trust-proxy", () => {
  const peerOf = async (s: ReturnType<typeof testApp>, peer: string, xff: string) => {
    // The address the lockout is kept for tells which client the request was taken to come from.
    for (let i = 0; i < 10; i++)
      await s.app.handle(
        from(peer, "GET", "/api/v1/whoami", { token: "pk_x", headers: { "x-forwarded-for": xff } }),
      );
  };

  test("behind a trusted proxy, X-Forwarded-For names the client: one client's failures lock out only it", async () => {
    const s = testApp({ trustProxy: ["10.1.0.0/16"] });
    await peerOf(s, "10.1.0.5", "192.168.7.20");
    const again = (xff: string, peer = "10.1.0.5") =>
      s.app.handle(
        from(peer, "GET", "/api/v1/whoami", { token: "pk_x", headers: { "x-forwarded-for": xff } }),
      );
    expect((await again("192.168.7.20")).status).toBe(429);
    expect((await again("192.168.7.21")).status).toBe(401);
    // The right-most untrusted hop counts: a client cannot name itself by prepending an address.
    expect((await again("1.2.3.4, 192.168.7.20")).status).toBe(429);
    // Hops added by further trusted proxies are skipped.
    expect((await again("192.168.7.20, 10.1.9.9")).status).toBe(429);
  });

  test("from a peer that is not a trusted proxy, X-Forwarded-For is ignored", async () => {
    const s = testApp({ trustProxy: ["10.1.0.0/16"] });
    await peerOf(s, "10.2.0.5", "192.168.7.20");
    const again = (xff: string) =>
      s.app.handle(
        from("10.2.0.5", "GET", "/api/v1/whoami", { token: "pk_x", headers: { "x-forwarded-for": xff } }),
      );
    expect((await again("192.168.7.99")).status).toBe(429);
    const none = testApp();
    await peerOf(none, "10.1.0.5", "192.168.7.20");
    const r = await none.app.handle(
      from("10.1.0.5", "GET", "/api/v1/whoami", {
        token: "pk_x",
        headers: { "x-forwarded-for": "192.168.7.99" },
      }),
    );
    expect(r.status).toBe(429);
  });
});

describe("Basic authentication timing", () => {
  test("an unknown user costs the same argon2id verification as a known user with a wrong password", async () => {
    const s = testApp();
    await s.user("terminal-1", "correct horse battery", "tickets:write");
    const verify = spyOn(Bun.password, "verify");
    try {
      const unknown = await call(s.app, "GET", "/api/v1/whoami", {
        authorization: basic("nobody", "whatever pass"),
      });
      expectProblem(unknown, 401, "unauthorized");
      expect(verify.mock.calls.length).toBe(1);
      const unknownHash = String(verify.mock.calls[0]![1]);
      const wrong = await call(s.app, "GET", "/api/v1/whoami", {
        authorization: basic("terminal-1", "wrong pass!"),
      });
      expectProblem(wrong, 401, "unauthorized");
      expect(verify.mock.calls.length).toBe(2);
      const knownHash = String(verify.mock.calls[1]![1]);
      // Both against an argon2id hash with the same cost parameters.
      const params = (h: string) => h.split("$").slice(1, 4).join("$");
      expect(unknownHash).toStartWith("$argon2id$");
      expect(params(unknownHash)).toBe(params(knownHash));
      expect(unknown.text.replace(/"instance":"[^"]*"/, "")).toBe(
        wrong.text.replace(/"instance":"[^"]*"/, ""),
      );
    } finally {
      verify.mockRestore();
    }
  }, 30_000);
});

describe("per-credential rate limit", () => {
  test("a token bucket per credential: 429 rate-limited with Retry-After past the burst, counted in metrics", async () => {
    const clock = testClock();
    const s = testApp({ rateLimitPerSecond: 2, rateLimitBurst: 5 }, clock);
    const busy = s.token("admin");
    const calm = s.token("admin");
    for (let i = 0; i < 5; i++)
      expect((await call(s.app, "GET", "/api/v1/whoami", { token: busy })).status).toBe(200);
    const limited = await call(s.app, "GET", "/api/v1/whoami", { token: busy });
    const p = expectProblem(limited, 429, "rate-limited");
    expect(p.detail).toContain("2 requests a second");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another credential has its own bucket.
    expect((await call(s.app, "GET", "/api/v1/whoami", { token: calm })).status).toBe(200);
    // The bucket refills at the configured rate.
    clock.advance(500);
    expect((await call(s.app, "GET", "/api/v1/whoami", { token: busy })).status).toBe(200);
    expect((await call(s.app, "GET", "/api/v1/whoami", { token: busy })).status).toBe(429);
    await s.user("terminal-1", "correct horse battery", "tickets:write");
    for (let i = 0; i < 6; i++)
      await call(s.app, "GET", "/api/v1/whoami", {
        authorization: basic("terminal-1", "correct horse battery"),
      });
    const text = s.ctx.metrics.render();
    expect(text).toContain('parkd_rate_limited_requests_total{credential_kind="token"} 2');
    expect(text).toContain('parkd_rate_limited_requests_total{credential_kind="user"} 1');
  });

  test("0 turns the limit off", async () => {
    const s = testApp({ rateLimitPerSecond: 0, rateLimitBurst: 1 }, testClock());
    const token = s.token("admin");
    for (let i = 0; i < 50; i++)
      expect((await call(s.app, "GET", "/api/v1/whoami", { token })).status).toBe(200);
  });
});
