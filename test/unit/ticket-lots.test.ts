import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { lotLookup } from "../../src/tickets/service.ts";

describe("lotLookup (parking lots are another feature's table)", () => {
  test("without a parking_lots table every lot id is unknown", () => {
    const db = new Database(":memory:");
    const known = lotLookup(db);
    expect(known(1)).toBe(false);
  });

  test("with the table, ids present are known and others not", () => {
    const db = new Database(":memory:");
    db.run("CREATE TABLE parking_lots (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
    db.run("INSERT INTO parking_lots (id, name) VALUES (12, 'Centrum')");
    const known = lotLookup(db);
    expect(known(12)).toBe(true);
    expect(known(13)).toBe(false);
    // Lots added later are seen: the lookup is a query, not a snapshot.
    db.run("INSERT INTO parking_lots (id, name) VALUES (13, 'Hamnen')");
    expect(known(13)).toBe(true);
  });

  test("a parking_lots table without an id column is not mistaken for lots", () => {
    const db = new Database(":memory:");
    db.run("CREATE TABLE parking_lots (lot_no INTEGER)");
    expect(lotLookup(db)(1)).toBe(false);
  });
});
