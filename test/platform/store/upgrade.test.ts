import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import type { MigrationMeta } from "drizzle-orm/migrator";
import { restoreStore } from "../../../src/platform/store/backup.ts";
import { type CopyCheckResult, checkCopiesAside } from "../../../src/platform/store/copy-check.ts";
import { openStore, SCHEMA_VERSION } from "../../../src/platform/store/db.ts";
import { DataFolderError } from "../../../src/platform/store/lock.ts";
import { applyMigrations, MIGRATIONS } from "../../../src/platform/store/migrations.ts";
import {
  backupBeforeUpgrade,
  keepCheckedCopy,
  removeCopiesOfUpgradesNotMade,
  StoreTooNewError,
  schemaState,
  UPGRADE_BACKUPS_KEPT,
  uncheckedCopies,
  upgradeBackups,
  upgradeSchema,
  upgradeSpace,
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

describe("the space an upgrade needs", () => {
  const migration = (...sql: string[]) => ({ sql, folderMillis: 1, hash: "h", bps: true }) as MigrationMeta;
  test.each([
    {
      what: "a table rebuilt",
      sql: ["INSERT INTO `__new_permit_lookups`(`id`) SELECT `id` FROM `permit_lookups`;"],
    },
    { what: "an index made", sql: ["CREATE INDEX `permit_lookups_at` ON `permit_lookups` (`at`);"] },
    { what: "a unique index made", sql: ["CREATE UNIQUE INDEX `x` ON `t` (`a`);"] },
  ])("counts the copy and a rewrite of 1.5 times the store for $what", ({ sql }) => {
    const s = upgradeSpace(100 * 1048576, [migration("CREATE TABLE `a` (`id` integer);"), migration(...sql)]);
    expect(s).toEqual({ copy: 100 * 1048576, rewrite: 150 * 1048576, total: 266 * 1048576 });
  });
  test("a migration that only adds a table or a column writes next to nothing beyond the copy", () => {
    const s = upgradeSpace(100 * 1048576, [
      migration("CREATE TABLE `a` (`id` integer);", "ALTER TABLE `b` ADD `c` text;"),
    ]);
    expect(s.rewrite).toBe(10 * 1048576);
  });
  test("every migration this build carries from the first release's schema rebuilds: counted as such", () => {
    expect(upgradeSpace(1000, MIGRATIONS.slice(3)).rewrite).toBe(1500);
  });
});

describe("an upgrade that runs out of disk", () => {
  test("the statement that failed is what is thrown, not the ROLLBACK SQLite had already made", () => {
    const sqlite = new Database(":memory:");
    // A failure that ends the transaction itself, as a full disk does: drizzle's ROLLBACK then fails too.
    const ending = {
      sql: ["CREATE TABLE a (x)", "COMMIT", "SELECT * FROM no_such_table"],
      folderMillis: 1,
      hash: "h",
      bps: true,
    } as MigrationMeta;
    expect(() => applyMigrations(drizzle({ client: sqlite }), [ending])).toThrow(
      /no_such_table|no such table/,
    );
    sqlite.close(false);
  });

  test("says so with the step, leaves the store as it was and keeps the copy", () => {
    const dir = scratch();
    const fixture = join(import.meta.dir, "../../fixtures/store-0.1.0/parkd.db");
    copyFileSync(fixture, join(dir, "parkd.db"));
    const before = readFileSync(join(dir, "parkd.db"));
    const sqlite = new Database(join(dir, "parkd.db"), { strict: true });
    // A store that may not grow: what a full disk does to the migration's transaction.
    const pages = (sqlite.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    sqlite.run(`PRAGMA max_page_count = ${pages}`);
    let error: unknown;
    try {
      upgradeSchema(sqlite, drizzle({ client: sqlite }), join(dir, "parkd.db"), dir);
    } catch (e) {
      error = e;
    }
    sqlite.close(false);
    expect(error).toBeInstanceOf(DataFolderError);
    const message = (error as Error).message;
    expect(message).toContain(
      `upgrading the store's schema from version 3 to ${SCHEMA_VERSION} failed: the disk holding ${dir} is full`,
    );
    expect(message).toContain("The store is as it was (the upgrade is one transaction) and its copy is at ");
    expect(message).toContain("free some space and start again");
    expect(message).not.toContain("ROLLBACK");
    expect(upgradeBackups(dir)).toHaveLength(1);
    const after = new Database(join(dir, "parkd.db"), { readonly: true });
    expect((after.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number }).n).toBe(3);
    after.close(false);
    expect(readFileSync(join(dir, "parkd.db")).length).toBe(before.length);
  });
});

/** The 0.1.0 fixture in a data folder of its own, opened as the preparation thread opens it. */
function oldStore(dir: string): Database {
  copyFileSync(join(import.meta.dir, "../../fixtures/store-0.1.0/parkd.db"), join(dir, "parkd.db"));
  return new Database(join(dir, "parkd.db"), { strict: true });
}

describe("the copy's check, left for after serve answers", () => {
  test("the upgrade writes the copy whole, unchecked; its check gives it its name", () => {
    const dir = scratch();
    const sqlite = oldStore(dir);
    const upgrade = upgradeSchema(sqlite, drizzle({ client: sqlite }), join(dir, "parkd.db"), dir, {
      checkCopyLater: true,
    })!;
    sqlite.close(false);
    expect(upgrade).toMatchObject({ from: 3, to: SCHEMA_VERSION, unchecked: true });
    // Not kept yet: the copy is there whole, under a name that says it is not checked.
    expect(upgradeBackups(dir)).toEqual([]);
    const [unchecked] = uncheckedCopies(dir);
    expect(unchecked).toBe(join(dir, "backups", `.${upgrade.backup.split("/").at(-1)}.unchecked`));
    const kept = keepCheckedCopy(unchecked!);
    expect(kept).toBe(upgrade.backup);
    expect(upgradeBackups(dir)).toEqual([upgrade.backup]);
    expect(uncheckedCopies(dir)).toEqual([]);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    const copy = new Database(kept, { readonly: true });
    expect((copy.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number }).n).toBe(3);
    copy.close(false);
  });

  test("a copy that fails its check is deleted and the error says why", () => {
    const dir = scratch();
    const sqlite = oldStore(dir);
    upgradeSchema(sqlite, drizzle({ client: sqlite }), join(dir, "parkd.db"), dir, { checkCopyLater: true });
    sqlite.close(false);
    const [unchecked] = uncheckedCopies(dir);
    // Damaged on the disk after it was written: a page of its records overwritten.
    const bytes = readFileSync(unchecked!);
    bytes.fill(0x5a, 4096 * 3, 4096 * 5);
    writeFileSync(unchecked!, bytes);
    expect(() => keepCheckedCopy(unchecked!)).toThrow();
    expect(existsSync(unchecked!)).toBe(false);
    expect(upgradeBackups(dir)).toEqual([]);
  });

  test("a failed upgrade leaves no unchecked copy behind, and says the store is as it was", () => {
    const dir = scratch();
    const sqlite = oldStore(dir);
    const pages = (sqlite.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    sqlite.run(`PRAGMA max_page_count = ${pages}`);
    let error: unknown;
    try {
      upgradeSchema(sqlite, drizzle({ client: sqlite }), join(dir, "parkd.db"), dir, {
        checkCopyLater: true,
      });
    } catch (e) {
      error = e;
    }
    sqlite.close(false);
    expect((error as Error).message).toContain(
      "The store is as it was (the upgrade is one transaction); free some space",
    );
    expect(readdirSync(join(dir, "backups"))).toEqual([]);
  });

  test("an unchecked copy of an upgrade that never committed goes with the next copy; one of an upgrade made stays", () => {
    const dir = scratch();
    const sqlite = oldStore(dir);
    mkdirSync(join(dir, "backups"));
    // From the store's own version (3): the upgrade it preceded was stopped. From 2: it was made.
    const notMade = join(dir, "backups", ".parkd-before-schema-9-from-3-20260101T000000Z.db.unchecked");
    const made = join(dir, "backups", ".parkd-before-schema-3-from-2-20251201T000000Z.db.unchecked");
    for (const f of [notMade, made]) writeFileSync(f, "x");
    upgradeSchema(sqlite, drizzle({ client: sqlite }), join(dir, "parkd.db"), dir, { checkCopyLater: true });
    sqlite.close(false);
    expect(existsSync(notMade)).toBe(false);
    expect(existsSync(made)).toBe(true);
    expect(uncheckedCopies(dir)).toHaveLength(2);
  });

  test("a copy that could not be checked (not shown damaged) is kept unchecked for the next try", () => {
    const dir = scratch();
    mkdirSync(join(dir, "backups"));
    // A folder where the file should be: the check cannot open it, which says nothing of damage.
    const odd = join(dir, "backups", ".parkd-before-schema-9-from-8-20260101T000000Z.db.unchecked");
    mkdirSync(odd);
    expect(() => keepCheckedCopy(odd)).toThrow();
    expect(existsSync(odd)).toBe(true);
  });

  test("a stop after the migrations committed keeps the copy: the store is no longer at its version", () => {
    const dir = scratch();
    const sqlite = oldStore(dir);
    upgradeSchema(sqlite, drizzle({ client: sqlite }), join(dir, "parkd.db"), dir, { checkCopyLater: true });
    sqlite.close(false);
    removeCopiesOfUpgradesNotMade(dir, 3);
    expect(uncheckedCopies(dir)).toHaveLength(1);
  });

  test("a restore checks and names an unchecked copy first: a restored store of the copy's version does not take it for an upgrade never made", () => {
    const dir = scratch();
    const sqlite = oldStore(dir);
    const upgrade = upgradeSchema(sqlite, drizzle({ client: sqlite }), join(dir, "parkd.db"), dir, {
      checkCopyLater: true,
    })!;
    sqlite.close(false);
    // serve stopped before its check; the technician restores a backup of schema 3, the copy's `from`.
    const backup = join(scratch(), "nightly.db");
    copyFileSync(join(import.meta.dir, "../../fixtures/store-0.1.0/parkd.db"), backup);
    const restored = restoreStore(dir, backup);
    expect(restored.copies).toEqual([{ kept: upgrade.backup }]);
    // serve's start on the restored store upgrades it again, from 3: the named copy stays.
    openStore(dir).close();
    expect(upgradeBackups(dir)).toContain(upgrade.backup);
    expect(uncheckedCopies(dir)).toEqual([]);
  });

  test("a restore stops, with nothing changed, at an unchecked copy it cannot check; a damaged one is deleted and said", () => {
    const dir = scratch();
    oldStore(dir).close();
    const before = readFileSync(join(dir, "parkd.db"));
    mkdirSync(join(dir, "backups"));
    const odd = join(dir, "backups", ".parkd-before-schema-9-from-8-20260101T000000Z.db.unchecked");
    mkdirSync(odd);
    const backup = join(scratch(), "nightly.db");
    copyFileSync(join(import.meta.dir, "../../fixtures/store-0.1.0/parkd.db"), backup);
    expect(() => restoreStore(dir, backup)).toThrow(/is not checked yet and could not be checked now/);
    expect(readFileSync(join(dir, "parkd.db")).equals(before)).toBe(true);
    rmSync(odd, { recursive: true });
    writeFileSync(odd, "not a store at all, but long enough to be read as one's first page ".repeat(80));
    expect(restoreStore(dir, backup).copies).toEqual([{ deleted: odd, why: expect.any(String) }]);
    expect(existsSync(odd)).toBe(false);
  });

  test("only files named as copies are taken for unchecked copies", () => {
    const dir = scratch();
    mkdirSync(join(dir, "backups"));
    for (const f of [".parkd-before-schema-mine.unchecked", ".parkd-before-schema-9-from-8-x.db.unchecked"])
      writeFileSync(join(dir, "backups", f), "x");
    expect(uncheckedCopies(dir)).toEqual([]);
  });

  test("checkCopiesAside checks each unchecked copy on its own thread and tells each result", async () => {
    const dir = scratch();
    const none = checkCopiesAside(dir, () => {
      throw new Error("nothing to check");
    });
    await none.done;
    const sqlite = oldStore(dir);
    const upgrade = upgradeSchema(sqlite, drizzle({ client: sqlite }), join(dir, "parkd.db"), dir, {
      checkCopyLater: true,
    })!;
    sqlite.close(false);
    // And one a serve stopped during its check left behind, damaged meanwhile.
    const left = join(dir, "backups", ".parkd-before-schema-9-from-8-20260101T000000Z.db.unchecked");
    writeFileSync(left, "not a store at all, but long enough to be read as one's first page ".repeat(80));
    const results: CopyCheckResult[] = [];
    await checkCopiesAside(dir, (r) => results.push(r)).done;
    expect(results).toHaveLength(2);
    expect(results).toContainEqual({ copy: expect.stringContaining(".unchecked"), kept: upgrade.backup });
    expect(results.find((r) => r.copy === left)).toMatchObject({ failed: expect.any(String) });
    expect(uncheckedCopies(dir)).toEqual([]);
    expect(upgradeBackups(dir)).toEqual([upgrade.backup]);
  });
});
