import { describe, expect, test } from "bun:test";
import { listenUrls, storeCounts } from "../../../src/modules/operations/summary.ts";
import { openMemoryStore } from "../../../src/platform/store/db.ts";

describe("start-up summary", () => {
  test("counts tickets, permits, lots, live tokens and users", async () => {
    const store = openMemoryStore();
    expect(await storeCounts(store)).toEqual({ tickets: 0, permits: 0, lots: 0, tokens: 0, users: 0 });
    store.sqlite.run(
      `INSERT INTO parking_lots (id, name, zone_number, parking_lot_fee, variable_fees, parking_lot_open,
         parking_lot_location, created_at, updated_at, updated_by)
       VALUES (1, 'A', 1, '[]', '[]', '[]', '[]', 0, 0, 't'), (2, 'B', 1, '[]', '[]', '[]', '[]', 0, 0, 't')`,
    );
    store.sqlite.run(
      "INSERT INTO api_tokens (id, name, token_hash, scopes, created_at, revoked_at) VALUES ('a', 'a', 'h1', 'admin', 0, NULL), ('b', 'b', 'h2', 'admin', 0, 5)",
    );
    expect(await storeCounts(store)).toEqual({ tickets: 0, permits: 0, lots: 2, tokens: 1, users: 0 });
  });

  test("tickets are counted off the event loop when serve can, and here should that fail", async () => {
    const store = openMemoryStore();
    const asked: string[] = [];
    const elsewhere = async (sql: string) => {
      asked.push(sql);
      return 1_052_684;
    };
    expect((await storeCounts(store, elsewhere)).tickets).toBe(1_052_684);
    expect(asked).toEqual(["SELECT count(*) AS n FROM tickets"]);
    const failing = () => Promise.reject(new Error("the store thread stopped"));
    expect((await storeCounts(store, failing)).tickets).toBe(0);
  });

  test("a wildcard host lists localhost and the box's addresses; a named host itself", () => {
    expect(listenUrls("https", "10.1.2.3", 8443)).toEqual(["https://10.1.2.3:8443"]);
    expect(listenUrls("https", "::1", 8443)).toEqual(["https://[::1]:8443"]);
    const all = listenUrls("http", "0.0.0.0", 8080);
    expect(all[0]).toBe("http://localhost:8080");
    for (const u of all) expect(u).toMatch(/^http:\/\/[^/]+:8080$/);
    expect(all.some((u) => u.includes("127.0.0.1"))).toBe(false);
  });
});
