import { afterEach, describe, expect, test } from "bun:test";
import { attachMeta } from "../../src/platform/http/request-meta.ts";
import { setLogging } from "../../src/platform/log.ts";
import { testApp } from "../support/app.ts";

/** Event lines (stderr) written while `fn` runs. */
async function events(fn: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  setLogging(true);
  try {
    await fn();
  } finally {
    setLogging(false);
    process.stderr.write = write;
  }
  return lines
    .join("")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

function from(ip: string, path: string, authorization?: string): Request {
  const req = new Request(`http://localhost${path}`, {
    headers: authorization ? { authorization } : {},
  });
  attachMeta(req, { id: `t-${Math.random().toString(36).slice(2)}`, ip });
  return req;
}

afterEach(() => setLogging(false));

describe("refused authentications", () => {
  test("each is a warning naming the address and the reason, never what was sent; the tenth locks the address out", async () => {
    const s = testApp();
    const secret = "not-a-real-token-but-secret-0123456789";
    const lines = await events(async () => {
      expect((await s.app.handle(from("10.9.8.7", "/api/v1/whoami"))).status).toBe(401);
      expect((await s.app.handle(from("10.9.8.7", "/api/v1/whoami", "Digest abc"))).status).toBe(401);
      for (let i = 0; i < 10; i++)
        expect((await s.app.handle(from("10.9.8.7", "/api/v1/whoami", `Bearer ${secret}`))).status).toBe(401);
      expect((await s.app.handle(from("10.9.8.7", "/api/v1/whoami", `Bearer ${secret}`))).status).toBe(429);
    });
    const failed = lines.filter((l) => l.msg === "authentication failed");
    expect(failed.map((l) => l.reason)).toEqual([
      "no credentials",
      "unsupported scheme",
      ...Array(10).fill("unknown, expired or revoked credentials"),
    ]);
    for (const l of failed) {
      expect(Object.keys(l).slice(0, 3)).toEqual(["time", "level", "msg"]);
      expect(l).toMatchObject({ level: "warning", client: "10.9.8.7", route: "/api/v1/whoami" });
    }
    const locked = lines.filter((l) => String(l.msg).startsWith("address locked out"));
    expect(locked).toHaveLength(1);
    expect(locked[0]).toMatchObject({ level: "warning", client: "10.9.8.7", failures: 10 });
    expect(JSON.stringify(lines)).not.toContain(secret);

    const text = s.ctx.metrics.render();
    expect(text).toContain('parkd_auth_failures_total{reason="no credentials"} 1\n');
    expect(text).toContain('parkd_auth_failures_total{reason="unsupported scheme"} 1\n');
    expect(text).toContain(
      'parkd_auth_failures_total{reason="unknown, expired or revoked credentials"} 10\n',
    );
    expect(text).toContain("parkd_auth_lockouts_total 1\n");
    expect(text).toContain("parkd_auth_rate_limited_requests_total 1\n");
  });
});
