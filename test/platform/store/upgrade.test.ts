import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MigrationMeta } from "drizzle-orm/migrator";
import { openStore, SCHEMA_VERSION } from "../../../src/platform/store/db.ts";
import { MIGRATIONS } from "../../../src/platform/store/migrations.ts";
import {
  backupBeforeUpgrade,
  StoreTooNewError,
  schemaState,
  UPGRADE_BACKUPS_KEPT,
  upgradeBackups,
} from "../../../src/platform/store/upgrade.ts";
import { tempDirs } from "../../support/temp.ts";

const scratch = tempDirs("parkd-upgrade-");

const known = (...at: number[]) =>
  at.map((folderMillis) => ({ folderMillis, hash: String(folderMillis) }) as MigrationMeta);

function withRows(...at: number[]): Database {
  const db = new Database(":memory:");
  if (at.length) {
    db.run(
      "CREATE TABLE __drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)",
    );
    for (const a of at)
      db.query("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('h', ?)").run(a);
  }
  return db;
}

describe("schemaState", () => {
  test.each([
    { rows: [], knownAt: [1, 2, 3], applied: 0, pending: 3, unknown: 0, what: "a new store" },
    { rows: [1, 2], knownAt: [1, 2, 3], applied: 2, pending: 1, unknown: 0, what: "an older store" },
    { rows: [1, 2, 3], knownAt: [1, 2, 3], applied: 3, pending: 0, unknown: 0, what: "a current store" },
    { rows: [1, 2, 3, 4], knownAt: [1, 2, 3], applied: 4, pending: 0, unknown: 1, what: "a newer store" },
    {
      rows: [1, 5],
      knownAt: [1, 2, 3],
      applied: 2,
      pending: 0,
      unknown: 1,
      what: "another line of releases",
    },
  ])("$what", ({ rows, knownAt, applied, pending, unknown }) => {
    const s = schemaState(withRows(...rows), known(...knownAt));
    expect({ applied: s.applied, pending: s.pending.length, unknown: s.unknown }).toEqual({
      applied,
      pending,
      unknown,
    });
  });
});

describe("the copy before an upgrade", () => {
  test("is whole, private, named by versions and time; only the newest three are kept", () => {
    const dir = scratch();
    const store = openStore(dir);
    store.sqlite.run("INSERT INTO store_probe (id, checked_at) VALUES (1, 42)");
    const made: string[] = [];
    for (let i = 0; i < UPGRADE_BACKUPS_KEPT + 2; i++)
      made.push(backupBeforeUpgrade(store.sqlite, store.path, dir, 3, 4, Date.UTC(2026, 0, 1 + i)));
    store.close();
    expect(made[0]).toEndWith("backups/parkd-before-schema-4-from-3-20260101T000000Z.db");
    expect(upgradeBackups(dir)).toEqual(made.slice(-UPGRADE_BACKUPS_KEPT));
    const last = made.at(-1)!;
    expect(statSync(last).mode & 0o777).toBe(0o600);
    const copy = new Database(last, { readonly: true });
    expect(copy.query("SELECT checked_at AS c FROM store_probe").get()).toEqual({ c: 42 });
    copy.close(false);
    // No partial file is left behind.
    expect(readdirSync(join(dir, "backups")).filter((f) => f.startsWith("."))).toEqual([]);
  });

  test("other files in backups/ are never pruned", () => {
    const dir = scratch();
    const store = openStore(dir);
    for (let i = 0; i < UPGRADE_BACKUPS_KEPT + 1; i++)
      backupBeforeUpgrade(store.sqlite, store.path, dir, 1, 2, Date.UTC(2026, 0, 1 + i));
    writeFileSync(join(dir, "backups", "nightly.db"), "x");
    utimesSync(join(dir, "backups", "nightly.db"), 0, 0);
    backupBeforeUpgrade(store.sqlite, store.path, dir, 1, 2, Date.UTC(2027, 0, 1));
    store.close();
    expect(readdirSync(join(dir, "backups"))).toContain("nightly.db");
  });
});

describe("opening a store", () => {
  test("a new store is made without a copy; a store with an unknown migration is refused unchanged", () => {
    const dir = scratch();
    const store = openStore(dir);
    expect(store.upgrade).toBeNull();
    expect(upgradeBackups(dir)).toEqual([]);
    const last = MIGRATIONS.at(-1)!.folderMillis;
    store.sqlite
      .query("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('later', ?)")
      .run(last + 1);
    store.close();
    let error: unknown;
    try {
      openStore(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoreTooNewError);
    expect((error as Error).message).toContain(
      `schema version ${SCHEMA_VERSION + 1}, 1 migration(s) this binary does not know; this binary's schema version is ${SCHEMA_VERSION}`,
    );
    expect(upgradeBackups(dir)).toEqual([]);
  });
});
