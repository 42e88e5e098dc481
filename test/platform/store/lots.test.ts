import { describe, expect, test } from "bun:test";
import { openMemoryStore } from "../../../src/platform/store/db.ts";

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
