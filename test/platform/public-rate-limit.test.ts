import { describe, expect, test } from "bun:test";
import { addressBucket, RequestRateLimiter } from "../../src/platform/http/rate-limit.ts";
import { attachMeta } from "../../src/platform/http/request-meta.ts";
import { call, expectProblem, request, testApp, testClock } from "../support/app.ts";
import { cityLot } from "../support/lots.ts";

/** A request as the front end hands it over: from a peer address, maybe through a proxy. */
function from(ip: string, method: string, path: string, opts: Parameters<typeof request>[2] = {}) {
  const r = request(method, path, opts);
  attachMeta(r, { id: "t", ip });
  return r;
}

/** A box with one lot and --public-rate-limit-per-second 1 (so 4 at once), on a stopped clock. */
async function limited(config: Parameters<typeof testApp>[0] = {}) {
  const clock = testClock();
  const s = testApp({ publicRateLimitPerSecond: 1, ...config }, clock);
  const admin = s.token("admin");
  const created = await call(s.app, "POST", "/api/v1/parkings", { token: admin, body: cityLot() });
  expect(created.status).toBe(201);
  return { s, clock, admin, lot: created.json.data.id as number };
}

const PUBLIC_ROUTES = (lot: number): [string, string, unknown?][] => [
  ["GET", "/api/v1/parkings"],
  ["GET", `/api/v1/parkings/${lot}`],
  ["GET", `/api/v1/parkings/${lot}/quote?start=2026-06-15T10:00:00Z&end=2026-06-15T12:00:00Z`],
  ["GET", "/api/v1/board"],
  ["GET", "/api/v1/handheld-setup"],
  ["POST", "/api/v1/session", { token: "not-a-token" }],
  ["GET", "/api/v1/session"],
  ["DELETE", "/api/v1/session"],
  ["GET", "/readyz"],
  ["GET", "/openapi.json"],
  ["GET", "/docs"],
  ["GET", "/handheld/parkd-ca.crt"],
  ["GET", "/handheld/parkd-ca.mobileconfig"],
];

describe("public routes are limited per client address", () => {
  test("past the burst 429 rate-limited with Retry-After; another address has its own bucket; it refills", async () => {
    const { s, clock } = await limited();
    for (let i = 0; i < 4; i++)
      expect((await s.app.handle(from("192.0.2.1", "GET", "/api/v1/parkings"))).status).toBe(200);
    const refused = await s.app.handle(from("192.0.2.1", "GET", "/api/v1/parkings"));
    const p = expectProblem(
      { status: refused.status, headers: refused.headers, text: "", json: await refused.json() },
      429,
      "rate-limited",
    );
    expect(p.detail).toContain("This address sent more than 1 requests a second");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await s.app.handle(from("192.0.2.2", "GET", "/api/v1/parkings"))).status).toBe(200);
    clock.advance(1_000);
    expect((await s.app.handle(from("192.0.2.1", "GET", "/api/v1/parkings"))).status).toBe(200);
    expect((await s.app.handle(from("192.0.2.1", "GET", "/api/v1/parkings"))).status).toBe(429);
    expect(s.ctx.metrics.render()).toContain(
      'parkd_rate_limited_requests_total{credential_kind="address"} 2',
    );
  });

  test("every public route draws on the same bucket, and each answers 429 when it is empty", async () => {
    const { s, lot } = await limited();
    const statuses: number[] = [];
    for (const [method, path, body] of PUBLIC_ROUTES(lot)) {
      const r = await s.app.handle(from("192.0.2.9", method, path, { body }));
      statuses.push(r.status);
    }
    // Four at once, then refused, whatever the route.
    expect(statuses.slice(0, 4).every((x) => x !== 429)).toBe(true);
    expect(statuses.slice(4)).toEqual(Array(statuses.length - 4).fill(429));
    for (const [method, path, body] of PUBLIC_ROUTES(lot))
      expect((await s.app.handle(from("192.0.2.9", method, path, { body }))).status).toBe(429);
  });

  test("routes with a credential are limited per credential, not per address", async () => {
    const { s, admin } = await limited();
    for (let i = 0; i < 20; i++)
      expect((await s.app.handle(from("192.0.2.3", "GET", "/api/v1/whoami", { token: admin }))).status).toBe(
        200,
      );
  });

  test("behind a trusted proxy each forwarded client has its own bucket", async () => {
    const { s } = await limited({ trustProxy: ["10.0.0.1"] });
    const via = (client: string) =>
      s.app.handle(from("10.0.0.1", "GET", "/api/v1/parkings", { headers: { "x-forwarded-for": client } }));
    for (let i = 0; i < 4; i++) expect((await via("198.51.100.1")).status).toBe(200);
    expect((await via("198.51.100.1")).status).toBe(429);
    expect((await via("198.51.100.2")).status).toBe(200);
  });

  test("0 turns it off", async () => {
    const { s } = await limited({ publicRateLimitPerSecond: 0 });
    for (let i = 0; i < 50; i++)
      expect((await s.app.handle(from("192.0.2.4", "GET", "/api/v1/parkings"))).status).toBe(200);
  });

  test("the document declares 429 rate-limited on the public routes", async () => {
    const { s } = await limited();
    const doc = (await call(s.app, "GET", "/openapi.json")).json as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    for (const [path, method] of [
      ["/api/v1/parkings", "get"],
      ["/api/v1/parkings/{id}", "get"],
      ["/api/v1/parkings/{id}/quote", "get"],
      ["/api/v1/board", "get"],
      ["/api/v1/board/events", "get"],
      ["/api/v1/handheld-setup", "get"],
      ["/api/v1/session", "post"],
      ["/api/v1/session", "get"],
      ["/api/v1/session", "delete"],
      ["/readyz", "get"],
    ] as const)
      expect(Object.keys(doc.paths[path]![method]!.responses)).toContain("429");
    expect(Object.keys(doc.paths["/healthz"]!.get!.responses)).not.toContain("429");
  });
});

describe("what counts against an address", () => {
  test("requests refused for their body, type or origin count too: the bucket is taken before anything reads them", async () => {
    const { s } = await limited();
    const signIn = (body: string, headers: Record<string, string>) =>
      s.app.handle(from("192.0.2.20", "POST", "/api/v1/session", { body, headers }));
    const statuses = [
      (await signIn("{", { "content-type": "application/json" })).status,
      (await signIn('{"token":"x","extra":1}', { "content-type": "application/json" })).status,
      (await signIn('{"token":"x"}', { "content-type": "text/plain" })).status,
      (
        await signIn('{"token":"x"}', {
          "content-type": "application/json",
          origin: "https://elsewhere.example",
        })
      ).status,
    ];
    expect(statuses.every((x) => x >= 400 && x < 500 && x !== 429)).toBe(true);
    // The bucket is empty now: even a malformed body is refused for the rate, before it is read.
    expect((await signIn("{", { "content-type": "application/json" })).status).toBe(429);
  });

  test("HEAD draws on the bucket of its GET", async () => {
    const { s } = await limited();
    for (let i = 0; i < 4; i++) await s.app.handle(from("192.0.2.21", "HEAD", "/api/v1/parkings"));
    expect((await s.app.handle(from("192.0.2.21", "GET", "/api/v1/parkings"))).status).toBe(429);
  });

  test("an IPv6 client is its /64: another address in the prefix shares the bucket, another prefix does not", async () => {
    const { s } = await limited();
    for (let i = 0; i < 4; i++)
      expect((await s.app.handle(from(`2001:db8:1:2::${i + 1}`, "GET", "/api/v1/parkings"))).status).toBe(
        200,
      );
    expect(
      (await s.app.handle(from("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "GET", "/api/v1/parkings"))).status,
    ).toBe(429);
    expect((await s.app.handle(from("2001:db8:1:3::1", "GET", "/api/v1/parkings"))).status).toBe(200);
  });

  test.each([
    ["192.0.2.1", "192.0.2.1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:ffff:0:0:1", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["local", "local"],
  ])("addressBucket(%s) is %s", (address, bucket) => {
    expect(addressBucket(address)).toBe(bucket);
  });

  test("a flood of new addresses drops idle buckets first, not a busy one it would refill", () => {
    let now = 0;
    const limiter = new RequestRateLimiter({ perSecond: 1, burst: 2, now: () => now, maxKeys: 3 });
    expect(limiter.take("busy")).toBe(0);
    expect(limiter.take("quiet-1")).toBe(0);
    expect(limiter.take("quiet-2")).toBe(0);
    now = 100;
    expect(limiter.take("busy")).toBe(0);
    // busy is empty now, and the latest used: the new keys push out the quiet ones.
    expect(limiter.take("new-1")).toBe(0);
    expect(limiter.take("new-2")).toBe(0);
    expect(limiter.take("busy")).toBeGreaterThan(0);
  });
});
