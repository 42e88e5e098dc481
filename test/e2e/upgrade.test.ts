/**
 * Upgrades on the built binary: a store written by each release (test/fixtures/store-VERSION,
 * made by that release's binary with test/fixtures/make-upgrade-store.ts) is copied aside and
 * migrated on start, and everything in it still answers; a store a newer binary has migrated
 * is refused, unchanged, by every command that opens it.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { boxesForFile } from "../support/binary.ts";

const newBox = boxesForFile();
/** Every release's store kept as a fixture, oldest first. */
const RELEASES = ["0.1.0", "0.2.0", "0.3.0"] as const;
type Release = (typeof RELEASES)[number];
const fixtureDir = (release: Release) => join(import.meta.dir, `../fixtures/store-${release}`);
const fixtureOf = (release: Release) =>
  JSON.parse(readFileSync(join(fixtureDir(release), "store.json"), "utf8")) as {
    madeBy: string;
    tokens: { terminal: string; handheld: string; admin: string };
    user: { name: string; password: string };
  };
/** The schema version the release wrote, as its `parkd version` said it. */
const schemaOf = (release: Release) => Number(/schema (\d+)/.exec(fixtureOf(release).madeBy)![1]);

function boxWithOldStore(release: Release = "0.1.0") {
  const box = newBox();
  mkdirSync(box.dataDir, { mode: 0o700 });
  copyFileSync(join(fixtureDir(release), "parkd.db"), join(box.dataDir, "parkd.db"));
  return box;
}

function migrationsIn(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number }).n;
  } finally {
    db.close(false);
  }
}

const auth = (token: string) => ({ Authorization: `Bearer ${token}`, Accept: "application/json" });

describe.each(RELEASES)("upgrading a store written by release %s", (release) => {
  const fixture = fixtureOf(release);
  const from = schemaOf(release);
  test("serve copies the store aside, migrates it, and every record still answers", async () => {
    const box = boxWithOldStore(release);
    const version = await box.run(["version"]);
    const schema = Number(/schema (\d+)/.exec(version.stdout)![1]);
    expect(schema).toBeGreaterThan(from);

    const server = await box.serve([], {});
    // The copy is checked on a thread of its own once serve answers (upgrade.ts says why).
    expect(server.stderr()).toContain("the copy is checked now, beside serving, before it is kept at");
    for (let i = 0; i < 500 && !server.stderr().includes("is checked and kept at"); i++) await Bun.sleep(20);
    expect(server.stderr()).toContain(
      "the copy of the store taken before the upgrade is checked and kept at",
    );
    const backups = readdirSync(join(box.dataDir, "backups"));
    expect(backups).toHaveLength(1);
    expect(backups[0]).toMatch(
      new RegExp(`^parkd-before-schema-${schema}-from-${from}-\\d{8}T\\d{6}Z\\.db$`),
    );
    const backup = join(box.dataDir, "backups", backups[0]!);
    // Taken before the migration: the copy is the old schema, whole, readable by the service only.
    expect(migrationsIn(backup)).toBe(from);
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    expect(server.stderr()).toContain(`store schema upgraded from version ${from} to ${schema}`);
    expect(server.stderr()).toContain(backup);

    const tls = { rejectUnauthorized: false };
    const check = async (plate: string) => {
      const r = await fetch(`${server.url}/api/v1/attendants/check-tickets?registration_number=${plate}`, {
        headers: auth(fixture.tokens.handheld),
        tls,
      });
      expect(r.status).toBe(200);
      return (await r.json()) as { registration_number?: string; licenseNumber?: string }[];
    };
    expect(await check("ABC123")).toHaveLength(1);
    expect(await check("XYZ780")).toHaveLength(1); // moved to this plate by the release
    expect(await check("XYZ789")).toHaveLength(0);
    expect(await check("PERM01")).toHaveLength(1); // an operator's permit
    expect(await check("%C3%96ZB771")).toHaveLength(1);

    const lots = await fetch(`${server.url}/api/v1/parkings`, { tls });
    expect(((await lots.json()) as { data: { name: string }[] }).data.map((l) => l.name)).toEqual([
      "Centrum P-hus",
      "Hamnen",
    ]);

    // The old Basic user still sends events; the admin token still reads them back.
    const basic = Buffer.from(`${fixture.user.name}:${fixture.user.password}`).toString("base64");
    const sent = await fetch(`${server.url}/api/v1/actions/tickets`, {
      method: "POST",
      tls,
      headers: {
        Authorization: `Basic ${basic}`,
        "Content-Type": "application/json",
        Accept: "application/json",
      },
      body: JSON.stringify({ eventType: "TicketCanceled", ticketId: "4711" }),
    });
    expect(sent.status).toBe(200);
    expect(await check("ABC123")).toHaveLength(0);
    const ticket = await fetch(`${server.url}/api/v1/tickets/4711`, {
      headers: auth(fixture.tokens.admin),
      tls,
    });
    expect(ticket.status).toBe(200);
    expect(await server.stop()).toBe(0);

    // Started again, nothing is pending: no second copy.
    const again = await box.serve(["--http"]);
    expect(again.stderr()).not.toContain("schema upgraded");
    expect(await again.stop()).toBe(0);
    expect(readdirSync(join(box.dataDir, "backups"))).toHaveLength(1);
    expect(migrationsIn(join(box.dataDir, "parkd.db"))).toBe(schema);
  });

  test("migrate upgrades the same way and says where the copy is", async () => {
    const box = boxWithOldStore(release);
    const r = await box.run(["migrate"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `store schema upgraded from version ${from} to \\d+; the store as it was before is kept at .*backups/parkd-before-schema-`,
      ),
    );
    expect(readdirSync(join(box.dataDir, "backups"))).toHaveLength(1);
  });
});

/** A 0.1.0 store with months of lookup records: rebuilding their table and indexes takes seconds. */
function boxWithLongUpgrade(records: number) {
  const box = boxWithOldStore();
  const db = new Database(join(box.dataDir, "parkd.db"));
  const add = db.prepare(
    "INSERT INTO permit_lookups (at, credential, by, query, results) VALUES (?, 'token:h', 'registration_number', ?, 1)",
  );
  const from = Date.now() - 30 * 86_400_000;
  db.transaction(() => {
    for (let i = 0; i < records; i++) add.run(from + i * 1000, `P${i % 100_000}`);
  })();
  db.close(false);
  return box;
}

describe("a long upgrade", () => {
  test("stopped while it runs (SIGTERM): exits 0 saying so, the store as it was, nothing left behind", async () => {
    const box = boxWithLongUpgrade(1_500_000);
    const server = await box.serve(["--http"], { waitReady: false });
    while ((await fetch(`${server.url}/healthz`).catch(() => null))?.status !== 503) await Bun.sleep(20);
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(server.stderr()).toContain("SIGTERM: stopping while the store is prepared");
    expect(server.stderr()).toContain("stopped: nothing was changed");
    expect(migrationsIn(join(box.dataDir, "parkd.db"))).toBe(3);
    expect(existsSync(join(box.dataDir, "starting.json"))).toBe(false);
    const backups = existsSync(join(box.dataDir, "backups")) ? readdirSync(join(box.dataDir, "backups")) : [];
    expect(backups.filter((f) => f.includes(".partial-") || f.endsWith(".unchecked"))).toEqual([]);
    // Nothing says a serve is starting: the other commands run.
    expect((await box.run(["token", "list"])).stderr).not.toContain("preparing");
  }, 60_000);

  test("is never dark: the listener answers within 2 s with the step and Retry-After; the CLI and doctor say what serve is doing", async () => {
    const box = boxWithLongUpgrade(2_500_000);

    const started = Date.now();
    const server = await box.serve(["--http"], { waitReady: false });
    let first: Response | undefined;
    while (!first) {
      try {
        first = await fetch(`${server.url}/healthz`);
      } catch {
        await Bun.sleep(20);
      }
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    expect(first.status).toBe(503);
    expect(first.headers.get("retry-after")).toBe("5");
    const health = (await first.json()) as {
      status: string;
      starting: { step: number; of: number; what: string };
    };
    expect(health.status).toBe("starting");
    expect(health.starting.of).toBe(3);
    expect(health.starting.what).toContain("upgrading its schema from version 3 to");

    // Meanwhile: a lookup gets the problem, with Retry-After; the CLI and doctor say what is going on.
    const [lookup, tokens, doctor] = await Promise.all([
      fetch(`${server.url}/api/v1/attendants/check-tickets?registration_number=ABC123`, {
        headers: auth(fixtureOf("0.1.0").tokens.handheld),
      }),
      box.run(["token", "list"]),
      box.run(["doctor", "--http"]),
    ]);
    const stillStarting = (await fetch(`${server.url}/readyz`)).status === 503;
    expect(lookup.status).toBe(503);
    expect(lookup.headers.get("retry-after")).toBe("5");
    expect(lookup.headers.get("content-type")).toContain("application/problem+json");
    expect(((await lookup.json()) as { type: string; detail: string }).detail).toMatch(
      /^The box is starting: step \d of 3: /,
    );
    // Both asked while the store was prepared (it takes seconds more): each said so at once.
    expect(stillStarting).toBe(true);
    expect(tokens.code).toBe(1);
    expect(tokens.stderr).toMatch(
      /serve \(pid \d+\) is preparing the store in .* before it serves, step \d of 3: /,
    );
    expect(tokens.stderr).not.toContain("locked");
    expect(doctor.stdout + doctor.stderr).toMatch(
      /serve \(pid \d+\) is preparing the store before it serves: step \d of 3/,
    );
    expect(doctor.stdout + doctor.stderr).not.toContain("nothing wrong");

    const deadline = Date.now() + 60_000;
    while ((await fetch(`${server.url}/healthz`)).status !== 200) {
      expect(Date.now()).toBeLessThan(deadline);
      await Bun.sleep(100);
    }
    const log = server.stderr();
    expect(log).toContain("starting: the store needs 3 step(s) before serving;");
    expect(log).toContain("starting: step 1 of 3: copying the store aside before upgrading its schema");
    expect(log).toContain("starting: step 2 of 3: upgrading the store's schema from version 3 to");
    expect(log).toContain("store schema upgraded from version 3 to");
    const check = await fetch(`${server.url}/api/v1/attendants/check-tickets?registration_number=ABC123`, {
      headers: auth(fixtureOf("0.1.0").tokens.handheld),
    });
    expect(check.status).toBe(200);
    // Done: the folder says nothing of a start any more.
    expect(existsSync(join(box.dataDir, "starting.json"))).toBe(false);
    expect((await box.run(["token", "list"])).code).toBe(0);
    expect(await server.stop()).toBe(0);
  }, 120_000);
});

describe("a store from a newer binary", () => {
  test("is refused by serve, migrate and token create, and left as it was", async () => {
    const box = boxWithOldStore();
    expect((await box.run(["migrate"])).code).toBe(0);
    const store = join(box.dataDir, "parkd.db");
    const db = new Database(store);
    db.run("PRAGMA journal_mode = WAL");
    // What a later release's migration leaves behind: a row this binary has never heard of.
    db.run(
      "INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('a later release', (SELECT max(created_at) + 86400000 FROM __drizzle_migrations))",
    );
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    db.close(false);
    const before = readFileSync(store);
    const applied = migrationsIn(store);

    for (const args of [
      ["serve", "--http", "--port", "0"],
      ["migrate"],
      ["token", "create", "--name", "x", "--scope", "admin"],
    ]) {
      const r = await box.run(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`was upgraded by a newer parkd (schema version ${applied}`);
      expect(r.stderr).toContain("Downgrading is not supported");
      expect(r.stderr).toContain("parkd restore FILE");
      expect(r.stderr).toContain("Nothing was changed");
    }
    expect(readFileSync(store).equals(before)).toBe(true);
    expect(existsSync(join(box.dataDir, "backups"))).toBe(true); // the copy from the upgrade above only
    expect(readdirSync(join(box.dataDir, "backups"))).toHaveLength(1);
  });

  test("as a backup, restore refuses it even when it has as many migrations as this binary, and changes nothing", async () => {
    const box = newBox();
    await box.migrate();
    const store = join(box.dataDir, "parkd.db");
    const file = join(box.dir, "from-another-line.db");
    copyFileSync(store, file);
    const db = new Database(file);
    // The same count as this binary's, but the last one is a migration it has never heard of.
    db.run(
      "UPDATE __drizzle_migrations SET hash = 'a later release', created_at = created_at + 1 WHERE rowid = (SELECT max(rowid) FROM __drizzle_migrations)",
    );
    db.close(false);
    const before = readFileSync(store);
    const r = await box.run(["restore", file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("written by a newer parkd than this one");
    expect(r.stderr).toContain("nothing was changed");
    expect(readFileSync(store).equals(before)).toBe(true);
    expect(readdirSync(box.dataDir).filter((f) => f.includes("before-restore"))).toEqual([]);
  });
});
