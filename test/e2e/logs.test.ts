import { describe, expect, test } from "bun:test";
import { boxesForFile } from "../support/binary.ts";

const newBox = boxesForFile();
const LEVELS = ["debug", "info", "notice", "warning", "error", "critical"];

type Line = Record<string, unknown> & { time: string; level: string; msg: string };

/** Every line of a stream as JSON, each beginning time, level, msg. */
function lines(text: string): Line[] {
  return text
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((raw) => {
      const line = JSON.parse(raw) as Line;
      expect(Object.keys(line).slice(0, 3)).toEqual(["time", "level", "msg"]);
      expect(Number.isNaN(Date.parse(line.time))).toBe(false);
      expect(LEVELS).toContain(line.level);
      expect(typeof line.msg).toBe("string");
      expect("message" in line).toBe(false);
      return line;
    });
}

describe("the log, as an operator searches it", () => {
  test("one JSON shape for every line: start-up, requests with the client address, auth failures, shutdown", async () => {
    const box = newBox();
    const token = await box.token("terminal-1", "tickets:write");
    const server = await box.serve(["--log-requests"]);
    const tls = { tls: { rejectUnauthorized: false } };
    expect((await fetch(`${server.url}/healthz`, tls)).status).toBe(200);
    const wrong = "0".repeat(64);
    for (let i = 0; i < 11; i++)
      await fetch(`${server.url}/api/v1/whoami`, { ...tls, headers: { authorization: `Bearer ${wrong}` } });
    const ok = await fetch(`${server.url}/api/v1/whoami`, {
      ...tls,
      headers: { authorization: `Bearer ${token}` },
    });
    // This address is locked out by now, but a valid Bearer token is still served (issue 11, item 4).
    expect(ok.status).toBe(200);
    const locked = await fetch(`${server.url}/api/v1/whoami`, {
      ...tls,
      headers: { authorization: `Bearer ${wrong}` },
    });
    expect(locked.status).toBe(429);
    expect(await server.stop("SIGTERM")).toBe(0);

    const events = lines(server.stderr());
    const requests = lines(server.stdout());
    const all = [...events, ...requests];

    const start = events.find((l) => String(l.msg).includes("listening on"))!;
    expect(start.level).toBe("notice");
    expect(start.msg).toContain(server.url);
    expect(start.msg).toMatch(/fingerprint ([0-9A-F]{2}:){31}[0-9A-F]{2}/);
    expect(start.fingerprint).toBeDefined();
    expect(events.some((l) => String(l.msg).includes("schema version"))).toBe(true);
    expect(events.at(-1)!.msg).toBe("stopped");
    expect(
      events.some((l) => l.msg === "SIGTERM: finishing in-flight requests" && l.level === "notice"),
    ).toBe(true);

    const health = requests.find((l) => l.route === "/healthz")!;
    expect(health).toMatchObject({
      level: "debug",
      msg: "request",
      method: "GET",
      status: 200,
      client: "127.0.0.1",
    });

    const failures = events.filter((l) => l.msg === "authentication failed");
    expect(failures.length).toBeGreaterThanOrEqual(10);
    expect(failures[0]).toMatchObject({ level: "warning", client: "127.0.0.1", route: "/api/v1/whoami" });
    const lockout = events.find((l) => String(l.msg).startsWith("address locked out"))!;
    expect(lockout).toMatchObject({ level: "warning", client: "127.0.0.1" });

    // No secret anywhere, in any line.
    const text = server.stdout() + server.stderr();
    expect(text).not.toContain(token);
    expect(text).not.toContain(wrong);
    expect(all.length).toBeGreaterThan(15);
  }, 60_000);

  /** Drives `n` answered requests (lots, whoami, a 404, a 401) at the box; returns how many. */
  async function drive(url: string, token: string, n: number): Promise<number> {
    const auth = { authorization: `Bearer ${token}` };
    let sent = 0;
    for (let i = 0; i < n; i += 4) {
      const answers = await Promise.all([
        fetch(`${url}/api/v1/parkings`),
        fetch(`${url}/api/v1/whoami`, { headers: auth }),
        fetch(`${url}/api/v1/nothing-here`, { headers: auth }),
        fetch(`${url}/api/v1/lookups`, { headers: auth }),
      ]);
      for (const a of answers) await a.arrayBuffer();
      sent += answers.length;
    }
    return sent;
  }

  const requestLines = (text: string) =>
    lines(text).filter((l) => l.msg === "request" && l.route !== "/healthz");

  test("no line per request by default (the counts are in /metrics); --log-requests: one per request", async () => {
    const box = newBox();
    const token = await box.token("terminal-1", "tickets:write");
    const quiet = await box.serve(["--http", "--public-rate-limit-per-second", "0"]);
    const sent = await drive(quiet.url, token, 300);
    const admin = await box.token("office", "admin");
    const metrics = await (
      await fetch(`${quiet.url}/metrics`, { headers: { authorization: `Bearer ${admin}` } })
    ).text();
    expect(await quiet.stop("SIGTERM")).toBe(0);
    expect(requestLines(quiet.stdout())).toEqual([]);
    // Nothing per request on stderr either (a terminal's token on an admin route is a 403, no
    // authentication failure): the start-up summary and the shutdown only.
    expect(lines(quiet.stderr()).length).toBeLessThan(10);
    // /metrics still counts every request.
    const counted = [...metrics.matchAll(/^parkd_http_requests_total\{[^}]*route="([^"]+)"[^}]*\} (\d+)$/gm)]
      .filter((m) => m[1] !== "/healthz" && m[1] !== "/metrics")
      .reduce((sum, m) => sum + Number(m[2]), 0);
    expect(counted).toBe(sent);

    const loud = await box.serve(["--http", "--public-rate-limit-per-second", "0", "--log-requests"]);
    const sentLoud = await drive(loud.url, token, 300);
    expect(await loud.stop("SIGTERM")).toBe(0);
    const logged = requestLines(loud.stdout());
    expect(logged.length).toBe(sentLoud);
    expect(new Set(logged.map((l) => l.requestId)).size).toBe(sentLoud);
    expect(logged.every((l) => l.level === "debug")).toBe(true);
    expect(new Set(logged.map((l) => l.status))).toEqual(new Set([200, 403, 404]));
  }, 120_000);

  test("PARKD_LOG_REQUESTS=true turns request lines on as the flag does", async () => {
    const box = newBox();
    const token = await box.token("terminal-1", "tickets:write");
    const server = await box.serve(["--http"], { env: { PARKD_LOG_REQUESTS: "true" } });
    const sent = await drive(server.url, token, 40);
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(requestLines(server.stdout()).length).toBe(sent);
  }, 60_000);
});
