import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commitRelaxed, openStore } from "../../../src/platform/store/db.ts";

describe("the store's connection", () => {
  const dir = mkdtempSync(join(tmpdir(), "parkd-store-"));
  const store = openStore(dir);
  const pragma = (name: string) => Object.values(store.sqlite.query(`PRAGMA ${name}`).get() as object)[0];

  test("WAL, synchronous=FULL, foreign keys on, a busy timeout", () => {
    expect(pragma("journal_mode")).toBe("wal");
    expect(pragma("synchronous")).toBe(2);
    expect(pragma("foreign_keys")).toBe(1);
    expect(pragma("busy_timeout")).toBeGreaterThan(0);
  });

  test("commitRelaxed commits, and leaves the connection at synchronous=FULL even when it fails", () => {
    commitRelaxed(store.sqlite, () =>
      store.sqlite.run("INSERT INTO store_probe (id, checked_at) VALUES (5, 1)"),
    );
    expect(store.sqlite.query("SELECT checked_at AS c FROM store_probe WHERE id = 5").get()).toEqual({
      c: 1,
    });
    expect(pragma("synchronous")).toBe(2);
    expect(() =>
      commitRelaxed(store.sqlite, () => {
        store.sqlite.run("UPDATE store_probe SET checked_at = 2 WHERE id = 5");
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(store.sqlite.query("SELECT checked_at AS c FROM store_probe WHERE id = 5").get()).toEqual({
      c: 1,
    });
    expect(pragma("synchronous")).toBe(2);
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
