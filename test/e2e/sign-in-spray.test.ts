import { describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { boxesForFile, type Server } from "../support/binary.ts";

/**
 * A password spray over changing user names against the binary, from one address and from ten,
 * while real users sign in from another: the password checks are shared fairly between addresses
 * (not first come, first served), so each real sign-in is answered 200 within 2 s, and the
 * sprayers are locked out as docs/network.md says (30 failures a minute per address across names).
 * Bounded in count and time; loopback addresses only.
 */
const newBox = boxesForFile();

/** POST /api/v1/session from `localAddress` on a connection of its own: the status and how long it took. */
function signIn(
  server: Server,
  tls: boolean,
  localAddress: string,
  username: string,
  password: string,
): Promise<{ status: number; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const body = JSON.stringify({ username, password });
    const request = `POST /api/v1/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
    let answer = "";
    const done = (status: number) => {
      clearTimeout(timer);
      s.destroy();
      resolve({ status, ms: performance.now() - started });
    };
    const s: Socket = tls
      ? tlsConnect(
          { port: server.port, host: "127.0.0.1", rejectUnauthorized: false, ...{ localAddress } },
          () => s.write(request),
        )
      : connect({ port: server.port, host: "127.0.0.1", localAddress }, () => s.write(request));
    const timer = setTimeout(() => done(0), 10_000);
    s.on("error", () => done(0));
    s.on("data", (b: Buffer) => {
      answer += b.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status) done(Number(status[1]));
    });
  });
}

describe.each([
  ["HTTPS", true],
  ["plain HTTP", false],
])("a sign-in spray over %s", (_, tls) => {
  for (const sprayers of [1, 10])
    test(`20 guesses a second from ${sprayers} address(es), a new user name each: every real sign-in from another address is in within 2 s, and the sprayers are locked out`, async () => {
      const box = newBox();
      await box.migrate();
      const users = Array.from({ length: 5 }, (_, i) => [`attendant-${i}`, `a long password number ${i}`]);
      for (const [name, password] of users) {
        const r = await box.run(
          ["user", "create", "--name", name!, "--scope", "permits:read", "--password-stdin"],
          {
            stdin: `${password}\n`,
          },
        );
        expect(r.code).toBe(0);
      }
      const server = await box.serve(tls ? [] : ["--http"]);
      const spray: Promise<{ status: number; ms: number }>[] = [];
      const statusesOf = new Map<string, number[]>();
      let sending = true;
      const sprayer = (async () => {
        for (let i = 0; sending; i++) {
          const address = `127.0.1.${1 + (i % sprayers)}`;
          spray.push(
            signIn(server, tls, address, `guess-${i}`, "Summer2026!").then((r) => {
              statusesOf.set(address, [...(statusesOf.get(address) ?? []), r.status]);
              return r;
            }),
          );
          await Bun.sleep(50);
        }
      })();
      const real: { status: number; ms: number }[] = [];
      try {
        // The first guesses fill the queue; then a real user every 1.5 s.
        await Bun.sleep(1000);
        for (const [name, password] of users) {
          real.push(await signIn(server, tls, "127.0.2.1", name!, password!));
          await Bun.sleep(1500);
        }
      } finally {
        sending = false;
        await sprayer;
        await Promise.all(spray);
      }
      for (const r of real) {
        expect(r.status).toBe(200);
        expect(r.ms).toBeLessThan(2000);
      }
      // Each sprayer: at most 30 failures in the minute (the limit across names), then 429.
      for (const [, statuses] of statusesOf) {
        expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(30);
        expect(statuses.filter((s) => ![401, 429, 503].includes(s))).toEqual([]);
      }
      if (sprayers === 1)
        expect(statusesOf.get("127.0.1.1")!.filter((s) => s === 429).length).toBeGreaterThan(0);
      expect(await server.stop("SIGTERM")).toBe(0);
    }, 60_000);
});
