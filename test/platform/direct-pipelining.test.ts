import { afterAll, expect, test } from "bun:test";
import { connect } from "node:net";
import { startFrontEnd } from "../../src/platform/http/server.ts";
import { testApp, testClock } from "../support/app.ts";
import { seedTicket } from "../support/seed.ts";

/**
 * Direct answers larger than the socket takes at once (a busy zone, asked again and again on one
 * connection): each waits for the one before it to go out, and the requests pipelined behind it,
 * direct or the app's, are answered after it, in the order asked, each once.
 */

const NOW = "2026-06-15T12:00:00Z";
const CHECK = "/api/v1/attendants/check-tickets";
const s = testApp({}, testClock(NOW));
for (let i = 0; i < 1500; i++)
  seedTicket(s.ctx, {
    ticketId: `T${i}`,
    plate: `ABC${String(i).padStart(4, "0")}`,
    zone: 1234,
    start: Date.parse(NOW) - 3_600_000,
  });

let appCalls = 0;
const front = await startFrontEnd({
  host: "127.0.0.1",
  port: 0,
  bodyLimit: 64 * 1024,
  direct: s.direct,
  handle: (request) => {
    appCalls++;
    return s.app.handle(request);
  },
  account: (entry) => s.ctx.accounting.finish(entry),
});
afterAll(() => front.close(100));

test("large direct answers, pipelined between the app's, go out whole and in order", async () => {
  const token = s.token("permits:read");
  const zone = `GET ${CHECK}?zone=1234 HTTP/1.1\r\nhost: box.lan\r\nauthorization: Bearer ${token}\r\n\r\n`;
  const byApp = `GET ${CHECK}?zone=7 HTTP/1.1\r\nhost: box.lan\r\n\r\n`;
  const last = "GET /healthz HTTP/1.1\r\nhost: box.lan\r\nconnection: close\r\n\r\n";
  const asked: string[] = [];
  for (let i = 0; i < 30; i++) asked.push(i % 10 === 9 ? byApp : zone);
  asked.push(last);
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    const socket = connect(front.port, "127.0.0.1", () => socket.write(asked.join("")));
    socket.on("data", (b: Buffer) => chunks.push(b));
    socket.on("close", () => resolve());
    socket.on("error", reject);
  });
  const out = Buffer.concat(chunks).toString("utf8");
  const statuses = [...out.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]);
  expect(statuses).toEqual(asked.map((r) => (r === byApp ? "401" : "200")));
  // Each zone answer whole: the same body, its length as declared.
  const bodies = out
    .split(/HTTP\/1\.1 200 OK\r\n/)
    .slice(1, -1)
    .map((a) => {
      const [head, body] = a.split("\r\n\r\n") as [string, string];
      const length = Number(/content-length: (\d+)/.exec(head)![1]);
      return body.slice(0, length).length === length ? body.slice(0, length) : "";
    });
  expect(bodies).toHaveLength(27);
  expect(bodies[0]!.length).toBeGreaterThan(150_000);
  expect(new Set(bodies).size).toBe(1);
  expect(out.endsWith('{"status":"ok"}')).toBe(true);
  // The app answered only the requests without a token.
  expect(appCalls).toBe(3);
});
