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
      cameraRead: null,
    }));
    store.lookups.append(batch);
    const read = store.lookups.after(0, 1_000).map(({ id: _, ...r }) => r);
    expect(read).toEqual(batch);
  });
});

/**
 * A plate's pages read the plate index by stretches of 2^14 records, newest first. Against the
 * records filtered by hand, over three stretches, a clock stepped back two hours and a gap of two
 * billion ids.
 */
describe("a plate's pages over several stretches of the plate index", () => {
  const store = openMemoryStore();
  const plates = ["ABC1", "ABC12", "XYZ9", "12", "Q"];
  const records: (LookupRecord & { id: number })[] = [];
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const HOUR = 3_600_000;
  let at = Date.UTC(2026, 10, 27, 20);
  for (let i = 1; i <= 40_000; i++) {
    // Two hours back at record 36,000, in the third stretch: records made before the step, back
    // into the first stretch, have later times.
    at += i === 36_000 ? -2 * HOUR - 100 : 250;
    const plate = plates[next(plates.length)]!;
    const verdict = next(3) === 0;
    const r: LookupRecord = {
      at,
      credential: `token:handheld-${next(3)}`,
      by: verdict ? "verdict" : plate === "12" && next(2) === 0 ? "zone" : "registration_number",
      query: verdict ? `${plate}@${100 + next(3)}` : plate,
      results: 1,
      verdict: verdict ? "valid_here" : null,
      cameraRead: null,
    };
    records.push({ ...r, id: i });
  }
  store.lookups.append(records.map(({ id: _, ...r }) => r));
  // Then ids past 2^31 after a gap of two billion (a store whose ids were handed out again from
  // the office's, continueAfter): the page finds the records on both sides of it.
  const insert = store.sqlite.prepare(
    "INSERT INTO permit_lookups (id, at, credential, by, query, results, verdict) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  for (const [id, query] of [
    [2 ** 31 + 5, "ABC1"],
    [2 ** 31 + 16_390, "ABC1@101"],
    [2 ** 31 + 16_391, "XYZ9"],
  ] as const) {
    at += 250;
    const r = {
      id,
      at,
      credential: "token:handheld-0",
      by: "registration_number" as const,
      query,
      results: 1,
      verdict: null,
      cameraRead: null,
    };
    if (query.includes("@")) Object.assign(r, { by: "verdict", verdict: "valid_here" });
    insert.run(r.id, r.at, r.credential, r.by, r.query, r.results, r.verdict);
    records.push(r as LookupRecord & { id: number });
  }

  const byHand = (
    f: { plate: string; credential?: string; from?: number; to?: number },
    before: number | undefined,
    limit: number,
  ) =>
    records
      .filter(
        (r) =>
          (r.query === f.plate || (r.query > `${f.plate}@` && r.query < `${f.plate}A`)) &&
          (f.credential === undefined || r.credential === f.credential) &&
          (f.from === undefined || r.at >= f.from) &&
          (f.to === undefined || r.at < f.to) &&
          (before === undefined || r.id < before),
      )
      .reverse()
      .slice(0, limit);

  const stepAt = records[35_999]!.at;
  const cases: [
    string,
    { plate: string; credential?: string; from?: number; to?: number },
    number | undefined,
    number,
  ][] = [
    ["the newest page, across the gap in the ids", { plate: "ABC1" }, undefined, 50],
    ["a page from just past the gap", { plate: "XYZ9" }, 2 ** 31 + 16_391, 5],
    ["a page across a stretch's edge", { plate: "XYZ9" }, 16_400, 50],
    ["a page from the oldest stretch", { plate: "Q" }, 200, 50],
    ["every record of a plate, in all three stretches", { plate: "12" }, undefined, 20_000],
    ["one credential's", { plate: "ABC12", credential: "token:handheld-2" }, 35_000, 100],
    ["since a time, before the clock's step back", { plate: "ABC1", from: stepAt }, undefined, 10_000],
    [
      "in a time range",
      { plate: "XYZ9", from: records[5_000]!.at, to: records[20_000]!.at },
      undefined,
      10_000,
    ],
    ["before the first record", { plate: "ABC1" }, 1, 50],
    ["after the last record's time", { plate: "ABC1", from: at + HOUR * 2 }, undefined, 50],
    ["a plate never asked for", { plate: "NONE" }, undefined, 50],
  ];
  for (const [name, filter, before, limit] of cases)
    test(name, () => {
      const expected = byHand(filter, before, limit);
      const got = store.lookups.page(filter, before, limit);
      expect(got.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      expect(got).toEqual(expected);
    });

  test("the cases reach what they say: three stretches, full pages, the step's records, the gap", () => {
    const all = byHand({ plate: "12" }, undefined, 20_000).map((r) => r.id);
    expect(all.some((id) => id < 16_384) && all.some((id) => id >= 32_768)).toBe(true);
    expect(byHand({ plate: "ABC1" }, undefined, 50).length).toBe(50);
    expect(byHand({ plate: "XYZ9" }, 16_400, 50).at(-1)!.id).toBeLessThan(16_384);
    const sinceStep = byHand({ plate: "ABC1", from: stepAt }, undefined, 10_000);
    expect(sinceStep.some((r) => r.id < 16_384)).toBe(true);
    expect(
      byHand({ plate: "ABC1" }, undefined, 50)
        .map((r) => r.id)
        .slice(0, 3),
    ).toEqual([
      2 ** 31 + 16_390,
      2 ** 31 + 5,
      40_000 -
        records
          .slice(0, 40_000)
          .reverse()
          .findIndex((r) => r.query === "ABC1" || r.query.startsWith("ABC1@")),
    ]);
  });
});
