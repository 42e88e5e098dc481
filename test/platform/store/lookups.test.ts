import { describe, expect, test } from "bun:test";
import { openMemoryStore } from "../../../src/platform/store/db.ts";
import type { LookupRecord } from "../../../src/platform/store/lookups.ts";

describe("lookup records", () => {
  test("a batch of any size is written whole, every column of every record (many per statement and one by one)", () => {
    const store = openMemoryStore();
    const states = ["valid_here", "grace", "valid_elsewhere", "outside_hours", "none", null] as const;
    const batch: LookupRecord[] = Array.from({ length: 123 }, (_, i) => ({
      at: 1_000 + i,
      credential: `token:handheld-${i % 3}`,
      by: i % 2 ? "verdict" : "registration_number",
      query: i % 2 ? `P${i}@${1000 + i}` : `P${i}`,
      results: i % 4,
      verdict: i % 2 ? states[i % 5]! : null,
    }));
    store.lookups.append(batch);
    const read = store.lookups.after(0, 1_000).map(({ id: _, ...r }) => r);
    expect(read).toEqual(batch);
  });
});
