import { describe, expect, test } from "bun:test";
import { readPlate } from "../../src/domain/plate-formats.ts";

describe("a camera's read held against Sweden's plate formats", () => {
  test.each([
    // As read: taken as it is.
    ["ABC123", "ABC123", "ABC 123", 0],
    ["abc 123", "ABC123", "ABC 123", 0],
    ["ABC-12A", "ABC12A", "ABC 12A", 0],
    [" ABC 12A\n", "ABC12A", "ABC 12A", 0],
    // A digit read where a letter must be, and a letter where a digit must be.
    ["A8C123", "ABC123", "ABC 123", 1],
    ["0BC123", "OBC123", "OBC 123", 1],
    ["ABC1Z3", "ABC123", "ABC 123", 1],
    ["ABCI23", "ABC123", "ABC 123", 1],
    ["ABC12O", "ABC120", "ABC 120", 1],
    ["5BC 1S3", "SBC153", "SBC 153", 2],
    // The reader's own characters win over a correction: 8 stays a digit.
    ["ABC128", "ABC128", "ABC 128", 0],
    ["ABC12B", "ABC12B", "ABC 12B", 0],
    // Dirt and frame read as punctuation is dropped.
    ["|ABC.123|", "ABC123", "ABC 123", 0],
    // Full-width and other compatibility forms are the plain characters (NFKC).
    ["ＡＢＣ１２３", "ABC123", "ABC 123", 0],
  ] as const)("%p reads as %s", (text, plate, shown, corrected) => {
    const r = readPlate(text, "se");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect({ plate: r.plate, shown: r.shown, corrected: r.corrected }).toEqual({ plate, shown, corrected });
  });

  test.each([
    ["", "empty"],
    ["---", "empty"],
    ["AB123", "no-format"],
    ["ABCD123", "no-format"],
    // No Swedish plate holds I, Q, V or Å, Ä, Ö, and none ends in O.
    ["AVC123", "no-format"],
    ["ÅBC123", "no-format"],
    ["123ABC", "no-format"],
    ["ABC1234", "no-format"],
    // A letter no plate has is not dropped to make one: MÜ AB 123 is not MAB123.
    ["MÜ AB 123", "no-format"],
    ["SABé123", "no-format"],
    ["SАBC123", "no-format"],
    ["АBC123", "no-format"],
    // Three corrections make a plate of anything: 888888 is no read, not BBB888.
    ["888888", "no-format"],
    ["555 555", "no-format"],
  ] as const)("%p is refused (%s): it cannot be a Swedish plate", (text, why) => {
    const r = readPlate(text, "se");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.why).toBe(why);
  });

  test.each([
    ["ABC128", "ABC12B"],
    ["ABC12B", "ABC128"],
    ["ABC122", "ABC12Z"],
    ["ABC12Z", "ABC122"],
    ["ABC123", null],
    ["ABC12C", null],
  ] as const)("%s read is one look-alike from %p: the attendant must look", (text, other) => {
    const r = readPlate(text, "se");
    expect(r.ok && r.lookAlike).toBe(other);
  });

  test("in Sweden the two formats differ only last, where a letter and a digit never tie", () => {
    for (const last of "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
      const r = readPlate(`ABC12${last}`, "se");
      expect(r.ok || r.why !== "ambiguous").toBe(true);
    }
  });

  test("a read two formats take as different plates with as many corrections each is ambiguous", () => {
    const country = {
      name: "test",
      letters: "ABCDEFGHJKLMNOPRSTUWXYZ",
      formats: [
        { example: "AB", pattern: "LL" },
        { example: "12", pattern: "DD" },
      ],
    };
    expect(readPlate("S5", country)).toEqual({ ok: false, why: "ambiguous", candidates: ["SS", "55"] });
    expect(readPlate("SS", country)).toMatchObject({ ok: true, plate: "SS", corrected: 0 });
  });
});

describe("the generic fallback", () => {
  test.each([
    ["AB 1234", "AB1234"],
    ["m-123-xy", "M123XY"],
    ["B 1", "B1"],
  ] as const)("%p is %s, taken as read", (text, plate) => {
    const r = readPlate(text, "generic");
    expect(r.ok && r.plate).toBe(plate);
    expect(r.ok && r.corrected).toBe(0);
  });

  test.each(["A", "ABCDEFGHJ", "ÅÄÖ12"])("%p is refused", (text) => {
    expect(readPlate(text, "generic").ok).toBe(false);
  });
});
