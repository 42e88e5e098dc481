import { describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { boxesForFile } from "../support/binary.ts";

const newBox = boxesForFile();

const open = (port: number, tls: boolean, ready: (s: Socket) => void): Socket => {
  if (!tls) {
    const s = connect(port, "127.0.0.1", () => ready(s));
    return s;
  }
  const s = tlsConnect({ port, host: "127.0.0.1", rejectUnauthorized: false }, () => ready(s));
  return s;
};

/** Sends raw bytes and returns what came back before the server closed (or 2 s passed). */
function raw(port: number, tls: boolean, bytes: string | Uint8Array): Promise<string> {
  return new Promise((resolve) => {
    let out = "";
    const socket = open(port, tls, (s) => s.write(bytes));
    const done = () => {
      clearTimeout(timer);
      resolve(out);
    };
    const timer = setTimeout(() => {
      socket.destroy();
      done();
    }, 2000);
    socket.on("data", (b) => {
      out += b.toString("latin1");
    });
    socket.on("close", done);
    socket.on("error", done);
  });
}

const status = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);

// The same table over plain HTTP and HTTPS: one front end reads both.
describe.each([
  ["plain HTTP", false],
  ["HTTPS", true],
])("broken HTTP against the binary over %s", (_, tls) => {
  test("malformed requests get problem+json 4xx, and the server keeps serving", async () => {
    const box = newBox();
    const token = await box.token("terminal", "tickets:write");
    const server = await box.serve([...(tls ? [] : ["--http"]), "--body-limit-kb", "8"]);
    const alive = () => fetch(`${server.url}/healthz`, { tls: { rejectUnauthorized: false } });
    const cases: [string, string | Uint8Array, number][] = [
      ["bad request line", "GARBAGE\r\n\r\n", 400],
      ["header without a colon", "GET /healthz HTTP/1.1\r\nHost: x\r\nBadHeader\r\n\r\n", 400],
      ["huge header", `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(100_000)}\r\n\r\n`, 431],
      [
        "bad chunk size",
        "POST /api/v1/actions/tickets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n",
        400,
      ],
      [
        "declared body over the limit",
        `POST /api/v1/actions/tickets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 999999\r\n\r\n{`,
        413,
      ],
      [
        "chunked body over the limit",
        `POST /api/v1/actions/tickets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${"2000\r\n".concat("x".repeat(0x2000), "\r\n").repeat(3)}0\r\n\r\n`,
        413,
      ],
      [
        "invalid UTF-8 in a JSON body",
        Buffer.concat([
          Buffer.from(
            `POST /api/v1/actions/tickets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n`,
          ),
          Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0xc3, 0x28, 0x7d]),
        ]),
        400,
      ],
      [
        "an expectation other than 100-continue",
        `POST /api/v1/actions/tickets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n[]`,
        417,
      ],
      ["path traversal", "GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404],
    ];
    for (const [label, bytes, want] of cases) {
      const answer = await raw(server.port, tls, bytes);
      expect(status(answer), `${label}: ${answer.slice(0, 600)}`).toBe(want);
      expect(answer.toLowerCase(), label).toContain("content-type: application/problem+json");
      expect(answer, label).not.toContain("/etc/passwd:");
      expect((await alive()).status, `alive after ${label}`).toBe(200);
    }
    // A client that sends half a request and vanishes leaves nothing behind.
    for (let i = 0; i < 20; i++) {
      const s = open(server.port, tls, (s) =>
        s.write("POST /api/v1/actions/tickets HTTP/1.1\r\nContent-Length: 50\r\n\r\n{"),
      );
      s.on("error", () => {});
      setTimeout(() => s.destroy(), 20);
    }
    await Bun.sleep(100);
    expect((await alive()).status).toBe(200);
    expect(await server.stop("SIGTERM")).toBe(0);
  });
});
