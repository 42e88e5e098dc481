import { describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { boxesForFile } from "../support/binary.ts";

const newBox = boxesForFile();

/** Sends raw bytes (over TLS when `tls`) and returns what came back before the server closed (or 3 s passed). */
function raw(port: number, bytes: string | Uint8Array, tls = false): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket: Socket = tls
      ? tlsConnect({ port, host: "127.0.0.1", rejectUnauthorized: false }, () => socket.write(bytes))
      : connect(port, "127.0.0.1", () => socket.write(bytes));
    const done = () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const timer = setTimeout(() => {
      socket.destroy();
      done();
    }, 3000);
    socket.on("data", (b: Buffer) => chunks.push(b));
    socket.on("close", done);
    socket.on("error", done);
  });
}

async function metrics(url: string, token: string): Promise<string> {
  const res = await fetch(`${url}/metrics`, {
    headers: { authorization: `Bearer ${token}` },
    tls: { rejectUnauthorized: false },
  });
  return res.text();
}

function sample(text: string, name: string, labels: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(" ").pop()) : 0;
}

describe("the request target", () => {
  test("raw UTF-8 bytes in the query string (as curl sends ÖZB771) are read, over HTTPS (the default) and plain HTTP; bytes that are not UTF-8 are a clear 400", async () => {
    const box = newBox();
    const writer = await box.token("terminal", "tickets:write");
    const reader = await box.token("handheld", "permits:read");
    for (const [flags, tls] of [
      [[], true],
      [["--http", "--lenient-request-target"], false],
    ] as const) {
      const server = await box.serve([...flags]);
      const now = Date.now();
      const event = {
        eventType: "CreateOrUpdate",
        ticketId: "77",
        zoneCode: "1234",
        parkingLotId: null,
        startDate: new Date(now - 60_000).toISOString(),
        endDate: new Date(now + 3_600_000).toISOString(),
        licenseNumber: "ÖZB771",
        ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
      };
      const posted = await fetch(`${server.url}/api/v1/actions/tickets`, {
        method: "POST",
        headers: { authorization: `Bearer ${writer}`, "content-type": "application/json" },
        body: JSON.stringify(event),
        tls: { rejectUnauthorized: false },
      });
      expect(posted.status).toBe(200);
      const request = (target: string, close = true) =>
        Buffer.from(
          `GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${reader}\r\n${close ? "Connection: close\r\n" : ""}\r\n`,
          "utf8",
        );
      for (const target of [
        "/api/v1/attendants/check-tickets?registration_number=ÖZB771",
        "/api/v1/attendants/check-tickets?registration_number=özb-771",
      ]) {
        const answer = await raw(server.port, request(target), tls);
        expect(answer, target).toStartWith("HTTP/1.1 200");
        expect(answer, target).toContain("ÖZB771");
      }
      // Keep-alive: the second request on a connection is read the same way.
      const target = "/api/v1/attendants/check-tickets?registration_number=ÖZB771";
      const two = await raw(server.port, Buffer.concat([request(target, false), request(target)]), tls);
      expect((two.match(/HTTP\/1\.1 200/g) ?? []).length).toBe(2);
      const notUtf8 = await raw(
        server.port,
        Buffer.from(
          "GET /api/v1/attendants/check-tickets?registration_number=\xd6ZB771 HTTP/1.1\r\nHost: x\r\n\r\n",
          "latin1",
        ),
        tls,
      );
      expect(notUtf8).toStartWith("HTTP/1.1 400");
      expect(notUtf8).toContain("/problems/request-target-not-utf8");
      expect(notUtf8).toContain("--data-urlencode");
      if (flags.length > 0)
        expect(server.stdout() + server.stderr()).toContain("--lenient-request-target has no effect");
      expect(await server.stop("SIGTERM")).toBe(0);
    }
  }, 30_000);
});

interface Slow {
  socket: Socket;
  closedAt?: number;
  answer: string;
}

describe("slow and abandoned requests", () => {
  for (const tls of [false, true])
    test(`a normal client stays served while hundreds of slow connections are open; the slow ones are closed (${tls ? "HTTPS" : "plain HTTP"})`, async () => {
      const box = newBox();
      const admin = await box.token("operator", "admin");
      const server = await box.serve([
        ...(tls ? [] : ["--http"]),
        "--max-connections",
        "150",
        "--max-connections-per-address",
        "20",
        "--request-timeout",
        "4",
      ]);
      const head =
        "POST /api/v1/actions/tickets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n";
      const slow: Slow[] = [];
      const timers: ReturnType<typeof setInterval>[] = [];
      const started = Date.now();
      // 20 source addresses on the loopback (the target is 127.0.0.1 only), 30 connections each:
      // half trickle a body one byte at a time, half trickle header lines.
      for (let a = 2; a < 22; a++)
        for (let i = 0; i < 30; i++) {
          const options = { port: server.port, host: "127.0.0.1", localAddress: `127.0.0.${a}` };
          const entry: Slow = {
            socket: tls ? tlsConnect({ ...options, rejectUnauthorized: false }) : connect(options),
            answer: "",
          };
          const s = entry.socket;
          s.on("error", () => {});
          s.on("data", (b) => {
            entry.answer += b.toString("latin1");
          });
          s.on("close", () => {
            entry.closedAt = Date.now();
          });
          const body = i % 2 === 0;
          s.on(tls ? "secureConnect" : "connect", () => {
            s.write(body ? head : "POST /api/v1/actions/tickets HTTP/1.1\r\nHost: x\r\n");
            const t = setInterval(() => {
              if (s.destroyed || !s.writable) return clearInterval(t);
              s.write(body ? "{" : `X-Slow-${Date.now()}: 1\r\n`);
            }, 500);
            timers.push(t);
          });
          slow.push(entry);
        }
      try {
        await Bun.sleep(800);
        // The normal client: every request answered, promptly.
        for (let i = 0; i < 20; i++) {
          const t0 = Date.now();
          const res = await fetch(`${server.url}/api/v1/whoami`, {
            headers: { authorization: `Bearer ${admin}` },
            tls: { rejectUnauthorized: false },
          });
          expect(res.status).toBe(200);
          await res.text();
          expect(Date.now() - t0).toBeLessThan(5000);
          await Bun.sleep(50);
        }
        // Within the request timeout (4 s, headers 2 s) and the sweep, every slow connection is closed.
        const deadline = started + 12_000;
        while (Date.now() < deadline && slow.some((e) => e.closedAt === undefined)) await Bun.sleep(100);
        expect(slow.filter((e) => e.closedAt === undefined).length).toBe(0);
        const answers = slow.map((e) => /^HTTP\/1\.1 (\d{3})/.exec(e.answer)?.[1] ?? "none");
        const count = (code: string) => answers.filter((c) => c === code).length;
        // Refused over the per-address or total limit: a 503 on plain HTTP; over TLS nothing can be
        // said before the handshake, so the connection is just closed.
        if (tls) expect(count("none")).toBeGreaterThan(0);
        else {
          expect(count("503")).toBeGreaterThan(0);
          expect(slow.find((e) => e.answer.startsWith("HTTP/1.1 503"))!.answer).toContain(
            "too-many-connections",
          );
        }
        expect(count("408")).toBeGreaterThan(0); // timed out or evicted while arriving
        expect(slow.find((e) => e.answer.startsWith("HTTP/1.1 408"))!.answer).toContain("request-timeout");
        const text = await metrics(server.url, admin);
        expect(sample(text, "parkd_connections_refused_total", 'reason="per-address"')).toBeGreaterThan(0);
        if (tls)
          expect(slow.find((e) => e.answer.startsWith("HTTP/1.1 408"))!.answer.toLowerCase()).toContain(
            "strict-transport-security",
          );
        expect(
          sample(text, "parkd_connections_timed_out_total", 'phase="headers"') +
            sample(text, "parkd_connections_timed_out_total", 'phase="body"') +
            sample(text, "parkd_connections_refused_total", 'reason="evicted"'),
        ).toBeGreaterThan(0);
        expect(text).not.toMatch(/status="5\d\d"/);
      } finally {
        for (const t of timers) clearInterval(t);
        for (const e of slow) e.socket.destroy();
      }
      expect(await server.stop("SIGTERM")).toBe(0);
    }, 30_000);

  test("a client that drops its connection mid-body is counted as client-closed (499), never as a 5xx", async () => {
    const box = newBox();
    const admin = await box.token("operator", "admin");
    const writer = await box.token("terminal", "tickets:write");
    const server = await box.serve(["--http", "--log-requests"]);
    for (let i = 0; i < 5; i++) {
      const s = connect(server.port, "127.0.0.1", () =>
        s.write(
          `POST /api/v1/actions/tickets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${writer}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"eventType":`,
        ),
      );
      s.on("error", () => {});
      await Bun.sleep(100);
      s.destroy();
    }
    await Bun.sleep(300);
    const text = await metrics(server.url, admin);
    expect(
      sample(text, "parkd_http_requests_total", 'method="POST",route="(client closed)",status="499"'),
    ).toBe(5);
    expect(text).not.toMatch(/status="5\d\d"/);
    expect(server.stdout() + server.stderr()).toContain('"status":499');
    expect(await server.stop("SIGTERM")).toBe(0);
  });
});

describe("flags", () => {
  test("bad limits and proxy blocks are usage errors (exit 2) naming the flag", async () => {
    const box = newBox();
    for (const [args, flag] of [
      [["--trust-proxy", "10.0.0.0/33"], "--trust-proxy"],
      [["--trust-proxy", "10.0.0.0/8,proxy.local"], "--trust-proxy"],
      [["--rate-limit-per-second", "fast"], "--rate-limit-per-second"],
      [["--max-connections", "0"], "--max-connections"],
      [["--request-timeout", "1"], "--request-timeout"],
    ] as const) {
      const r = await box.run(["serve", "--http", ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain(flag);
    }
  });
});

describe("TLS", () => {
  const handshake = (port: number, opts: { ciphers?: string; minVersion?: string; maxVersion?: string }) =>
    new Promise<string>((resolve) => {
      const t = tlsConnect({
        port,
        host: "127.0.0.1",
        rejectUnauthorized: false,
        ...(opts as { minVersion?: "TLSv1"; maxVersion?: "TLSv1.2" }),
        ciphers: opts.ciphers,
      });
      t.on("secureConnect", () => {
        resolve(`${t.getProtocol()} ${t.getCipher()?.name}`);
        t.destroy();
      });
      t.on("error", () => resolve("refused"));
      setTimeout(() => resolve("timeout"), 3000);
    });

  test("TLS 1.2 with AEAD suites and TLS 1.3 only; HTTPS answers carry HSTS", async () => {
    const box = newBox();
    const server = await box.serve([]);
    expect(await handshake(server.port, { ciphers: "ECDHE-ECDSA-AES128-SHA", maxVersion: "TLSv1.2" })).toBe(
      "refused",
    );
    expect(await handshake(server.port, { ciphers: "ECDHE-ECDSA-AES256-SHA", maxVersion: "TLSv1.2" })).toBe(
      "refused",
    );
    expect(
      await handshake(server.port, { ciphers: "ECDHE-ECDSA-AES128-SHA256", maxVersion: "TLSv1.2" }),
    ).toBe("refused");
    expect(await handshake(server.port, { minVersion: "TLSv1", maxVersion: "TLSv1.1" })).toBe("refused");
    expect(
      await handshake(server.port, { ciphers: "ECDHE-ECDSA-AES128-GCM-SHA256", maxVersion: "TLSv1.2" }),
    ).toBe("TLSv1.2 ECDHE-ECDSA-AES128-GCM-SHA256");
    expect(await handshake(server.port, { maxVersion: "TLSv1.2" })).toStartWith("TLSv1.2 ECDHE-ECDSA-");
    expect(await handshake(server.port, {})).toStartWith("TLSv1.3 ");
    for (const path of ["/healthz", "/no/such/route"]) {
      const res = await fetch(`${server.url}${path}`, { tls: { rejectUnauthorized: false } });
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
    }
    await server.stop("SIGTERM");
    const plain = await box.serve(["--http"]);
    expect((await fetch(`${plain.url}/healthz`)).headers.get("strict-transport-security")).toBeNull();
  });
});
