import { describe, expect, test } from "bun:test";
import { PlateList } from "../../../src/domain/permits/plate-list.ts";
import { ZoneList } from "../../../src/modules/enforcement/read-model/answers.ts";

const sorted = (plates: string[]) =>
  PlateList.sorted(plates.map((p) => ({ plate: p, plateNorm: p, startAt: 0 })));
const list = (plates: string[]) => ZoneList.built(sorted(plates), Number.POSITIVE_INFINITY);
const patch = (from: ZoneList, plates: string[], added: string[], removed: string[]) =>
  ZoneList.patched(from, { list: sorted(plates), added, removed }, Number.POSITIVE_INFINITY);

describe("ZoneList", () => {
  test("its tag is the set's: the same plates by any path read the same, other plates differently", () => {
    const ab = list(["AAA111", "BBB222"]);
    const viaAdd = patch(list(["AAA111"]), ["AAA111", "BBB222"], ["BBB222"], []);
    const viaRemove = patch(list(["AAA111", "BBB222", "CCC333"]), ["AAA111", "BBB222"], [], ["CCC333"]);
    const viaAddRemove = patch(viaAdd, ["AAA111", "BBB222", "DDD444"], ["DDD444"], []);
    const back = patch(viaAddRemove, ["AAA111", "BBB222"], [], ["DDD444"]);
    expect(new Set([ab.etag, viaAdd.etag, viaRemove.etag, back.etag]).size).toBe(1);
    const others = [
      list([]),
      list(["AAA111"]),
      list(["BBB222"]),
      list(["AAA111", "BBB223"]),
      // The same plate shown otherwise is another body.
      list(["AAA 111", "BBB222"]),
      viaAddRemove,
    ].map((l) => l.etag);
    expect(new Set([ab.etag, ...others]).size).toBe(others.length + 1);
  });

  test("a patched list says what it came from and what changed", () => {
    const from = list(["AAA111"]);
    const next = patch(from, ["AAA111", "BBB222"], ["BBB222"], []);
    expect(next.change).toEqual({ from: from.etag, added: ["BBB222"], removed: [] });
    expect(from.change).toBeUndefined();
  });

  test("its body is the list as the interface writes it, and is written once", () => {
    const l = list(["AAA111", "ÅÄÖ1"]);
    expect(JSON.parse(l.body)).toEqual({ data: ["AAA111", "ÅÄÖ1"] });
    expect(l.body).toBe(l.body);
    expect(l.results).toBe(2);
    expect(list([]).body).toBe('{"data":[]}');
  });

  test("counts the plates, their keys and the body it may write against the answers' budget", () => {
    expect(list([]).chars).toBe(0);
    expect(list(["AB1"]).chars).toBe(3 * 3 + 3);
    // Kept as plates come and go, not counted again over the whole list.
    const grown = patch(list(["AB1"]), ["AB1", "CD22"], ["CD22"], []);
    expect(grown.chars).toBe(list(["AB1", "CD22"]).chars);
    expect(patch(grown, ["CD22"], [], ["AB1"]).chars).toBe(list(["CD22"]).chars);
  });
});
