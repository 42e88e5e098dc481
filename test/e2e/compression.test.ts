import { describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { chosenEncoding } from "../../src/platform/http/compression.ts";
import { boxesForFile, type Server } from "../support/binary.ts";
import { seedZoneIntoStore } from "../support/seed.ts";

/**
 * Every answer of 1 KB or more goes out compressed as the request allows (br or gzip), against
 * the binary over TLS and plain HTTP: the busiest zone's saved list (20,000 cars), its zone list,
 * the app's script. Bounded; loopback only.
 */
const newBox = boxesForFile();

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One request on a connection of its own, `Connection: close`; the answer's head and raw body. */
function raw(
  server: Server,
  tls: boolean,
  method: string,
  path: string,
  headers: string[] = [],
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const request = [`${method} ${path} HTTP/1.1`, "Host: x", "Connection: close", ...headers, "", ""].join(
      "\r\n",
    );
    const chunks: Buffer[] = [];
    const s: Socket = tls
      ? tlsConnect({ port: server.port, host: "127.0.0.1", rejectUnauthorized: false }, () =>
          s.write(request),
        )
      : connect({ port: server.port, host: "127.0.0.1" }, () => s.write(request));
    s.on("data", (b: Buffer) => chunks.push(b));
    s.on("error", reject);
    s.on("close", () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf("\r\n\r\n");
      const lines = all.subarray(0, end).toString("latin1").split("\r\n");
      const out: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(":");
        out[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(lines[0]!.split(" ")[1]), headers: out, body: all.subarray(end + 4) });
    });
  });
}

const decoded = (r: Raw) =>
  r.headers["content-encoding"] === "br"
    ? brotliDecompressSync(r.body)
    : r.headers["content-encoding"] === "gzip"
      ? gunzipSync(r.body)
      : r.body;

/** The saved list's text without the instant it was taken at, which each answer has its own of. */
const content = (body: Buffer) => body.toString("utf8").replace(/,"taken_at":"[^"]*"/, "");

describe("Accept-Encoding, as the request allows it", () => {
  test.each([
    [null, null],
    ["", null],
    ["gzip", "gzip"],
    ["gzip, deflate, br", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip;q=0", null],
    ["*", "br"],
    ["*;q=0.1, br;q=0", "gzip"],
    ["identity", null],
    ["deflate, zstd", null],
    ["GZIP;Q=0.9", "gzip"],
    ["br;q=abc, gzip", "gzip"],
  ] as const)("%p: %p", (header, encoding) => {
    expect(chosenEncoding(header)).toBe(encoding);
  });
});

describe.each([
  ["HTTPS", true],
  ["plain HTTP", false],
])("compressed answers from the binary over %s", (_, tls) => {
  test("the 20,000-car zone's saved list, its zone list and the app's script: br or gzip as asked, the same content, the same ETag", async () => {
    const box = newBox();
    const token = await box.token("handheld", "permits:read");
    const now = Date.now();
    seedZoneIntoStore(join(box.dataDir, "parkd.db"), {
      zone: 1234,
      count: 20_000,
      prefix: "BIG",
      idPrefix: "big-",
      start: now - 60_000,
      end: (i) => now + 3_600_000 + i * 1000,
    });
    const server = await box.serve(tls ? [] : ["--http"]);
    const auth = `Authorization: Bearer ${token}`;
    const sizes: Record<string, number> = {};
    for (const path of ["/api/v1/tickets/zone/1234/permits", "/api/v1/tickets/zone/1234", "/app.js"]) {
      const plain = await raw(server, tls, "GET", path, [auth]);
      expect(plain.status).toBe(200);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.headers.vary).toBe("accept-encoding");
      sizes[`${path} identity`] = plain.body.length;
      for (const [ask, got] of [
        ["gzip, deflate, br", "br"],
        ["gzip", "gzip"],
      ] as const) {
        const packed = await raw(server, tls, "GET", path, [auth, `Accept-Encoding: ${ask}`]);
        expect(packed.status).toBe(200);
        expect(packed.headers["content-encoding"]).toBe(got);
        expect(packed.headers.vary).toBe("accept-encoding");
        expect(Number(packed.headers["content-length"])).toBe(packed.body.length);
        expect(packed.headers.etag).toBe(plain.headers.etag!);
        expect(content(decoded(packed))).toBe(content(plain.body));
        sizes[`${path} ${got}`] = packed.body.length;
        // What the handheld sends back for its next poll: a 304, whatever encoding it took.
        const again = await raw(server, tls, "GET", path, [
          auth,
          `Accept-Encoding: ${ask}`,
          `If-None-Match: ${packed.headers.etag}`,
        ]);
        expect(again.status).toBe(304);
        // HEAD says what a GET would get.
        const head = await raw(server, tls, "HEAD", path, [auth, `Accept-Encoding: ${ask}`]);
        expect(head.headers["content-encoding"]).toBe(got);
        expect(head.body.length).toBe(0);
      }
    }
    // The saved list of 20,000 cars goes in well under the Wi-Fi budget of a zone switch (500 KB).
    expect(sizes["/api/v1/tickets/zone/1234/permits identity"]).toBeGreaterThan(2_000_000);
    expect(sizes["/api/v1/tickets/zone/1234/permits br"]).toBeLessThan(500_000);
    // Our own code shrinks 4-5 times; the plate reader's bundled client (tesseract.js, minified) less.
    expect(sizes["/app.js br"]).toBeLessThan(sizes["/app.js identity"]! / 2.5);
    // Small answers go as they are.
    const small = await raw(server, tls, "GET", "/healthz", ["Accept-Encoding: br"]);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(await server.stop("SIGTERM")).toBe(0);
  }, 60_000);
});

describe("one saved list per version, shared", () => {
  test("192 handhelds asking the 20,000-car zone's saved list and reading none of it: the box grows by less than 64 MB", async () => {
    const box = newBox();
    const token = await box.token("handheld", "permits:read");
    const now = Date.now();
    seedZoneIntoStore(join(box.dataDir, "parkd.db"), {
      zone: 1234,
      count: 20_000,
      prefix: "BIG",
      idPrefix: "big-",
      start: now - 60_000,
      end: (i) => now + 3_600_000 + i * 1000,
    });
    const server = await box.serve(["--http"]);
    const ask = (encoding: string) =>
      `GET /api/v1/tickets/zone/1234/permits HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n${encoding}\r\n`;
    // Made once before the flood, as a handheld's first ask makes it.
    const whole = await raw(server, false, "GET", "/api/v1/tickets/zone/1234/permits", [
      `Authorization: Bearer ${token}`,
    ]);
    expect(whole.body.length).toBeGreaterThan(2_000_000);
    await Bun.sleep(500);
    const rss = () =>
      Number(
        /VmRSS:\s+(\d+) kB/.exec(
          require("node:fs").readFileSync(`/proc/${server.pid}/status`, "utf8"),
        )?.[1] ?? 0,
      ) / 1024;
    const before = rss();
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 192; i++) {
        const s = await new Promise<Socket>((resolve) => {
          const c = connect(
            { port: server.port, host: "127.0.0.1", localAddress: `127.0.0.${2 + (i % 3)}` },
            () => resolve(c),
          );
          c.on("error", () => resolve(c));
        });
        s.pause();
        // A third take it whole, a third br, a third gzip: each form is one buffer for all.
        s.write(
          ask(i % 3 === 0 ? "" : i % 3 === 1 ? "Accept-Encoding: br\r\n" : "Accept-Encoding: gzip\r\n"),
        );
        sockets.push(s);
      }
      let peak = before;
      for (let i = 0; i < 30; i++) {
        peak = Math.max(peak, rss());
        await Bun.sleep(100);
      }
      expect(peak - before).toBeLessThan(64);
      const ok = await raw(server, false, "GET", "/healthz");
      expect(ok.status).toBe(200);
    } finally {
      for (const s of sockets) s.destroy();
    }
    expect(await server.stop("SIGTERM")).toBe(0);
  }, 60_000);
});
