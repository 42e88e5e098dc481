/** `parkd doctor` on the built binary, as a technician runs it on a box. */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { boxesForFile, freePort } from "../support/binary.ts";

const newBox = boxesForFile();

interface Report {
  ok: boolean;
  fixed: { repair: { kind: string; path: string; mode: number }; error?: string }[];
  findings: { check: string; level: string; summary: string; fix?: string }[];
}

const finding = (r: Report, check: string) => r.findings.filter((f) => f.check === check);

describe("parkd doctor", () => {
  test("a healthy serving box: nothing wrong, the port is this parkd's, the certificate covers the box", async () => {
    const box = newBox();
    await box.token("terminal-1", "tickets:write");
    const server = await box.serve([]);
    const r = await box.run(["doctor", "--json", "--host", "127.0.0.1", "--port", String(server.port)]);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.findings.filter((f) => f.level === "fail")).toEqual([]);
    expect(r.code).toBe(0);
    expect(report.ok).toBe(true);
    expect(finding(report, "port")[0]!.summary).toBe(
      `127.0.0.1:${server.port} is served by the parkd running on this data folder`,
    );
    expect(finding(report, "store integrity")[0]!.level).toBe("ok");
    expect(finding(report, "schema version")[0]!.level).toBe("ok");
    expect(finding(report, "certificate")[0]!.summary).toMatch(/valid for \d+ more days/);
    expect(finding(report, "certificate names")[0]!.level).toBe("ok");
    expect(finding(report, "terminals")[0]!.summary).toContain("token:terminal-1: never");
    // The same in words.
    const text = await box.run(["doctor", "--host", "127.0.0.1", "--port", String(server.port)]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("nothing wrong found");
    expect(await server.stop()).toBe(0);
  }, 30_000);

  test("problems: open modes, a port taken by another program, a silent terminal; --fix mends only the modes", async () => {
    const box = newBox();
    mkdirSync(box.dataDir, { mode: 0o700 });
    // Release 0.1.0's store: its terminal last sent an event when the fixture was made, long ago.
    copyFileSync(join(import.meta.dir, "../fixtures/store-0.1.0/parkd.db"), join(box.dataDir, "parkd.db"));
    const store = join(box.dataDir, "parkd.db");
    chmodSync(store, 0o644);
    chmodSync(box.dataDir, 0o755);
    const before = readFileSync(store);
    const port = await freePort();
    const squatter = Bun.listen({ hostname: "127.0.0.1", port, socket: { data() {} } });
    try {
      const args = [
        "doctor",
        "--json",
        "--http",
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
        "--silent-minutes",
        "1",
      ];
      const r = await box.run(args);
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout) as Report;
      expect(report.ok).toBe(false);
      const folder = finding(report, "data folder");
      expect(folder.map((f) => f.level)).toEqual(["fail", "fail"]);
      expect(folder[1]!.fix).toBe(`chmod 0600 ${store} (parkd doctor --fix does it)`);
      expect(finding(report, "port")[0]).toMatchObject({
        level: "fail",
        summary: `127.0.0.1:${port} is in use by another program`,
      });
      expect(finding(report, "port")[0]!.fix).toContain(`ss -ltnp 'sport = :${port}'`);
      expect(finding(report, "schema version")[0]!.summary).toMatch(
        /^schema 3; this binary upgrades it to \d+/,
      );
      expect(finding(report, "terminals")[0]).toMatchObject({ level: "warn" });
      expect(finding(report, "terminals")[0]!.summary).toContain("silent for over 1 min: token:terminal-1");
      // Looking changed nothing: not the store, not its mode, no migration.
      expect(readFileSync(store).equals(before)).toBe(true);
      expect(statSync(store).mode & 0o777).toBe(0o644);
      expect(existsSync(join(box.dataDir, "backups"))).toBe(false);

      const fixed = await box.run([...args, "--fix"]);
      expect(fixed.code).toBe(1); // the port is still taken: --fix does not stop programs
      const after = JSON.parse(fixed.stdout) as Report;
      expect(after.fixed.map((f) => [f.repair.path, f.repair.mode])).toEqual([
        [box.dataDir, 0o700],
        [store, 0o600],
      ]);
      expect(finding(after, "data folder")[0]!.level).toBe("ok");
      expect(statSync(store).mode & 0o777).toBe(0o600);
      expect(statSync(box.dataDir).mode & 0o777).toBe(0o700);
      expect(readFileSync(store).equals(before)).toBe(true);
    } finally {
      squatter.stop(true);
    }
  }, 30_000);

  test("a store file its user cannot write (0400) is named, and --fix makes it writable", async () => {
    const box = newBox();
    expect((await box.run(["migrate"])).code).toBe(0);
    const store = join(box.dataDir, "parkd.db");
    chmodSync(store, 0o400);
    const args = ["doctor", "--json", "--http", "--host", "127.0.0.1", "--port", String(await freePort())];
    const r = await box.run(args);
    expect(r.code).toBe(1);
    const folder = finding(JSON.parse(r.stdout) as Report, "data folder");
    expect(folder).toEqual([
      expect.objectContaining({
        level: "fail",
        summary: expect.stringContaining(`${store} is read-only for`),
        fix: `chmod 0600 ${store} (parkd doctor --fix does it)`,
      }),
    ]);
    expect(finding(JSON.parse(r.stdout) as Report, "mount")[0]!.level).toBe("ok");
    await box.run([...args, "--fix"]);
    expect(statSync(store).mode & 0o777).toBe(0o600);
  }, 30_000);

  test("reads the service's settings file as the unit does; the shell's settings and flags win", async () => {
    const box = newBox();
    expect((await box.run(["migrate"])).code).toBe(0);
    const [filePort, flagPort] = [await freePort(), await freePort()];
    writeFileSync(
      join(box.dir, "parkd.env"),
      `# the site's settings\nPARKD_HTTP=true\nPARKD_HOST="127.0.0.1"\nPARKD_PORT=${filePort}\n#PARKD_CENTRAL=postgres://x@y/z\n`,
    );
    const read = JSON.parse((await box.run(["doctor", "--json"])).stdout) as Report;
    expect(finding(read, "settings")[0]!.summary).toContain("PARKD_HTTP, PARKD_HOST, PARKD_PORT");
    expect(finding(read, "port")[0]!.summary).toContain(`127.0.0.1:${filePort}`);
    const flagged = JSON.parse(
      (await box.run(["doctor", "--json", "--port", String(flagPort)])).stdout,
    ) as Report;
    expect(finding(flagged, "port")[0]!.summary).toContain(`127.0.0.1:${flagPort}`);
    const none = JSON.parse(
      (await box.run(["doctor", "--json", "--env-file", join(box.dir, "nope.env")])).stdout,
    ) as Report;
    expect(finding(none, "settings")[0]!.level).toBe("info");
  }, 30_000);

  test("a missing data folder, then a store from a newer binary", async () => {
    const box = newBox();
    const missing = await box.run(["doctor", "--http", "--port", "0"]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(`FAIL  data folder`);
    expect(missing.stdout).toContain(`${box.dataDir} does not exist`);
    const fixed = await box.run(["doctor", "--http", "--port", "0", "--fix"]);
    expect(fixed.stdout).toContain(`fixed made ${box.dataDir}`);
    expect(statSync(box.dataDir).mode & 0o777).toBe(0o700);
    expect(fixed.stdout).toContain(`no store in ${box.dataDir} yet`);

    await box.migrate();
    const db = new Database(join(box.dataDir, "parkd.db"));
    db.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('later', 99999999999999)");
    db.close(false);
    const newer = await box.run(["doctor", "--json", "--http", "--port", "0"]);
    expect(newer.code).toBe(1);
    expect(finding(JSON.parse(newer.stdout) as Report, "schema version")[0]).toMatchObject({ level: "fail" });
  }, 30_000);
});
