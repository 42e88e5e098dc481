/** `parkd doctor --central` on the built binary against a real PostgreSQL: the office link and clock skew. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { boxesForFile } from "../support/binary.ts";
import { type PgServer, postgresAvailable, startPostgres } from "../support/postgres.ts";

// `available` throws under CI=true when PostgreSQL is missing: only a laptop without it skips.
const available = postgresAvailable();
const newBox = boxesForFile();
let pg: PgServer;

beforeAll(async () => {
  if (!available) return;
  pg = await startPostgres();
}, 60_000);

afterAll(async () => {
  await pg?.destroy();
}, 30_000);

interface Report {
  findings: { check: string; level: string; summary: string; fix?: string }[];
}
const find = (stdout: string, check: string) =>
  (JSON.parse(stdout) as Report).findings.find((f) => f.check === check)!;

describe.skipIf(!available)("doctor and the office", () => {
  test("an office without parkd's schema, a wrong password, then a working link with the clock compared", async () => {
    const box = newBox();
    await box.migrate();
    const args = ["doctor", "--json", "--http", "--port", "0", "--central", pg.url, "--site", "north"];
    const env = { PARKD_CENTRAL_PASSWORD: pg.password };

    const bare = await box.run(args, { env });
    expect(bare.code).toBe(1);
    expect(find(bare.stdout, "office link")).toMatchObject({ level: "fail" });
    expect(find(bare.stdout, "office link").summary).toContain("parkd central init");
    expect(find(bare.stdout, "clock").summary).toMatch(/^\d+\.\d s (ahead of|behind) the office/);

    const wrong = await box.run(args, { env: { PARKD_CENTRAL_PASSWORD: "not-it" } });
    expect(wrong.code).toBe(1);
    expect(find(wrong.stdout, "office link").fix).toContain("the password");
    expect(wrong.stdout).not.toContain(pg.password);

    expect((await box.run(["central", "init", pg.url], { env })).code).toBe(0);
    const good = await box.run(args, { env });
    expect(find(good.stdout, "office link")).toMatchObject({ level: "ok" });
    expect(find(good.stdout, "office link").summary).toContain("this box last pushed never");
    expect(find(good.stdout, "clock").level).toBe("ok"); // same machine: well under 2 s
    expect(good.code).toBe(0);
  }, 60_000);
});
