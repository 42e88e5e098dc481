import { afterAll, describe, expect, test } from "bun:test";
import { connect as connectTcp, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import type { RequestLine } from "../../src/platform/http/accounting.ts";
import { type ConnectionLimits, SLOW_READER } from "../../src/platform/http/connection-guard.ts";
import { type FrontEnd, type FrontEndOptions, startFrontEnd } from "../../src/platform/http/server.ts";
import { createSelfSigned } from "../../src/platform/http/x509.ts";

const made = await createSelfSigned({ commonName: "localhost", dnsNames: ["localhost"], ips: ["127.0.0.1"] });
const certificate = { cert: made.certPem, key: made.keyPem };

/** Every test below runs over plain TCP and over TLS: one front end, one set of behaviours. */
const transports = [
  { name: "plain HTTP", tls: undefined },
  { name: "HTTPS", tls: certificate },
] as const;

/** Opens a client socket over the transport; `ready` once it may write. */
function open(port: number, tls: boolean, ready: (s: Socket) => void): Socket {
  if (!tls) {
    const s = connectTcp(port, "127.0.0.1", () => ready(s));
    return s;
  }
  const s = connectTls({ port, host: "127.0.0.1", rejectUnauthorized: false }, () => ready(s));
  return s;
}

/** Writes the pieces (a pause between them) and collects what comes back until close or `ms`. */
function exchange(port: number, tls: boolean, pieces: (string | Buffer)[], ms = 500): Promise<string> {
  return new Promise((resolve) => {
    let out = "";
    const socket = open(port, tls, async (s) => {
      for (const p of pieces) {
        s.write(p);
        await Bun.sleep(20);
      }
    });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(out);
    }, ms);
    socket.on("data", (b) => {
      out += b.toString("latin1");
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(out);
    });
    socket.on("error", () => {});
  });
}

const bodies = (answer: string) =>
  answer
    .split(/HTTP\/1\.1 \d{3} [^\r]*\r\n/)
    .slice(1)
    .map((a) => a.slice(a.indexOf("\r\n\r\n") + 4));

/** An app that echoes what it was given, with a few special paths. */
function echoApp(seen: { cancelled: number; calls: number; reasons?: unknown[] }): FrontEndOptions["handle"] {
  return async (request) => {
    seen.calls++;
    const url = new URL(request.url);
    if (url.pathname === "/big") return new Response("x".repeat(4 * 1024 * 1024));
    if (url.pathname === "/events" || url.pathname === "/late-events" || url.pathname === "/firehose") {
      if (url.pathname === "/late-events") await Bun.sleep(100);
      const firehose = url.pathname === "/firehose";
      const stream = new ReadableStream({
        async pull(c) {
          if (firehose) {
            c.enqueue(new Uint8Array(64 * 1024).fill(0x61));
            await Bun.sleep(1);
            return;
          }
          for (const n of [1, 2, 3]) {
            c.enqueue(new TextEncoder().encode(`data: ${n}\n\n`));
            await Bun.sleep(5);
          }
          if (url.pathname === "/events") c.close();
          else await Bun.sleep(60_000);
        },
        cancel(reason) {
          seen.cancelled++;
          seen.reasons?.push(reason);
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    }
    if (url.pathname === "/headers") return Response.json([...request.headers]);
    if (url.pathname === "/text") {
      const text = (url.searchParams.get("c") ?? "x").repeat(Number(url.searchParams.get("n")));
      return new Response(text, {
        headers: { "content-type": url.searchParams.get("type") ?? "text/plain" },
      });
    }
    const body = await request.text();
    return Response.json({
      method: request.method,
      path: `${url.pathname}${url.search}`,
      body,
      query: url.searchParams.get("p"),
    });
  };
}

for (const transport of transports) {
  const tls = transport.tls !== undefined;
  describe(`the front end over ${transport.name}`, () => {
    const lines: RequestLine[] = [];
    const seen = { cancelled: 0, calls: 0 };
    let front: FrontEnd | undefined;
    const ready = startFrontEnd({
      host: "127.0.0.1",
      port: 0,
      tls: transport.tls,
      bodyLimit: 64 * 1024,
      account: (l) => lines.push(l),
      handle: echoApp(seen),
    }).then((f) => {
      front = f;
      return f;
    });
    afterAll(() => front?.close(100));
    const talk = async (pieces: (string | Buffer)[], ms?: number) =>
      exchange((await ready).port, tls, pieces, ms);

    test("a stream of empty lines is dropped as it comes, and the request after it is answered", async () => {
      const answer = await talk(
        [
          "\r\n".repeat(100_000),
          "\r\n".repeat(100_000),
          "GET /after HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        ],
        3000,
      );
      expect(JSON.parse(bodies(answer)[0]!).path).toBe("/after");
    });

    test("HEAD on an event stream answers its headers and lets the stream go; HTTP/1.0 gets it unchunked", async () => {
      const headAnswer = await talk(["HEAD /events HTTP/1.1\r\nHost: x\r\n\r\n"], 2000);
      expect(headAnswer).toStartWith("HTTP/1.1 200 OK");
      expect(bodies(headAnswer)[0]).toBe("");
      const old = await talk(["GET /events HTTP/1.0\r\n\r\n"], 2000);
      expect(old.toLowerCase()).not.toContain("transfer-encoding");
      expect(bodies(old)[0]).toBe("data: 1\n\ndata: 2\n\ndata: 3\n\n");
    });

    test("the app sees the head's fields as sent: a name sent twice joined with a comma, __proto__ a field like any other", async () => {
      const answer = await talk([
        "GET /headers HTTP/1.1\r\nHost: x\r\nX-Seen: a\r\n__proto__: p\r\nx-seen: b\r\nCookie: c=1\r\nCookie: d=2\r\nConnection: close\r\n\r\n",
      ]);
      expect(JSON.parse(bodies(answer)[0]!)).toEqual([
        ["__proto__", "p"],
        ["connection", "close"],
        ["cookie", "c=1; d=2"],
        ["host", "x"],
        ["x-seen", "a, b"],
      ]);
    });

    test("a GET with a JSON body (the interface's own example) reaches the app with its body", async () => {
      const body = '{"registration_number":"ABC123"}';
      const answer = await talk([
        `GET /api/v1/attendants/check-tickets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      ]);
      expect(answer).toStartWith("HTTP/1.1 200 OK\r\n");
      expect(answer.toLowerCase()).toContain("connection: close");
      expect(JSON.parse(bodies(answer)[0]!)).toMatchObject({
        method: "GET",
        path: "/api/v1/attendants/check-tickets",
        body,
      });
    });

    test("text answers of every size, multi-byte ones at the edges, pipelined: each framed by its exact length", async () => {
      const asks: [n: number, c: string, type: string][] = [
        [0, "x", "application/json"],
        [1, "é", "application/problem+json"],
        [16 * 1024, "x", "application/json"],
        [16 * 1024, "€", "text/plain"],
        [16 * 1024 + 1, "x", "text/html"],
        [5_000, "😀", "application/json"],
        [200_000, "ä", "text/plain"],
        [3, "y", "application/octet-stream"],
      ];
      const heads = asks.map(
        ([n, c, type]) =>
          `GET /text?n=${n}&c=${encodeURIComponent(c)}&type=${encodeURIComponent(type)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      const raw = Buffer.from(
        await talk([heads.join("") + "GET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"], 3000),
        "latin1",
      );
      // Read the answers back by their content-length, as a client would.
      let at = 0;
      for (const [n, c] of asks) {
        const end = raw.indexOf("\r\n\r\n", at);
        const head = raw.subarray(at, end).toString("latin1");
        expect(head).toStartWith("HTTP/1.1 200 OK");
        const length = Number(/content-length: (\d+)/.exec(head)?.[1]);
        expect(raw.subarray(end + 4, end + 4 + length).toString("utf8")).toBe(c.repeat(n));
        at = end + 4 + length;
      }
      expect(raw.subarray(at).toString("latin1")).toStartWith("HTTP/1.1 200 OK");
    });

    test("pipelined requests are answered in order on one connection; a chunked body split over writes", async () => {
      const answer = await talk([
        "GET /one HTTP/1.1\r\nHost: x\r\n\r\nPOST /two HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab",
        "c\r\n2\r\nde\r\n0\r\n\r\nGET /three HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      ]);
      expect(bodies(answer).map((b) => JSON.parse(b))).toMatchObject([
        { method: "GET", path: "/one", body: "" },
        { method: "POST", path: "/two", body: "abcde" },
        { method: "GET", path: "/three", body: "" },
      ]);
    });

    test("HTTP/1.0 keep-alive POST with a request pipelined behind it: both are answered", async () => {
      const answer = await talk(
        [
          "POST /event HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\n{}GET /next HTTP/1.0\r\n\r\n",
        ],
        1500,
      );
      expect(bodies(answer).map((b) => JSON.parse(b))).toMatchObject([
        { method: "POST", path: "/event", body: "{}" },
        { method: "GET", path: "/next" },
      ]);
    });

    test("Expect: 100-continue gets its interim answer; HTTP/1.0 closes; HEAD has no body", async () => {
      const cont = await talk([
        "POST /c HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\n",
        "hi",
      ]);
      expect(cont).toStartWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK");
      expect(JSON.parse(bodies(cont)[1]!).body).toBe("hi");
      const old = await talk(["GET /old HTTP/1.0\r\n\r\n"], 2000);
      expect(old.toLowerCase()).toContain("connection: close");
      expect(JSON.parse(bodies(old)[0]!).path).toBe("/old");
      const headAnswer = await talk(["HEAD /h HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]);
      expect(headAnswer).toMatch(/content-length: \d+/i);
      expect(bodies(headAnswer)[0]).toBe("");
    });

    test("a large answer reaches a client whole; an event stream goes out chunked as it is written", async () => {
      const big = await talk(["GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"], 5000);
      expect(bodies(big)[0]!.length).toBe(4 * 1024 * 1024);
      const events = await talk(["GET /events HTTP/1.1\r\nHost: x\r\n\r\n"], 2000);
      expect(events.toLowerCase()).toContain("transfer-encoding: chunked");
      expect(bodies(events)[0]).toBe("9\r\ndata: 1\n\n\r\n9\r\ndata: 2\n\n\r\n9\r\ndata: 3\n\n\r\n0\r\n\r\n");
    });

    test("every request the app answers carries a request id; a safe one from the client is kept", async () => {
      const answer = await talk([
        "GET /id HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc-123\r\nConnection: close\r\n\r\n",
      ]);
      expect(answer.toLowerCase()).toContain("x-request-id: abc-123");
      const unsafe = await talk([
        "GET /id HTTP/1.1\r\nHost: x\r\nX-Request-Id: <bad>\r\nConnection: close\r\n\r\n",
      ]);
      expect(unsafe.toLowerCase()).not.toContain("<bad>");
      expect(unsafe.toLowerCase()).toMatch(/x-request-id: [0-9a-f]{8}-/);
    });

    test("raw UTF-8 in the request target is read (curl sends ÖZB771 unencoded); bytes that are not UTF-8 are a clear 400", async () => {
      const answer = await talk([
        Buffer.concat([
          Buffer.from("GET /x?p=ÖZB771 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "utf8"),
        ]),
      ]);
      expect(JSON.parse(Buffer.from(bodies(answer)[0]!, "latin1").toString("utf8")).query).toBe("ÖZB771");
      const bad = await talk([Buffer.from("GET /x?p=\xd6ZB HTTP/1.1\r\nHost: x\r\n\r\n", "latin1")]);
      expect(bad).toStartWith("HTTP/1.1 400");
      expect(bad).toContain("/problems/request-target-not-utf8");
    });

    test("an Expect other than 100-continue is 417 problem+json, the body unread and the connection closed", async () => {
      const before = seen.calls;
      const answer = await talk(
        ["POST /e HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\nhi"],
        2000,
      );
      expect(answer).toStartWith("HTTP/1.1 417 Expectation Failed\r\n");
      expect(answer.toLowerCase()).toContain("content-type: application/problem+json");
      expect(answer.toLowerCase()).toContain("connection: close");
      expect(JSON.parse(bodies(answer)[0]!)).toMatchObject({
        type: "/problems/expectation-failed",
        status: 417,
      });
      expect(seen.calls).toBe(before);
      expect(lines.at(-1)).toMatchObject({ route: "(expectation failed)", status: 417 });
    });

    test("Host: missing, twice, or malformed is 400 (RFC 9112 3.2), at once and with a reason", async () => {
      for (const hosts of ["", "Host: a\r\nHost: b\r\n", "Host: a b\r\n", "Host: user@x\r\n"]) {
        const answer = await talk([`GET /h HTTP/1.1\r\n${hosts}\r\n`]);
        expect(answer).toStartWith("HTTP/1.1 400");
        expect(answer).toContain("/problems/malformed-request");
        expect(answer).toContain("Host");
      }
    });

    test("bare LF line ends are answered 400 at once, not at the header deadline", async () => {
      const started = performance.now();
      const answer = await talk(["GET / HTTP/1.1\nHost: x\n"], 3000);
      expect(answer).toStartWith("HTTP/1.1 400");
      expect(performance.now() - started).toBeLessThan(1500);
    });

    test("a client that leaves before a stream's answer is ready: the stream is let go (no slot held)", async () => {
      const before = seen.cancelled;
      const { port } = await ready;
      const socket = open(port, tls, (s) => {
        s.write("GET /late-events HTTP/1.1\r\nHost: x\r\n\r\n");
        setTimeout(() => s.resetAndDestroy?.() ?? s.destroy(), 10);
      });
      socket.on("error", () => {});
      for (let i = 0; i < 50 && seen.cancelled === before; i++) await Bun.sleep(20);
      expect(seen.cancelled).toBe(before + 1);
    });

    if (tls)
      test("every answer over TLS carries HSTS, the front end's own problems included", async () => {
        const ok = await talk(["GET /id HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]);
        expect(ok.toLowerCase()).toContain("strict-transport-security: max-age=31536000");
        const broken = await talk(["GET / HTTP/1.1\r\n\r\n"]);
        expect(broken).toStartWith("HTTP/1.1 400");
        expect(broken.toLowerCase()).toContain("strict-transport-security: max-age=31536000");
      });

    if (!tls)
      test("a TLS ClientHello on the plain port is answered 400 at once", async () => {
        const started = performance.now();
        const answer = await talk(
          [Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03])],
          3000,
        );
        expect(answer).toStartWith("HTTP/1.1 400");
        expect(performance.now() - started).toBeLessThan(1500);
      });
  });

  describe(`what a client that does not read can hold, over ${transport.name}`, () => {
    const limits: ConnectionLimits = {
      maxConnections: 8,
      maxPerAddress: 8,
      headersTimeoutMs: 2_000,
      requestTimeoutMs: 4_000,
      idleTimeoutMs: 200,
      sendStallMs: 400,
    };
    const start = (handle: FrontEndOptions["handle"], extra: Partial<FrontEndOptions> = {}) =>
      startFrontEnd({
        host: "127.0.0.1",
        port: 0,
        tls: transport.tls,
        bodyLimit: 1024,
        limits,
        account: () => {},
        handle,
        ...extra,
      });

    test("an answer already handed to the kernel reaches a client that reads it only after the idle timeout", async () => {
      const quick = await start(() => new Response("y".repeat(200_000)), {
        limits: { ...limits, sendStallMs: 5_000 },
      });
      try {
        const received = await new Promise<number>((resolve) => {
          let bytes = 0;
          const socket = open(quick.port, tls, (s) => {
            s.write("GET /x HTTP/1.1\r\nHost: x\r\n\r\n");
            s.pause();
            // Not read until well after the idle timeout has closed the connection on the server.
            setTimeout(() => s.resume(), 800);
          });
          socket.on("data", (b) => {
            bytes += b.length;
          });
          socket.on("close", () => resolve(bytes));
          socket.on("error", () => resolve(bytes));
        });
        expect(received).toBeGreaterThan(200_000);
      } finally {
        await quick.close(100);
      }
    });

    test("a client that pipelines and never reads holds one answer, not a queue, and is cut when it stalls", async () => {
      let calls = 0;
      const answer = "z".repeat(2 * 1024 * 1024);
      const server = await start(() => {
        calls++;
        return new Response(answer);
      });
      try {
        const closedAfter = await new Promise<number>((resolve) => {
          const started = performance.now();
          const socket = open(server.port, tls, (s) => {
            s.pause();
            s.write("GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n".repeat(2000));
          });
          socket.on("close", () => resolve(performance.now() - started));
          socket.on("error", () => {});
        });
        // Read no more while an answer waited: the app saw one request (two if the first fit the
        // kernel's buffers), never the 2,000 sent.
        expect(calls).toBeLessThanOrEqual(2);
        expect(closedAfter).toBeLessThan(3_000);
      } finally {
        await server.close(100);
      }
    });

    test("an event stream to a client that stops reading is cut, and its stream let go as a slow reader", async () => {
      const seen = { cancelled: 0, calls: 0, reasons: [] as unknown[] };
      const server = await start(echoApp(seen));
      try {
        await new Promise<void>((resolve) => {
          const socket = open(server.port, tls, (s) => {
            s.write("GET /firehose HTTP/1.1\r\nHost: x\r\n\r\n");
            s.pause();
          });
          socket.on("close", () => resolve());
          socket.on("error", () => {});
        });
        for (let i = 0; i < 50 && seen.cancelled === 0; i++) await Bun.sleep(20);
        expect(seen.cancelled).toBe(1);
        expect(seen.reasons).toEqual([SLOW_READER]);
      } finally {
        await server.close(100);
      }
    });

    test("at the connection limit, connections waiting for their client to read are evicted for a new client", async () => {
      const big = "w".repeat(4 * 1024 * 1024);
      // One address here: the per-address limit is set above the total, which is what is tested.
      const server = await start(() => new Response(big), {
        limits: { ...limits, maxPerAddress: 64, sendStallMs: 30_000 },
      });
      const hogs: Socket[] = [];
      try {
        for (let i = 0; i < limits.maxConnections; i++)
          hogs.push(
            open(server.port, tls, (s) => {
              s.pause();
              s.write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
            }),
          );
        for (const h of hogs) h.on("error", () => {});
        await Bun.sleep(500);
        const answer = await exchange(
          server.port,
          tls,
          ["GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"],
          5000,
        );
        expect(answer).toStartWith("HTTP/1.1 200");
      } finally {
        for (const h of hogs) h.destroy();
        await server.close(100);
      }
    });

    test("--allowed-hosts: a request for another Host gets 421; the box's own names are served", async () => {
      const server = await start(() => new Response("ok"), {
        allowedHosts: ["parkd.site", "[::1]", "127.0.0.1"],
      });
      try {
        const other = await exchange(server.port, tls, ["GET / HTTP/1.1\r\nHost: evil.example:8443\r\n\r\n"]);
        expect(other).toStartWith("HTTP/1.1 421");
        expect(other).toContain("/problems/misdirected-request");
        for (const host of ["parkd.site:8443", "PARKD.SITE", "127.0.0.1:8443", "[::1]:8443"]) {
          const mine = await exchange(server.port, tls, [
            `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
          ]);
          expect(mine).toStartWith("HTTP/1.1 200");
        }
      } finally {
        await server.close(100);
      }
    });
  });
}

describe("a renewed certificate", () => {
  test("reloadTls serves the new certificate to new connections; open ones keep theirs and are still served", async () => {
    const server = await startFrontEnd({
      host: "127.0.0.1",
      port: 0,
      tls: certificate,
      bodyLimit: 1024,
      account: () => {},
      handle: () => new Response("ok"),
    });
    const subject = (s: ReturnType<typeof connectTls>) => s.getPeerCertificate().subject.CN;
    const connectAndWait = () =>
      new Promise<ReturnType<typeof connectTls>>((resolve) => {
        const s = connectTls({ port: server.port, host: "127.0.0.1", rejectUnauthorized: false }, () =>
          resolve(s),
        );
      });
    try {
      const old = await connectAndWait();
      expect(subject(old)).toBe("localhost");
      const renewed = await createSelfSigned({
        commonName: "renewed",
        dnsNames: ["localhost"],
        ips: ["127.0.0.1"],
      });
      server.reloadTls({ cert: renewed.certPem, key: renewed.keyPem });
      const fresh = await connectAndWait();
      expect(subject(fresh)).toBe("renewed");
      const answer = await new Promise<string>((resolve) => {
        old.once("data", (b) => resolve(b.toString("latin1")));
        old.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
      });
      expect(answer).toStartWith("HTTP/1.1 200");
      old.destroy();
      fresh.destroy();
      // A certificate that cannot be served leaves the previous one in place.
      expect(() => server.reloadTls({ cert: "not a certificate", key: "nor a key" })).toThrow();
      const after = await connectAndWait();
      expect(subject(after)).toBe("renewed");
      after.destroy();
    } finally {
      await server.close(100);
    }
  });
});
