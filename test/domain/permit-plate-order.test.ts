import { describe, expect, test } from "bun:test";
import { PlateList } from "../../src/domain/permits/plate-list.ts";
import { formatMicros } from "../../src/domain/time/zoned.ts";
import { seeded } from "../support/random.ts";

/** The fast paths must give exactly what the general code gives. */
describe("fast paths of the zone answers", () => {
  test("the zone list's order is the Swedish collation's, plain ASCII plates or not", () => {
    const collator = new Intl.Collator("sv-SE", { sensitivity: "variant", numeric: false });
    const general = (keys: string[]) =>
      [...keys].sort((a, b) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0));
    const letters = ["0", "1", "9", "A", "B", "V", "W", "Z", "Å", "Ä", "Ö", "Ü", "É", "AA", "Æ", "Ø"];
    const { rand } = seeded(3);
    for (let round = 0; round < 300; round++) {
      const keys = new Set<string>();
      const count = 1 + Math.floor(rand() * 60);
      while (keys.size < count) {
        let k = "";
        const length = 1 + Math.floor(rand() * 6);
        for (let i = 0; i < length; i++) {
          const ascii = rand() < 0.8;
          k += ascii ? letters[Math.floor(rand() * 8)] : letters[8 + Math.floor(rand() * 8)];
        }
        keys.add(k);
      }
      const entries = [...keys].map((k, i) => ({ plate: `shown ${k}`, plateNorm: k, startAt: i }));
      expect(PlateList.sorted(entries).plates).toEqual(general([...keys]).map((k) => `shown ${k}`));
    }
  });

  test("formatMicros is toISOString with three more digits, for any instant", () => {
    const general = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
    const edges = [
      0, -1, 1, 951_782_400_000, 951_868_799_999, 4_107_542_399_999, -62_167_219_200_000, -62_167_219_200_001,
      253_402_300_799_999, 253_402_300_800_000, 8.64e15, -8.64e15, 1.5, -0.5,
    ];
    for (const ms of edges) expect(formatMicros(ms)).toBe(general(ms));
    const { rand } = seeded(11);
    for (let i = 0; i < 200_000; i++) {
      const ms = Math.floor((rand() - 0.2) * 300_000_000_000_000);
      if (formatMicros(ms) !== general(ms)) expect(formatMicros(ms)).toBe(general(ms));
    }
  });
});

/** `shown` (each key and its plate as shown) after `changed`, applied in place, sorted whole. */
function sortedAfter(shown: Map<string, string>, changed: ReadonlyMap<string, string | null>): PlateList {
  for (const [k, v] of changed)
    if (v === null) shown.delete(k);
    else shown.set(k, v);
  return PlateList.sorted([...shown].map(([k, p]) => ({ plate: p, plateNorm: k, startAt: 0 })));
}

/** A patched list is the list sorted again: cases at the ends, in the middle, respelled, gone. */
describe("PlateList.patch", () => {
  const list = PlateList.sorted(
    ["ABC1", "ÅÄÖ9", "Z9", "123", "ÖA1"].map((p, i) => ({ plate: p, plateNorm: p, startAt: i })),
  );
  const cases: [string, [string, string | null][], string[], string[]][] = [
    ["nothing changed", [["ABC1", "ABC1"]], [], []],
    ["a new first", [["0", "0"]], ["0"], []],
    ["a new last", [["ÖÖ", "ÖÖ"]], ["ÖÖ"], []],
    ["a new one in the middle", [["M1", "M 1"]], ["M 1"], []],
    ["one gone", [["Z9", null]], [], ["Z9"]],
    ["one respelled", [["ABC1", "ABC-1"]], ["ABC-1"], ["ABC1"]],
    ["gone, and absent anyway", [["QQQ", null]], [], []],
    [
      "several",
      [
        ["123", null],
        ["Å1", "Å1"],
        ["Z9", "Z 9"],
      ],
      ["Å1", "Z 9"],
      ["123", "Z9"],
    ],
  ];
  for (const [name, changes, added, removed] of cases)
    test(name, () => {
      const changed = new Map(changes);
      const patched = list.patch(changed);
      const whole = sortedAfter(new Map(list.keys.map((k, i) => [k, list.plates[i]!])), changed);
      expect(patched.list.plates).toEqual(whole.plates);
      expect(patched.list.keys).toEqual(whole.keys);
      expect(patched.added).toEqual(added);
      expect(patched.removed).toEqual(removed);
    });
});

/**
 * The list is kept in chunks; a patch copies the chunks it changes, splits a full one and drops an
 * emptied one. With chunks of 2-4 plates every step crosses such edges: after each random patch
 * the list must read as the whole set sorted again, and the list it was patched from as before.
 */
describe("PlateList in chunks", () => {
  const alphabet = ["A", "B", "Z", "Å", "Ä", "Ö", "0", "9", "É"];
  for (const chunk of [2, 3, 4]) {
    test(`random patches with chunks of ${chunk}`, () => {
      const { rand } = seeded(40 + chunk);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
      const randomKey = () =>
        Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(alphabet)).join("");
      const shown = new Map<string, string>();
      let list = PlateList.sorted([], chunk);
      for (let step = 0; step < 400; step++) {
        const changed = new Map<string, string | null>();
        for (let n = 1 + Math.floor(rand() * 4); n > 0; n--) {
          const key = rand() < 0.5 && shown.size > 0 ? pick([...shown.keys()]) : randomKey();
          changed.set(key, rand() < 0.35 ? null : rand() < 0.5 ? key : `${key} `);
        }
        const before = list.plates;
        const patched = list.patch(changed);
        const was = new Map(shown);
        const whole = sortedAfter(shown, changed);
        expect(patched.list.plates).toEqual(whole.plates);
        expect(patched.list.keys).toEqual(whole.keys);
        expect(patched.list.size).toBe(shown.size);
        expect(patched.list.first).toBe(whole.plates[0]);
        expect(list.plates).toEqual(before);
        const wasShown = new Set(was.values());
        const isShown = new Set(shown.values());
        expect(patched.added.sort()).toEqual([...isShown].filter((p) => !wasShown.has(p)).sort());
        expect(patched.removed.sort()).toEqual([...wasShown].filter((p) => !isShown.has(p)).sort());
        list = patched.list;
      }
    });
  }
});
