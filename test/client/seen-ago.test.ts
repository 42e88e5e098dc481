import { describe, expect, test } from "bun:test";
import { seenAgo } from "../../src/client/spans.ts";

describe("how long ago a car was seen, against its limit", () => {
  test.each([
    // seconds, limit, words
    [60, 120, "1 min"],
    [119, 120, "1 min"],
    [120, 120, "2 min"],
    [136, 120, "2 min 16 s"],
    [179, 120, "2 min 59 s"],
    [180, 120, "3 min"],
    [181, 120, "3 min"],
    [3_630, 3_600, "1 h 30 s"],
    [3_660, 3_600, "1 h 1 min"],
    [7_205, 7_200, "2 h 5 s"],
    [7_265, 7_200, "2 h 1 min"],
    [8_000, 7_200, "2 h 13 min"],
  ])("%i s with a limit of %i s reads %s", (seconds, limit, words) => {
    expect(seenAgo(seconds, limit)).toBe(words);
  });

  test("over the limit never reads as at or under it", () => {
    for (let limit = 60; limit <= 4 * 3600; limit += 60)
      for (let s = limit + 1; s < limit + 120; s++) expect(seenAgo(s, limit)).not.toBe(seenAgo(limit, limit));
  });
});
