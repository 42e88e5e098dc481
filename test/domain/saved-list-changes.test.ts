import { describe, expect, test } from "bun:test";
import {
  applyChanges,
  changedPlates,
  changesSince,
  partsByPlate,
  partText,
  type SavedListShape,
} from "../../src/domain/permits/saved-list-changes.ts";
import { seeded } from "../support/random.ts";

type Entry = { plate_norm: string; id: string; zone: number; end: number };
type Mark = { plate_norm: string; first: number };
type List = SavedListShape<Entry, Mark>;

/** A list as the box makes it: plates sorted, each plate's entries together in plate order, marks by plate. */
function list(parts: Record<string, { entries: Omit<Entry, "plate_norm">[]; mark?: number }>): List {
  const plates = Object.keys(parts).sort();
  return {
    plates,
    permits: plates.flatMap((p) => parts[p]!.entries.map((e) => ({ plate_norm: p, ...e }))),
    observations: plates.flatMap((p) =>
      parts[p]!.mark === undefined ? [] : [{ plate_norm: p, first: parts[p]!.mark! }],
    ),
  };
}

const digests = (l: List) =>
  new Map(
    [...partsByPlate(l)].map(([plate, part]) => [plate, Number(Bun.hash(partText(part)) & 0xffffffffn)]),
  );

/** `old` kept current by the changes to `now`, as the phone does it. */
const kept = (old: List, now: List) => applyChanges(old, changesSince(digests(old), now, digests(now)));

describe("a saved list kept by its changes is the list sent whole", () => {
  test.each([
    [
      "nothing changed",
      list({ A1: { entries: [{ id: "t1", zone: 1, end: 5 }] } }),
      list({ A1: { entries: [{ id: "t1", zone: 1, end: 5 }] } }),
    ],
    [
      "a plate added",
      list({ B2: { entries: [{ id: "t2", zone: 1, end: 5 }] } }),
      list({
        A1: { entries: [{ id: "t1", zone: 1, end: 9 }] },
        B2: { entries: [{ id: "t2", zone: 1, end: 5 }] },
      }),
    ],
    [
      "a plate gone",
      list({ A1: { entries: [{ id: "t1", zone: 1, end: 9 }] }, B2: { entries: [] } }),
      list({ B2: { entries: [] } }),
    ],
    [
      "a ticket moved to another zone",
      list({ A1: { entries: [{ id: "t1", zone: 1, end: 9 }] } }),
      list({ A1: { entries: [{ id: "t1", zone: 2, end: 9 }] } }),
    ],
    [
      "a second ticket for a plate",
      list({ A1: { entries: [{ id: "t1", zone: 1, end: 9 }] } }),
      list({
        A1: {
          entries: [
            { id: "t1", zone: 1, end: 9 },
            { id: "t3", zone: 1, end: 12 },
          ],
        },
      }),
    ],
    ["a mark made", list({ A1: { entries: [] } }), list({ A1: { entries: [], mark: 100 } })],
    [
      "a mark's car gone",
      list({ A1: { entries: [], mark: 100 }, Ö9: { entries: [] } }),
      list({ Ö9: { entries: [] } }),
    ],
    [
      "Å, Ä, Ö and digits in order",
      list({ Ö1: { entries: [] }, "11": { entries: [] } }),
      list({ Å1: { entries: [] }, "11": { entries: [] }, Ö1: { entries: [], mark: 3 }, A1: { entries: [] } }),
    ],
  ] as const)("%s", (_, before, after) => {
    expect(kept(before as List, after as List)).toEqual(after as List);
  });

  test("nothing changed: no plate in the changes", () => {
    const l = list({ A1: { entries: [{ id: "t1", zone: 1, end: 5 }] }, B2: { entries: [], mark: 4 } });
    expect(changedPlates(digests(l), digests(l))).toEqual({ removed: [], changed: [] });
  });

  test("500 random pairs of lists, as a busy zone changes between two polls", () => {
    const r = seeded(52);
    const plateNames = Array.from({ length: 60 }, (_, i) => `${"ABCÅÄÖ"[i % 6]}${i}`);
    const randomList = () => {
      const parts: Record<string, { entries: Omit<Entry, "plate_norm">[]; mark?: number }> = {};
      for (const p of plateNames) {
        if (r.rand() < 0.5) continue;
        parts[p] = {
          entries: Array.from({ length: r.int(3) }, (_, i) => ({
            id: `t${i}`,
            zone: 1 + r.int(3),
            end: r.int(4),
          })),
          ...(r.rand() < 0.2 ? { mark: r.int(5) } : {}),
        };
      }
      return list(parts);
    };
    for (let i = 0; i < 500; i++) {
      const a = randomList();
      const b = randomList();
      expect(kept(a, b)).toEqual(b);
      // And a chain of versions, each kept from the last.
      const c = randomList();
      expect(kept(kept(a, b), c)).toEqual(c);
    }
  });
});
