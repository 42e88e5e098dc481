import { describe, expect, test } from "bun:test";
import { TrustedProxies } from "../../src/platform/http/client-address.ts";
import { readHead } from "../../src/platform/http/http1.ts";
import { type BudgetHolder, OutputBudget } from "../../src/platform/http/output-budget.ts";
import { RequestRateLimiter } from "../../src/platform/http/rate-limit.ts";
import { InputBytes } from "../../src/platform/http/socket-connection.ts";

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

describe("InputBytes: a connection's unread input", () => {
  test("256 KiB arriving a byte at a time is copied about once, not once per arrival", () => {
    const input = new InputBytes();
    const sent = Buffer.alloc(256 * 1024);
    for (let i = 0; i < sent.length; i++) sent[i] = i % 251;
    for (let i = 0; i < sent.length; i++) input.append(sent.subarray(i, i + 1));
    expect(input.length).toBe(sent.length);
    expect(input.view().equals(sent)).toBe(true);
    // Each byte copied in, plus the moves of the doubling buffer (at most as many again); a
    // concatenation per arrival copies n²/2 (34 billion bytes here).
    expect(input.copied).toBeLessThanOrEqual(3 * sent.length);
  });

  test("input read as it arrives (a body) costs no copies; what is left over is kept in order", () => {
    const input = new InputBytes();
    for (let i = 0; i < 1000; i++) {
      input.append(Buffer.from(`chunk ${i};`));
      input.consume(input.length);
    }
    expect(input.copied).toBe(0);
    expect(input.length).toBe(0);
    input.append(Buffer.from("GET / HT"));
    input.consume(4);
    input.append(Buffer.from("TP/1.1\r\n"));
    input.append(Buffer.from("rest"));
    expect(input.view().toString()).toBe("/ HTTP/1.1\r\nrest");
    input.consume(12);
    expect(input.view().toString()).toBe("rest");
  });

  test("a head searched as it arrives byte by byte is read the same as sent whole; a bare LF is still refused", () => {
    const text = "GET /a HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n\r\n";
    const input = new InputBytes();
    let scanned = 0;
    let read: ReturnType<typeof readHead> = "incomplete";
    for (let i = 0; i < text.length && read === "incomplete"; i++) {
      input.append(Buffer.from(text[i]!, "latin1"));
      read = readHead(input.view(), undefined, scanned);
      if (read === "incomplete") scanned = input.length;
    }
    expect(read).toEqual(readHead(Buffer.from(text, "latin1")));
    const bare = "GET /a HTTP/1.1\r\nHost: x\nX: 1";
    const partial = new InputBytes();
    let refused: ReturnType<typeof readHead> = "incomplete";
    scanned = 0;
    for (let i = 0; i < bare.length && refused === "incomplete"; i++) {
      partial.append(Buffer.from(bare[i]!, "latin1"));
      refused = readHead(partial.view(), undefined, scanned);
      if (refused === "incomplete") scanned = partial.length;
    }
    expect(refused).toMatchObject({ error: "malformed" });
  });
});

describe("OutputBudget: output held for all connections", () => {
  test("past the budget the connections waiting longest are cut until it is back under; the writer is let be", () => {
    const cut: string[] = [];
    const budget = new OutputBudget(100, (h) => {
      // As a connection does when it is cut: its output dropped, then the budget told.
      const holder = h as Holder;
      cut.push(holder.name);
      const held = holder.held;
      holder.held = 0;
      budget.change(holder, -held);
    });
    class Holder implements BudgetHolder {
      held = 0;
      constructor(
        readonly name: string,
        readonly waitingSince: number,
      ) {}
      destroy() {}
      hold(n: number) {
        this.held += n;
        budget.change(this, n);
      }
    }
    const oldest = new Holder("oldest", 1);
    const middle = new Holder("middle", 2);
    const newest = new Holder("newest", 3);
    oldest.hold(40);
    middle.hold(40);
    expect(cut).toEqual([]);
    newest.hold(40);
    expect(cut).toEqual(["oldest"]);
    expect(budget.total).toBe(80);
    // An answer alone over the budget still goes out: the others go first, never the writer.
    newest.hold(200);
    expect(cut).toEqual(["oldest", "middle"]);
    expect(budget.total).toBe(240);
  });
});
