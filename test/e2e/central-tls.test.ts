/**
 * The office link's encryption on the built binary, against a real PostgreSQL with ssl = on (a
 * certificate made in the test's folder): a box whose URL names no sslmode is on TLS, as
 * pg_stat_ssl shows it; sslmode=disable goes plaintext and says so at start, on /readyz and in
 * doctor; against a server without TLS the default refuses to go plaintext.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SQL } from "bun";
import { migrateCentral } from "../../src/modules/sync/office/schema.ts";
import { boxesForFile } from "../support/binary.ts";
import { type PgServer, postgresAvailable, startPostgres } from "../support/postgres.ts";
import { enrolSite, eventually, officeSql, sitePasswordFor } from "../support/sync.ts";

const available = postgresAvailable();
const newBox = boxesForFile();
let pg: PgServer;
let office: SQL;

beforeAll(async () => {
  if (!available) return;
  pg = await startPostgres(); // ssl = on
  office = officeSql(pg);
  await migrateCentral(office);
}, 60_000);

afterAll(async () => {
  await office?.close({ timeout: 1 }).catch(() => {});
  await pg?.destroy();
}, 30_000);

/** Whether the site role's connections to the office are TLS, as the server itself reports them. */
async function sslOf(site: string): Promise<boolean[]> {
  const rows = await office`SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
    WHERE a.usename = ${`parkd_site_${site}`}`;
  return rows.map((r: { ssl: boolean }) => r.ssl);
}

async function boxOf(site: string, url: string) {
  await enrolSite(pg, site);
  const box = newBox();
  const pw = join(box.dir, "central-password");
  writeFileSync(pw, `${sitePasswordFor(site)}\n`, { mode: 0o600 });
  const env = { PARKD_CENTRAL: url, PARKD_SITE: site, PARKD_CENTRAL_PASSWORD_FILE: pw };
  return { box, env };
}

const siteUrl = (site: string, server = pg) => server.url.replace(/\/\/[^@]+@/, `//parkd_site_${site}@`);

describe.skipIf(!available)("the office link's encryption", () => {
  test("a box whose URL names no sslmode syncs over TLS; /readyz lists no problem", async () => {
    const { box, env } = await boxOf("tls-default", siteUrl("tls-default"));
    expect(env.PARKD_CENTRAL).not.toContain("sslmode");
    const server = await box.serve(["--http"], { env });
    await eventually(
      async () => (await (await fetch(`${server.url}/readyz`)).json()).sync?.reachable === true,
    );
    const ready = await (await fetch(`${server.url}/readyz`)).json();
    expect(ready.sync.encrypted).toBe(true);
    expect(ready.problems).toBeUndefined();
    const ssl = await sslOf("tls-default");
    expect(ssl.length).toBeGreaterThan(0);
    expect(ssl.every(Boolean)).toBe(true);
    expect(server.stderr()).not.toContain("not encrypted");
    expect(await server.stop("SIGTERM")).toBe(0);
  }, 60_000);

  test("sslmode=disable: plaintext, a warning at every start, on /readyz and from doctor", async () => {
    const { box, env } = await boxOf("tls-off", `${siteUrl("tls-off")}?sslmode=disable`);
    for (let start = 0; start < 2; start++) {
      const server = await box.serve(["--http"], { env });
      await eventually(
        async () => (await (await fetch(`${server.url}/readyz`)).json()).sync?.reachable === true,
      );
      const ready = await (await fetch(`${server.url}/readyz`)).json();
      expect(ready.sync.encrypted).toBe(false);
      expect(ready.problems).toEqual([
        expect.objectContaining({ condition: "office-plaintext", fix: expect.stringContaining("ssl = on") }),
      ]);
      const warning = server
        .stderr()
        .split("\n")
        .filter((l) => l.includes("not encrypted"))
        .map((l) => JSON.parse(l));
      expect(warning).toEqual([expect.objectContaining({ level: "warning" })]);
      const ssl = await sslOf("tls-off");
      expect(ssl.length).toBeGreaterThan(0);
      expect(ssl.some(Boolean)).toBe(false);
      expect(await server.stop("SIGTERM")).toBe(0);
    }
    const doctor = await box.run(["doctor", "--json", "--http", "--port", "0"], { env });
    const findings = JSON.parse(doctor.stdout).findings as { condition?: string; level: string }[];
    expect(findings.filter((f) => f.condition === "office-plaintext")).toEqual([
      expect.objectContaining({ level: "warn" }),
    ]);
  }, 90_000);

  test("against an office without TLS, the default refuses to go plaintext", async () => {
    const bare = await startPostgres({ ssl: false });
    try {
      const owner = officeSql(bare);
      await migrateCentral(owner);
      await owner.close({ timeout: 1 });
      await enrolSite(bare, "tls-none");
      const box = newBox();
      const server = await box.serve(["--http"], {
        env: {
          PARKD_CENTRAL: siteUrl("tls-none", bare),
          PARKD_SITE: "tls-none",
          PARKD_CENTRAL_PASSWORD: sitePasswordFor("tls-none"),
        },
      });
      await eventually(async () => {
        const r = await (await fetch(`${server.url}/readyz`)).json();
        return r.sync?.errors.push > 0 && r.sync.reachable === false;
      });
      const ready = await (await fetch(`${server.url}/readyz`)).json();
      expect(ready.problems.map((p: { condition: string }) => p.condition)).toEqual(["office-unreachable"]);
      expect(await server.stop("SIGTERM")).toBe(0);
    } finally {
      await bare.destroy();
    }
  }, 90_000);
});
