import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ParkingLot } from "../../../src/domain/lots/lot.ts";
import { openMemoryStore, openStore } from "../../../src/platform/store/db.ts";
import { cityLot } from "../../support/lots.ts";

describe("lot ids on tickets", () => {
  test("ids of stored lots are known, others not, and lots added later are seen", () => {
    const store = openMemoryStore();
    const { sqlite } = store;
    const add = (id: number) =>
      sqlite.run(
        `INSERT INTO parking_lots (id, name, zone_number, parking_lot_fee, variable_fees, parking_lot_open,
           parking_lot_location, created_at, updated_at, updated_by)
         VALUES (?, 'Lot', 1, '[]', '[]', '[]', '[]', 0, 0, 'test')`,
        [id],
      );
    add(12);
    const known = (id: number) => store.lots.exists(id);
    expect(known(12)).toBe(true);
    expect(known(13)).toBe(false);
    // The lookup is a query, not a snapshot.
    add(13);
    expect(known(13)).toBe(true);
  });
});

describe("lot names for ticket notes", () => {
  test("kept once read, forgotten on the owner's writes, and another process's rename is seen", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parkd-lots-"));
    try {
      const store = openStore(dir);
      // Only the name matters here; the fees are stored as given.
      const lot = { ...cityLot(), id: 7 } as unknown as ParkingLot;
      expect(store.lots.nameOf(7)).toBeNull();
      store.lots.insert(lot, true, 1, "test");
      expect(store.lots.nameOf(7)).toBe("Centrum P-hus");
      store.lots.update({ ...lot, name: "Torget" }, 2, "test");
      expect(store.lots.nameOf(7)).toBe("Torget");
      // A write rolled back: the name read inside the transaction is not kept.
      expect(() =>
        store.transaction(() => {
          store.lots.update({ ...lot, name: "Rolled back" }, 3, "test");
          expect(store.lots.nameOf(7)).toBe("Rolled back");
          throw new Error("rolled back");
        })(),
      ).toThrow("rolled back");
      expect(store.lots.nameOf(7)).toBe("Torget");
      // Another process (a CLI import) renames it: seen within the version check's 100 ms.
      const other = new Database(join(dir, "parkd.db"));
      other.run("PRAGMA busy_timeout = 5000");
      other.run("UPDATE parking_lots SET name = 'Hamnen' WHERE id = 7");
      const written = performance.now();
      while (store.lots.nameOf(7) !== "Hamnen" && performance.now() - written < 2_000) await Bun.sleep(10);
      expect(store.lots.nameOf(7)).toBe("Hamnen");
      expect(performance.now() - written).toBeLessThan(1_000);
      other.run("DELETE FROM parking_lots WHERE id = 7");
      other.close();
      await Bun.sleep(150);
      expect(store.lots.nameOf(7)).toBeNull();
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
