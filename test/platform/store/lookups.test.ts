import { describe, expect, test } from "bun:test";
import { openMemoryStore } from "../../../src/platform/store/db.ts";
import type { LookupRecord } from "../../../src/platform/store/lookups.ts";

describe("LookupRecords.append", () => {
  test("writes every record of a batch that fills whole statements of fifty and more, verdicts included", () => {
    const store = openMemoryStore();
    const states = ["valid_here", "grace", "valid_elsewhere", "outside_hours", "none", null] as const;
    // 120 records: two statements of fifty rows and twenty one by one.
    const batch: LookupRecord[] = Array.from({ length: 120 }, (_, i) => ({
      at: 1_000 + i,
      credential: `token:handheld-${i % 3}`,
      by: i % 2 ? "verdict" : "registration_number",
      query: i % 2 ? `ABC${i}@1234` : `ABC${i}`,
      results: i % 4,
      verdict: i % 2 ? states[i % states.length]! : null,
    }));
    store.lookups.append(batch);
    const stored = store.lookups.after(0, 500);
    expect(stored.map(({ id: _, ...r }) => r)).toEqual(batch);
  });
});
