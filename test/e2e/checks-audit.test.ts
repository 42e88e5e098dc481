import { describe, expect, test } from "bun:test";
import { boxesForFile } from "../support/binary.ts";

/**
 * Reading a car's earlier checks is itself recorded, against the binary over TLS and plain HTTP:
 * who read which plate and when is in the audit, by plate and by credential, and the read is not
 * one of the car's checks.
 */
const newBox = boxesForFile();

describe.each([
  ["HTTPS", true],
  ["plain HTTP", false],
])("a car's earlier checks read through the binary over %s", (_, tls) => {
  test("the read is a lookup record of the car (by: checks) in the audit, never among its checks", async () => {
    const box = newBox();
    const admin = await box.token("ops", "admin");
    const reader = await box.token("handheld-9", "permits:read");
    const server = await box.serve(tls ? [] : ["--http"]);
    const get = (path: string, token: string) =>
      fetch(`${server.url}${path}`, {
        headers: { authorization: `Bearer ${token}` },
        tls: { rejectUnauthorized: false },
      });
    expect(
      (await get("/api/v1/attendants/verdict?registration_number=AUD123&zone=1002", reader)).status,
    ).toBe(200);
    const checks = await get("/api/v1/attendants/checks?registration_number=aud-123", reader);
    expect(checks.status).toBe(200);
    expect(((await checks.json()) as { data: unknown[] }).data.length).toBe(1);
    // Records are written about once a second.
    let reads: { by: string; credential: string; query: string; results: number }[] = [];
    for (let i = 0; i < 40 && reads.length === 0; i++) {
      await Bun.sleep(100);
      const audit = await get("/api/v1/lookups?registration_number=AUD123", admin);
      reads = ((await audit.json()) as { data: typeof reads }).data.filter((r) => r.by === "checks");
    }
    expect(reads).toEqual([
      expect.objectContaining({ by: "checks", credential: "token:handheld-9", query: "AUD123", results: 1 }),
    ]);
    const again = await get("/api/v1/attendants/checks?registration_number=AUD123", reader);
    expect(((await again.json()) as { data: unknown[] }).data.length).toBe(1);
    expect(await server.stop("SIGTERM")).toBe(0);
  }, 30_000);
});
