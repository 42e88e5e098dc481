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
    const server = await box.serve([]);
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
      level: "info",
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
});
