import { describe, expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import { TrustedProxies } from "../../src/platform/http/client-address.ts";
import {
  ConnectionGuard,
  type ConnectionLimits,
  type GuardedSocket,
} from "../../src/platform/http/connection-guard.ts";
import { type Problem, problemBody } from "../../src/platform/http/problem.ts";

/** Just enough of a socket for the guard: an address, what was written, whether it was closed. */
class FakeSocket extends EventEmitter {
  written = "";
  destroyed = false;
  writable = true;
  constructor(readonly remoteAddress: string) {
    super();
  }
  endWithProblem(problem: Problem) {
    this.written += `HTTP/1.1 ${problem.status} ${JSON.stringify(problemBody(problem))}`;
    // Closed once the answer is out, as a real connection is.
    this.destroy();
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.writable = false;
    // A plain socket's descriptor is given back at once.
    this.emit("gone");
  }
  forceClose() {
    this.destroy();
  }
  pause() {}
}

/** A TLS socket in its handshake: closing it gives its descriptor back only later (or when reset). */
class LingeringSocket extends FakeSocket {
  override destroy() {
    this.destroyed = true;
    this.writable = false;
  }
  override forceClose() {
    if (this.listenerCount("gone") === 0) return;
    this.emit("gone");
    this.removeAllListeners("gone");
  }
  /** The socket itself is gone: what a descriptor count sees. */
  get held() {
    return this.listenerCount("gone") > 0;
  }
}

function setup(limits: Partial<ConnectionLimits> = {}) {
  let t = 0;
  const refused: string[] = [];
  const timedOut: string[] = [];
  const guard = new ConnectionGuard(
    { maxConnections: 4, maxPerAddress: 2, headersTimeoutMs: 1000, requestTimeoutMs: 3000, ...limits },
    { refused: (r) => refused.push(r), timedOut: (p) => timedOut.push(p) },
    false,
    () => t,
  );
  const open = (ip: string, lingering = false) => {
    const s = lingering ? new LingeringSocket(ip) : new FakeSocket(ip);
    const admitted = guard.admit(s as unknown as GuardedSocket);
    return { s, admitted, sock: s as unknown as GuardedSocket };
  };
  const sweep = () => (guard as unknown as { sweep(): void }).sweep();
  return { guard, open, sweep, refused, timedOut, advance: (ms: number) => (t += ms) };
}

describe("ConnectionGuard", () => {
  test("per address: past the limit a connection gets 503 too-many-connections; trusted proxies are exempt", () => {
    const g = setup({ exempt: new TrustedProxies(["10.9.0.0/16"]) });
    expect(g.open("10.0.0.1").admitted).toBe(true);
    expect(g.open("::ffff:10.0.0.1").admitted).toBe(true);
    const third = g.open("10.0.0.1");
    expect(third.admitted).toBe(false);
    expect(third.s.written).toStartWith("HTTP/1.1 503");
    expect(third.s.written).toContain("too-many-connections");
    expect(g.refused).toEqual(["per-address"]);
    for (let i = 0; i < 2; i++) expect(g.open("10.9.1.1").admitted).toBe(true);
    g.guard.stop();
  });

  test("at the total limit the longest idle goes first, then the slowest arriving request; a busy one never", () => {
    const g = setup({ maxPerAddress: 10 });
    const a = g.open("10.0.0.1"); // arriving since t=0
    g.advance(10);
    const b = g.open("10.0.0.2"); // busy in the app
    g.guard.requestRead(b.sock);
    g.advance(10);
    const c = g.open("10.0.0.3"); // answered, now idle
    g.guard.requestRead(c.sock);
    g.guard.responseDone(c.sock);
    g.advance(10);
    const d = g.open("10.0.0.4");
    expect(g.guard.open).toBe(4);
    expect(g.open("10.0.0.5").admitted).toBe(true);
    expect(c.s.destroyed).toBe(true);
    expect(g.open("10.0.0.6").admitted).toBe(true);
    expect(a.s.destroyed).toBe(true);
    expect(a.s.written).toContain("408");
    expect(b.s.destroyed).toBe(false);
    expect(d.s.destroyed).toBe(false);
    expect(g.refused).toEqual(["evicted", "evicted"]);
    g.guard.stop();
  });

  test("when every slot is busy in the app a new connection is refused, not a busy one closed", () => {
    const g = setup({ maxConnections: 2, maxPerAddress: 10 });
    for (const ip of ["10.0.0.1", "10.0.0.2"]) g.guard.requestRead(g.open(ip).sock);
    const late = g.open("10.0.0.3");
    expect(late.admitted).toBe(false);
    expect(late.s.written).toStartWith("HTTP/1.1 503");
    expect(g.refused).toEqual(["total"]);
    g.guard.stop();
  });

  test("deadlines: headers within the header timeout, the body within the request timeout, however it trickles", () => {
    const g = setup({ maxPerAddress: 10 });
    const silent = g.open("10.0.0.1");
    const slowBody = g.open("10.0.0.2");
    let answered = false;
    g.guard.bodyStarted(slowBody.sock, () => {
      answered = true;
    });
    g.advance(999);
    g.sweep();
    expect(silent.s.destroyed).toBe(false);
    g.advance(1);
    g.sweep();
    expect(silent.s.written).toContain("request-timeout");
    expect(answered).toBe(false);
    g.advance(2000);
    g.sweep();
    expect(answered).toBe(true);
    expect(g.timedOut).toEqual(["headers", "body"]);
    // A request the app is working on has no deadline.
    const busy = g.open("10.0.0.3");
    g.guard.requestRead(busy.sock);
    g.advance(60_000);
    g.sweep();
    expect(busy.s.destroyed).toBe(false);
    g.guard.stop();
  });

  test("closing: counts drop when a socket closes, and closeIdle leaves busy connections alone", () => {
    const g = setup({ maxPerAddress: 10 });
    const a = g.open("10.0.0.1");
    const b = g.open("10.0.0.1");
    g.guard.requestRead(b.sock);
    a.s.destroy();
    expect(g.guard.open).toBe(1);
    expect(g.guard.closeIdle()).toBe(false);
    g.guard.responseDone(b.sock);
    expect(g.guard.closeIdle()).toBe(true);
    g.guard.stop();
  });

  test("an answer the client reads none of is cut after the send-stall time; reading some restarts it", () => {
    const g = setup({ maxPerAddress: 10, sendStallMs: 500 });
    const reader = g.open("10.0.0.1");
    const stalled = g.open("10.0.0.2");
    for (const c of [reader, stalled]) {
      g.guard.requestRead(c.sock);
      g.guard.outputWaiting(c.sock, true);
    }
    g.advance(400);
    g.guard.outputWaiting(reader.sock, true); // the client took some bytes
    g.advance(100);
    g.sweep();
    expect(stalled.s.destroyed).toBe(true);
    expect(reader.s.destroyed).toBe(false);
    g.advance(400);
    g.guard.outputWaiting(reader.sock, false); // all of it is out
    g.advance(10_000);
    g.sweep();
    expect(reader.s.destroyed).toBe(false);
    expect(g.timedOut).toEqual(["send"]);
    g.guard.stop();
  });

  test("at the total limit a connection waiting for its client to read is evicted like a slow sender", () => {
    const g = setup({ maxConnections: 2, maxPerAddress: 10 });
    const working = g.open("10.0.0.1");
    g.guard.requestRead(working.sock);
    const nonReader = g.open("10.0.0.2");
    g.guard.requestRead(nonReader.sock);
    g.guard.outputWaiting(nonReader.sock, true);
    expect(g.open("10.0.0.3").admitted).toBe(true);
    expect(nonReader.s.destroyed).toBe(true);
    expect(working.s.destroyed).toBe(false);
    expect(g.refused).toEqual(["evicted"]);
    g.guard.stop();
  });

  test("the total counts sockets still closing: evictions that linger never take it past the limit and one", () => {
    const g = setup({ maxConnections: 50, maxPerAddress: 1000 });
    const all: LingeringSocket[] = [];
    for (let i = 0; i < 200; i++) {
      g.advance(1);
      const { s, admitted } = g.open("10.0.0.1", true);
      expect(admitted).toBe(true);
      all.push(s as LingeringSocket);
      expect(all.filter((x) => x.held).length).toBeLessThanOrEqual(51);
    }
    expect(g.guard.open).toBeLessThanOrEqual(51);
    expect(g.refused.length).toBe(150);
    // The newest are the ones kept: each arrival closed the one that had waited longest.
    expect(all.slice(-50).every((x) => !x.destroyed)).toBe(true);
    g.guard.stop();
  });

  test("at the total limit the victim comes from the address holding the most connections, not the oldest client", () => {
    const g = setup({ maxConnections: 5, maxPerAddress: 64 });
    const real = g.open("10.0.0.1"); // the oldest: a handheld still in its handshake
    const flood = [];
    for (let i = 0; i < 4; i++) {
      g.advance(10);
      flood.push(g.open("10.6.6.6"));
    }
    for (let i = 0; i < 20; i++) {
      g.advance(10);
      expect(g.open("10.6.6.6").admitted).toBe(true);
    }
    expect(real.s.destroyed).toBe(false);
    expect(flood.every((f) => f.s.destroyed)).toBe(true);
    g.guard.stop();
  });
});
