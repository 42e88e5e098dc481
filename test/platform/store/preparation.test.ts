import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "../../../src/platform/store/db.ts";
import { acquireServeLock } from "../../../src/platform/store/lock.ts";
import { STARTING_FILE, startingStep } from "../../../src/platform/store/preparation.ts";
import { backupBeforeUpgrade } from "../../../src/platform/store/upgrade.ts";
import { tempDirs } from "../../support/temp.ts";

const scratch = tempDirs("parkd-preparation-");
const step = (pid: number) =>
  JSON.stringify({ step: 1, of: 2, what: "copying", progress: null, since: 0, started: 0, pid });

describe("what other commands read of a serve preparing the store", () => {
  test("a step file counts only while a serve holds the folder's lock, whatever its pid", () => {
    const dir = scratch();
    // Left by a serve that was killed; its pid is now another process's (pid 1 in a container).
    writeFileSync(join(dir, STARTING_FILE), step(1));
    expect(startingStep(dir)).toBeNull();
    const lock = acquireServeLock(dir);
    try {
      expect(startingStep(dir)).toMatchObject({ step: 1, of: 2, pid: 1 });
      // A pid that is gone is no serve either.
      writeFileSync(join(dir, STARTING_FILE), step(2 ** 22 + 12345));
      expect(startingStep(dir)).toBeNull();
    } finally {
      lock.release();
    }
  });
});

describe("copies a killed upgrade left behind", () => {
  test("are removed by the next copy; a living process's are left alone", () => {
    const dir = scratch();
    const store = openStore(dir);
    mkdirSync(join(dir, "backups"), { recursive: true });
    const dead = join(dir, "backups", ".parkd-before-schema-14-from-3-20261207T120000Z.db.partial-4194303");
    const deadJournal = `${dead}-journal`;
    const living = join(dir, "backups", `.parkd-before-schema-14-from-3-20261207T120000Z.db.partial-1`);
    for (const f of [dead, deadJournal, living]) writeFileSync(f, "x");
    backupBeforeUpgrade(store.sqlite, store.path, dir, 3, 4);
    store.close();
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(deadJournal)).toBe(false);
    expect(existsSync(living)).toBe(true);
  });
});
