import { describe, expect, test } from "bun:test";
import { listenUrls, storeCounts } from "../../src/operations/summary.ts";
import { openMemoryStore } from "../../src/store/db.ts";

describe("start-up summary", () => {
  test("counts the tables that exist, lots once a feature creates them", () => {
    const store = openMemoryStore();
    expect(storeCounts(store.sqlite)).toEqual({ tickets: 0, permits: 0, tokens: 0, users: 0 });
    store.sqlite.run("CREATE TABLE parking_lots (id INTEGER PRIMARY KEY)");
    store.sqlite.run("INSERT INTO parking_lots (id) VALUES (1), (2)");
    expect(storeCounts(store.sqlite).lots).toBe(2);
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
