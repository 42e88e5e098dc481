import { expect, test } from "bun:test";
import { applyChange } from "../../../src/modules/web/client/live-list.ts";
import { seeded } from "../../support/random.ts";

/** What the page did before: drop, add, sort the whole list again. */
function sortedAgain(list: readonly string[], change: { added: string[]; removed: string[] }): string[] {
  const gone = new Set(change.removed);
  const kept = list.filter((p) => !gone.has(p));
  const have = new Set(kept);
  return kept.concat(change.added.filter((p) => !have.has(p))).sort((a, b) => a.localeCompare(b, "sv"));
}

const LETTERS = ["A", "B", "Z", "Å", "Ä", "Ö", "V", "W", "0", "9", "E", "É"];

test("a change of the live list, applied in place, gives the list sorted again", () => {
  const r = seeded(88);
  const plate = () => Array.from({ length: 1 + r.int(5) }, () => LETTERS[r.int(LETTERS.length)]).join("");
  for (let round = 0; round < 300; round++) {
    let list = sortedAgain([], {
      added: [...new Set(Array.from({ length: r.int(200) }, plate))],
      removed: [],
    });
    for (let step = 0; step < 5; step++) {
      const change = {
        from: "",
        added: [...new Set(Array.from({ length: r.int(6) }, plate))],
        removed: [...Array.from({ length: r.int(4) }, () => list[r.int(list.length + 1)] ?? plate())],
      };
      const next = applyChange(list, change);
      expect(next).toEqual(sortedAgain(list, change));
      list = next;
    }
  }
});
