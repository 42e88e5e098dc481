import { afterAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import type { RequestLine } from "../../src/platform/http/accounting.ts";
import { type FrontEnd, startFrontEnd } from "../../src/platform/http/server.ts";

/** The plain-HTTP front end with an app that echoes what it was given. */
const lines: RequestLine[] = [];
let front: FrontEnd;
const ready = startFrontEnd({
  host: "127.0.0.1",
  port: 0,
  bodyLimit: 64 * 1024,
  account: (l) => lines.push(l),
  async handle(request) {
    const url = new URL(request.url);
    if (url.pathname === "/big") return new Response("x".repeat(4 * 1024 * 1024));
    if (url.pathname === "/events") {
      const stream = new ReadableStream({
        async start(c) {
          for (const n of [1, 2, 3]) {
            c.enqueue(new TextEncoder().encode(`data: ${n}\n\n`));
            await Bun.sleep(5);
          }
          c.close();
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    }
    const body = await request.text();
    return Response.json({ method: request.method, path: `${url.pathname}${url.search}`, body });
  },
}).then((f) => {
  front = f;
  return f;
});
afterAll(() => front?.close(100));

/** Writes the pieces (a pause between them) and collects what comes back until close or `ms`. */
async function exchange(pieces: (string | Buffer)[], ms = 500): Promise<string> {
  const { port } = await ready;
  return new Promise((resolve) => {
    let out = "";
    const socket = connect(port, "127.0.0.1", async () => {
      for (const p of pieces) {
        socket.write(p);
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

describe("the socket front end", () => {
  test("a stream of empty lines is dropped as it comes, and the request after it is answered", async () => {
    const answer = await exchange(
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
    const headAnswer = await exchange(["HEAD /events HTTP/1.1\r\nHost: x\r\n\r\n"], 2000);
    expect(headAnswer).toStartWith("HTTP/1.1 200 OK");
    expect(bodies(headAnswer)[0]).toBe("");
    const old = await exchange(["GET /events HTTP/1.0\r\n\r\n"], 2000);
    expect(old.toLowerCase()).not.toContain("transfer-encoding");
    expect(bodies(old)[0]).toBe("data: 1\n\ndata: 2\n\ndata: 3\n\n");
  });

  test("a GET with a JSON body (the interface's own example) reaches the app with its body", async () => {
    const body = '{"registration_number":"ABC123"}';
    const answer = await exchange([
      `GET /api/v1/attendants/check-tickets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    ]);
    expect(answer).toStartWith("HTTP/1.1 200 OK\r\n");
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(JSON.parse(bodies(answer)[0]!)).toEqual({
      method: "GET",
      path: "/api/v1/attendants/check-tickets",
      body,
    });
  });

  test("pipelined requests are answered in order on one connection; a chunked body split over writes", async () => {
    const answer = await exchange([
      "GET /one HTTP/1.1\r\nHost: x\r\n\r\nPOST /two HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab",
      "c\r\n2\r\nde\r\n0\r\n\r\nGET /three HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ]);
    expect(bodies(answer).map((b) => JSON.parse(b))).toEqual([
      { method: "GET", path: "/one", body: "" },
      { method: "POST", path: "/two", body: "abcde" },
      { method: "GET", path: "/three", body: "" },
    ]);
  });

  test("Expect: 100-continue gets its interim answer; HTTP/1.0 closes; HEAD has no body", async () => {
    const cont = await exchange([
      "POST /c HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\n",
      "hi",
    ]);
    expect(cont).toStartWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK");
    expect(JSON.parse(bodies(cont)[1]!).body).toBe("hi");
    const old = await exchange(["GET /old HTTP/1.0\r\n\r\n"], 2000);
    expect(old.toLowerCase()).toContain("connection: close");
    expect(JSON.parse(bodies(old)[0]!).path).toBe("/old");
    const headAnswer = await exchange(["HEAD /h HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]);
    expect(headAnswer).toMatch(/content-length: \d+/i);
    expect(bodies(headAnswer)[0]).toBe("");
  });

  test("a large answer reaches a client whole; an event stream goes out chunked as it is written", async () => {
    const big = await exchange(["GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"], 5000);
    expect(bodies(big)[0]!.length).toBe(4 * 1024 * 1024);
    const events = await exchange(["GET /events HTTP/1.1\r\nHost: x\r\n\r\n"], 2000);
    expect(events.toLowerCase()).toContain("transfer-encoding: chunked");
    expect(bodies(events)[0]).toBe("9\r\ndata: 1\n\n\r\n9\r\ndata: 2\n\n\r\n9\r\ndata: 3\n\n\r\n0\r\n\r\n");
  });

  test("every request the app answers carries a request id; a safe one from the client is kept", async () => {
    const answer = await exchange([
      "GET /id HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc-123\r\nConnection: close\r\n\r\n",
    ]);
    expect(answer.toLowerCase()).toContain("x-request-id: abc-123");
    const unsafe = await exchange([
      "GET /id HTTP/1.1\r\nHost: x\r\nX-Request-Id: <bad>\r\nConnection: close\r\n\r\n",
    ]);
    expect(unsafe.toLowerCase()).not.toContain("<bad>");
    expect(unsafe.toLowerCase()).toMatch(/x-request-id: [0-9a-f]{8}-/);
  });
});

describe("closing without losing an answer", () => {
  test("an answer already handed to the kernel reaches a client that reads it only after the idle timeout", async () => {
    const quick = await startFrontEnd({
      host: "127.0.0.1",
      port: 0,
      bodyLimit: 1024,
      limits: {
        maxConnections: 16,
        maxPerAddress: 16,
        headersTimeoutMs: 2_000,
        requestTimeoutMs: 4_000,
        idleTimeoutMs: 200,
      },
      account: () => {},
      handle: () => new Response("y".repeat(200_000)),
    });
    try {
      const received = await new Promise<number>((resolve) => {
        let bytes = 0;
        const socket = connect(quick.port, "127.0.0.1", () => {
          socket.write("GET /x HTTP/1.1\r\nHost: x\r\n\r\n");
          socket.pause();
          // Not read until well after the idle timeout has closed the connection on the server.
          setTimeout(() => socket.resume(), 800);
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
});
