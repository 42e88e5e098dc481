import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SQL } from "bun";
import { CENTRAL_SCHEMA_VERSION } from "../../src/modules/sync/office/schema.ts";
import { boxesForFile } from "../support/binary.ts";
import { type PgServer, postgresAvailable, startPostgres } from "../support/postgres.ts";
import { eventually, officeSql } from "../support/sync.ts";

/** `parkd central init` and `parkd serve --central` on the built binary, against a real server. */

const available = postgresAvailable();
const newBox = boxesForFile();
let pg: PgServer;
let office: SQL;

beforeAll(async () => {
  if (!available) return;
  pg = await startPostgres();
  office = officeSql(pg);
}, 60_000);

afterAll(async () => {
  await office?.close({ timeout: 1 }).catch(() => {});
  await pg?.destroy();
}, 30_000);

const json = (token: string) => ({ "Content-Type": "application/json", Authorization: `Bearer ${token}` });

describe.skipIf(!available)("the office link on the built binary", () => {
  test("central init refuses a password on the command line, creates the schema, and runs again harmlessly", async () => {
    const box = newBox();
    const inUrl = await box.run(["central", "init", pg.urlWithPassword]);
    expect(inUrl.code).toBe(2);
    expect(inUrl.stderr).toContain("must not carry a password");
    expect(inUrl.stderr).not.toContain(pg.password);

    const wrong = await box.run(["central", "init", pg.url], { env: { PARKD_CENTRAL_PASSWORD: "wrong" } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("central init against");

    const first = await box.run(["central", "init", pg.url], {
      env: { PARKD_CENTRAL_PASSWORD: pg.password },
    });
    expect(first.stderr).toContain(`version 0 -> ${CENTRAL_SCHEMA_VERSION}`);
    expect(first.code).toBe(0);
    const pwFile = join(box.dir, "office-password");
    writeFileSync(pwFile, `${pg.password}\n`);
    const again = await box.run(["central", "init", pg.url, "--central-password-file", pwFile]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("up to date");
  }, 60_000);

  test("serve --central pushes what the terminals send and reports the lag on /metrics", async () => {
    await office.unsafe("SELECT 1");
    const box = newBox();
    const terminal = await box.token("terminal-1", "tickets:write");
    const admin = await box.token("office", "admin");
    // The site's role, as docs/central.md sets a box up: a random password written to a file.
    const pwFile = join(box.dir, "site-password");
    const added = await box.run(["central", "add-site", "e2e-site", pg.url, "--site-password-file", pwFile], {
      env: { PARKD_CENTRAL_PASSWORD: pg.password },
    });
    expect(added.stderr).toContain("created role parkd_site_e2e-site for site e2e-site");
    expect(added.code).toBe(0);
    const siteUrl = pg.url.replace("parkd_office@", "parkd_site_e2e-site@");
    // The box's lines: TLS required in so many words, and the password file where the box keeps it.
    expect(added.stdout).toBe(
      `PARKD_CENTRAL=${siteUrl}?sslmode=require\nPARKD_SITE=e2e-site\nPARKD_CENTRAL_PASSWORD_FILE=/etc/parkd/central-password\n`,
    );
    expect(added.stderr).toContain(`copy it to the box as /etc/parkd/central-password`);
    // A failed add-site leaves no password file behind for a role it did not make.
    const lost = join(box.dir, "never-made.pw");
    const refused = await box.run(["central", "add-site", "e2e-lost", pg.url, "--site-password-file", lost], {
      env: { PARKD_CENTRAL_PASSWORD: "not-the-owners" },
    });
    expect(refused.code).toBe(1);
    expect(existsSync(lost)).toBe(false);
    expect(statSync(pwFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(pwFile, "utf8")).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
    // Again with the same file: the password is read from it, and the role keeps it.
    const again = await box.run(["central", "add-site", "e2e-site", pg.url, "--site-password-file", pwFile], {
      env: { PARKD_CENTRAL_PASSWORD: pg.password },
    });
    expect(again.stderr).toContain("set the password of role parkd_site_e2e-site");
    const bad = await box.run(["serve", "--http", "--central", siteUrl]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--site");

    await office`INSERT INTO parkd.permits (plate, zone, start_at, note)
      VALUES ('OFFICE 1', 4321, now() - interval '1 hour', 'issued at the office')`;
    const handheld = await box.token("handheld-1", "permits:read");
    const server = await box.serve(
      ["--http", "--central-password-file", pwFile, "--central-push-interval", "2"],
      {
        env: { PARKD_CENTRAL: siteUrl, PARKD_SITE: "e2e-site" },
      },
    );
    for (let i = 0; i < 20; i++) {
      const r = await fetch(`${server.url}/api/v1/actions/tickets`, {
        method: "POST",
        headers: json(terminal),
        body: JSON.stringify({
          eventType: "TicketCreated",
          ticketId: `e2e-${i}`,
          zoneCode: "1234",
          parkingLotId: null,
          startDate: "2026-06-15T10:00:00+02:00",
          endDate: "2026-06-15T12:00:00+02:00",
          licenseNumber: `E2E${i}`,
          ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
        }),
      });
      expect(r.status).toBe(200);
    }
    await eventually(async () => {
      const [row] = await office`SELECT count(*)::int AS n FROM parkd.events WHERE site = 'e2e-site'`;
      return row.n === 20;
    });
    // The first pull runs at start: the office's permit is served beside the box's own.
    await eventually(async () => {
      const r = await fetch(`${server.url}/api/v1/tickets/zone/4321`, { headers: json(handheld) });
      return JSON.stringify((await r.json()).data) === '["OFFICE 1"]';
    });
    const ready = await (await fetch(`${server.url}/readyz`)).json();
    expect(ready.sync).toMatchObject({ site: "e2e-site", reachable: true, central_permits: 1 });
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: json(admin) })).text();
    expect(metrics).toContain('parkd_sync_pending_events{site="e2e-site"} 0');
    expect(metrics).toMatch(/parkd_sync_last_push_timestamp_seconds\{site="e2e-site"\} [1-9]/);
    expect(metrics).not.toContain(pg.password);
    // The sync's series pass Prometheus' own linter, where it is installed (always under CI).
    const promtool = Bun.which("promtool");
    if (promtool || process.env.CI === "true") {
      const check = Bun.spawnSync([promtool ?? "promtool", "check", "metrics"], {
        stdin: Buffer.from(metrics),
      });
      expect(check.stdout.toString() + check.stderr.toString()).toBe("");
      expect(check.exitCode).toBe(0);
    }
    expect(server.stderr()).not.toContain(pg.password);
    expect(server.stderr()).not.toContain(readFileSync(pwFile, "utf8").trim());
    // The clocks agree: said as a figure, and no problem listed.
    expect(Math.abs(ready.sync.clock_skew_seconds)).toBeLessThan(2);
    expect(ready.problems ?? []).toEqual([]);
    expect(await server.stop("SIGTERM")).toBe(0);

    // The box's clock 5 minutes ahead (the service's clock moved, as a wrong system clock moves
    // it): the log says so once, /readyz lists it with its fix, and lookups still answer.
    const ahead = await box.serve(
      ["--http", "--central-password-file", pwFile, "--central-push-interval", "2", "--clock-shift", "300"],
      { env: { PARKD_CENTRAL: siteUrl, PARKD_SITE: "e2e-site" } },
    );
    await eventually(async () => {
      const r = await (await fetch(`${ahead.url}/readyz`)).json();
      return (r.problems ?? []).some((p: { condition: string }) => p.condition === "office-clock-skew");
    });
    const skewed = await (await fetch(`${ahead.url}/readyz`)).json();
    expect(skewed.sync.clock_skew_seconds).toBeGreaterThan(298);
    expect(skewed.sync.clock_skew_seconds).toBeLessThan(302);
    const listed = skewed.problems.find((p: { condition: string }) => p.condition === "office-clock-skew");
    expect(listed.summary).toMatch(/^this box's clock is 30\d\.\d s ahead of the office's$/);
    expect(listed.fix).toContain("timedatectl set-ntp true");
    expect(ahead.stderr()).toMatch(
      /this box's clock is 30\d\.\d s ahead of the office's: tickets and permits look active/,
    );
    expect(await ahead.stop("SIGTERM")).toBe(0);

    // The same role given to a box of another site: refused, and /readyz says why.
    const other = newBox();
    const wrong = await other.serve(["--http", "--central-password-file", pwFile], {
      env: { PARKD_CENTRAL: siteUrl, PARKD_SITE: "e2e-other" },
    });
    await eventually(async () => {
      const r = await (await fetch(`${wrong.url}/readyz`)).json();
      return String(r.sync?.last_error).includes("this box runs with --site e2e-other");
    });
    expect(await wrong.stop("SIGTERM")).toBe(0);
  }, 60_000);
});
