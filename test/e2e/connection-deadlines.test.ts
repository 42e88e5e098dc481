import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { boxesForFile, type Server } from "../support/binary.ts";

/**
 * No connection without a deadline, against the binary: every accepted TCP connection counts
 * against the limits and runs the header deadline from the moment it is accepted (over TLS, the
 * handshake is inside that deadline), and one the box evicts or ends gives its descriptor back
 * within 2 s. Bounded in count and time; loopback addresses only.
 */
const newBox = boxesForFile();

/** Descriptors the server holds (its sockets among them). */
const descriptors = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

/** A TLS record header that announces a 512-byte ClientHello, and the first bytes of it. */
const HALF_HELLO = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]);
/** A request head that never ends. */
const HALF_HEAD = Buffer.from("GET /healthz HTTP/1.1\r\nHost: x\r\nUser-Agent: slow");

/** A raw TCP connection from `localAddress` that sends `bytes` (or nothing) and never more. */
function rawSocket(port: number, localAddress: string, bytes: Buffer | null): Promise<Socket | null> {
  return new Promise((resolve) => {
    const s = connect({ port, host: "127.0.0.1", localAddress });
    s.on("error", () => {});
    // Read (and drop) whatever comes, so that the box's close is seen here.
    s.on("data", () => {});
    s.once("connect", () => {
      if (bytes) s.write(bytes);
      resolve(s);
    });
    s.once("close", () => resolve(null));
  });
}

/** A normal client from `localAddress`: how long /healthz took to be answered 200, or null. */
function healthz(
  server: Server,
  tls: boolean,
  localAddress: string,
  withinMs = 5000,
): Promise<number | null> {
  return new Promise((resolve) => {
    const started = performance.now();
    let answer = "";
    const done = (ok: boolean) => {
      clearTimeout(timer);
      s.destroy();
      resolve(ok ? performance.now() - started : null);
    };
    const ask = () => s.write("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const s: Socket = tls
      ? tlsConnect(
          { port: server.port, host: "127.0.0.1", rejectUnauthorized: false, ...{ localAddress } },
          ask,
        )
      : connect({ port: server.port, host: "127.0.0.1", localAddress }, ask);
    const timer = setTimeout(() => done(false), withinMs);
    s.on("error", () => done(false));
    s.on("data", (b: Buffer) => {
      answer += b.toString("latin1");
      if (answer.includes("\r\n\r\n")) done(answer.startsWith("HTTP/1.1 200"));
    });
  });
}

const gone = (s: Socket) =>
  new Promise<void>((resolve) => (s.destroyed ? resolve() : s.once("close", resolve)));

describe.each([
  ["HTTPS", true],
  ["plain HTTP", false],
])("connections that never finish a request, over %s", (_, tls) => {
  test("2,000 silent and half-sent connections from one address under a 512-descriptor limit: another address is served within 1 s, and every one left open is closed by the header deadline", async () => {
    const box = newBox();
    const server = await box.serve([...(tls ? [] : ["--http"]), "--request-timeout", "4"], {
      descriptorLimit: 512,
    });
    const before = descriptors(server.pid);
    const kept: Socket[] = [];
    const served: (number | null)[] = [];
    const half = tls ? HALF_HELLO : HALF_HEAD;
    try {
      for (let round = 0; round < 20; round++) {
        const batch = await Promise.all(
          Array.from({ length: 100 }, (_, i) => rawSocket(server.port, "127.0.0.2", i % 2 ? half : null)),
        );
        for (const s of batch) if (s) kept.push(s);
        if (round % 4 === 3) served.push(await healthz(server, tls, "127.0.0.3"));
      }
      served.push(await healthz(server, tls, "127.0.0.3"));
      // Counted from accept: 64 per address (the default), whatever the handshake did not do.
      expect(descriptors(server.pid) - before).toBeLessThanOrEqual(64 + 4);
      for (const ms of served) {
        expect(ms).not.toBeNull();
        expect(ms!).toBeLessThan(1000);
      }
      // The header deadline is 2 s here (half the request timeout) from accept; then the close.
      const started = Date.now();
      await Promise.race([Promise.all(kept.map(gone)), Bun.sleep(5000)]);
      expect(kept.filter((s) => !s.destroyed).length).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
      let open = descriptors(server.pid) - before;
      for (let i = 0; i < 20 && open > 2; i++) {
        await Bun.sleep(100);
        open = descriptors(server.pid) - before;
      }
      expect(open).toBeLessThanOrEqual(2);
      const metrics = await fetch(`${server.url}/metrics`, { tls: { rejectUnauthorized: false } });
      // Some answer: the box is still whole.
      expect([200, 401]).toContain(metrics.status);
    } finally {
      for (const s of kept) s.destroy();
    }
    expect(await server.stop("SIGTERM")).toBe(0);
  }, 60_000);

  test("200 idle connections against --max-connections 50: the box never holds more than the limit and one, and each evicted one's descriptor is back within 2 s", async () => {
    const box = newBox();
    const server = await box.serve([...(tls ? [] : ["--http"]), "--max-connections", "50"]);
    const before = descriptors(server.pid);
    const clients: Socket[] = [];
    let most = 0;
    try {
      for (let i = 0; i < 200; i++) {
        const address = `127.0.0.${2 + (i % 4)}`;
        const s = await new Promise<Socket>((resolve) => {
          // Handshaken (over TLS) and idle: nothing to read, nothing asked.
          const c: Socket = tls
            ? tlsConnect(
                {
                  port: server.port,
                  host: "127.0.0.1",
                  rejectUnauthorized: false,
                  ...{ localAddress: address },
                },
                () => resolve(c),
              )
            : connect({ port: server.port, host: "127.0.0.1", localAddress: address }, () => resolve(c));
          c.on("error", () => resolve(c));
          c.on("data", () => {});
        });
        clients.push(s);
        most = Math.max(most, descriptors(server.pid) - before);
      }
      expect(most).toBeLessThanOrEqual(51 + 2);
      await Bun.sleep(2000);
      expect(descriptors(server.pid) - before).toBeLessThanOrEqual(51 + 2);
      // Every client the box closed has seen it; the newest 50 are the ones kept.
      expect(clients.filter((s) => !s.destroyed).length).toBeLessThanOrEqual(51);
      expect(clients.slice(-40).every((s) => !s.destroyed)).toBe(true);
      expect(await healthz(server, tls, "127.0.0.9")).not.toBeNull();
    } finally {
      for (const s of clients) s.destroy();
    }
    expect(await server.stop("SIGTERM")).toBe(0);
  }, 60_000);
});
