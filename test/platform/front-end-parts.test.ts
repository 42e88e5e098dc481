import { describe, expect, test } from "bun:test";
import { TrustedProxies } from "../../src/platform/http/client-address.ts";
import { RequestRateLimiter } from "../../src/platform/http/rate-limit.ts";

describe("TrustedProxies", () => {
  test("addresses and CIDR blocks, IPv4 and IPv6; an IPv4 peer on a dual-stack socket matches", () => {
    const t = new TrustedProxies(["10.0.0.0/8", "192.168.1.5", "fd00::/8"]);
    expect(t.trusts("10.20.30.40")).toBe(true);
    expect(t.trusts("::ffff:10.20.30.40")).toBe(true);
    expect(t.trusts("192.168.1.5")).toBe(true);
    expect(t.trusts("192.168.1.6")).toBe(false);
    expect(t.trusts("fd12::1")).toBe(true);
    expect(t.trusts("fe80::1")).toBe(false);
    expect(t.trusts("not an address")).toBe(false);
    expect(new TrustedProxies([]).trusts("10.0.0.1")).toBe(false);
  });

  test("the client is the right-most untrusted hop, and only a trusted peer is believed", () => {
    const t = new TrustedProxies(["10.0.0.0/8"]);
    expect(t.client("10.0.0.1", "203.0.113.9")).toBe("203.0.113.9");
    expect(t.client("10.0.0.1", "1.1.1.1, 203.0.113.9, 10.0.0.2")).toBe("203.0.113.9");
    expect(t.client("10.0.0.1", "[2001:db8::7]")).toBe("2001:db8::7");
    expect(t.client("10.0.0.1", "10.0.0.3, 10.0.0.2")).toBe("10.0.0.1");
    expect(t.client("10.0.0.1", "garbage")).toBe("10.0.0.1");
    expect(t.client("10.0.0.1", null)).toBe("10.0.0.1");
    expect(t.client("203.0.113.50", "1.2.3.4")).toBe("203.0.113.50");
    expect(t.client("::ffff:203.0.113.50", null)).toBe("203.0.113.50");
  });

  test("a bad entry is refused with a reason", () => {
    for (const bad of ["10.0.0.0/33", "10.0.0/8", "example.org", "fd00::/129", "10.0.0.0/8/1", "10.0.0.0/x"])
      expect(() => new TrustedProxies([bad])).toThrow("not an address or CIDR block");
  });
});

describe("RequestRateLimiter", () => {
  test("a burst, then the steady rate; Retry-After is the wait for one request", () => {
    let now = 0;
    const l = new RequestRateLimiter({ perSecond: 4, burst: 3, now: () => now });
    expect([l.take("a"), l.take("a"), l.take("a")]).toEqual([0, 0, 0]);
    expect(l.take("a")).toBe(1);
    expect(l.take("b")).toBe(0);
    now += 250;
    expect(l.take("a")).toBe(0);
    expect(l.take("a")).toBe(1);
    now += 10_000;
    expect([l.take("a"), l.take("a"), l.take("a"), l.take("a")]).toEqual([0, 0, 0, 1]);
    const slow = new RequestRateLimiter({ perSecond: 0.1 as number, burst: 1, now: () => now });
    slow.take("c");
    expect(slow.take("c")).toBe(10);
  });
});
