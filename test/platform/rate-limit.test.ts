import { describe, expect, test } from "bun:test";
import { FailureLimiter, MAX_KEYS, RequestRateLimiter } from "../../src/platform/http/rate-limit.ts";

/** A flood of distinct keys (IPv6 addresses, invented user names) within one window. */
describe("the limiters stay bounded under a flood of distinct keys", () => {
  test("failures: at most MAX_KEYS keys, the oldest go first, a recent lockout holds", () => {
    const limiter = new FailureLimiter({ max: 3, now: () => 1_000 });
    for (let i = 0; i < 3; i++) limiter.fail("2001:db8::attacker");
    expect(limiter.blockedFor("2001:db8::attacker")).toBeGreaterThan(0);
    for (let i = 0; i < 25_000; i++) limiter.fail(`2001:db8::${i.toString(16)}`);
    expect(limiter.size).toBeLessThanOrEqual(MAX_KEYS);
    // The first key in is among the first out; one locked out just now stays locked.
    for (let i = 0; i < 3; i++) limiter.fail("203.0.113.9");
    expect(limiter.blockedFor("203.0.113.9")).toBeGreaterThan(0);
    expect(limiter.blockedFor("2001:db8::attacker")).toBe(0);
  });

  test("failures: expired windows are dropped before any live one", () => {
    let now = 0;
    const limiter = new FailureLimiter({ max: 2, windowMs: 1_000, now: () => now, maxKeys: 10 });
    for (let i = 0; i < 9; i++) limiter.fail(`old-${i}`);
    now = 500;
    limiter.fail("live");
    limiter.fail("live");
    now = 1_200; // the old windows are over, "live"'s is not
    for (let i = 0; i < 5; i++) limiter.fail(`new-${i}`);
    expect(limiter.blockedFor("live")).toBeGreaterThan(0);
    expect(limiter.size).toBeLessThanOrEqual(10);
  });

  test("request buckets: at most MAX_KEYS keys; a key dropped early starts with a full bucket", () => {
    const limiter = new RequestRateLimiter({ perSecond: 1, burst: 2, now: () => 5_000 });
    for (let i = 0; i < 25_000; i++) limiter.take(`token ${i}`);
    expect(limiter.size).toBeLessThanOrEqual(MAX_KEYS);
    expect(limiter.take("token 0")).toBe(0);
    expect(limiter.take("token 0")).toBe(0);
    expect(limiter.take("token 0")).toBeGreaterThan(0);
  });
});

test("a request given back is the bucket's again, never past its burst; with the limit off, nothing to give", () => {
  const limiter = new RequestRateLimiter({ perSecond: 1, burst: 2, now: () => 5_000 });
  expect(limiter.take("token a")).toBe(0);
  expect(limiter.take("token a")).toBe(0);
  limiter.giveBack("token a");
  expect(limiter.take("token a")).toBe(0);
  expect(limiter.take("token a")).toBeGreaterThan(0);
  // Given back more often than taken: the bucket holds its burst, no more.
  const full = new RequestRateLimiter({ perSecond: 1, burst: 2, now: () => 5_000 });
  full.take("token b");
  for (let i = 0; i < 5; i++) full.giveBack("token b");
  expect([full.take("token b"), full.take("token b"), full.take("token b")].map((w) => w > 0)).toEqual([
    false,
    false,
    true,
  ]);
  const off = new RequestRateLimiter({ perSecond: 0, burst: 1, now: () => 5_000 });
  off.giveBack("token c");
  expect(off.size).toBe(0);
});
