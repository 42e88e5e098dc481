import { describe, expect, test } from "bun:test";
import { FeedRounds } from "../../../src/modules/enforcement/feed-rounds.ts";
import { RepeatedFault } from "../../../src/platform/fault-log.ts";

/** Rounds over `zones`, each refresh taking `ms` of busy time; what was refreshed, in order. */
function rounds(zones: number[], ms = 0) {
  const refreshed: number[] = [];
  const slices: number[][] = [];
  let listener: (() => void) | undefined;
  const r = new FeedRounds(
    {
      zones: () => zones,
      refresh: (zone) => {
        const until = performance.now() + ms;
        while (performance.now() < until) {}
        refreshed.push(zone);
        slices.at(-1)!.push(zone);
      },
      inOneRound: (slice) => {
        slices.push([]);
        slice();
      },
      fault: new RepeatedFault("test rounds"),
      onWrite: (l) => {
        listener = l;
        return () => {
          listener = undefined;
        };
      },
    },
    20,
  );
  return { r, refreshed, slices, write: () => listener?.() };
}

describe("FeedRounds", () => {
  test("a round over slow zones is cut in slices, with a turn of the event loop between them", async () => {
    const { r, refreshed, slices } = rounds([1, 2, 3, 4, 5, 6], 0.3);
    r.all();
    // The first slice runs at once; the rest after turns of the loop.
    expect(refreshed.length).toBeLessThan(6);
    await Bun.sleep(50);
    expect(refreshed).toEqual([1, 2, 3, 4, 5, 6]);
    expect(slices.length).toBeGreaterThan(1);
    expect(slices.flat()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test("a round asked for while one runs follows it, once", async () => {
    const { r, refreshed } = rounds([1, 2, 3, 4], 0.3);
    r.all();
    r.all();
    r.all();
    await Bun.sleep(50);
    expect(refreshed).toEqual([1, 2, 3, 4, 1, 2, 3, 4]);
  });

  test("writes that come together make one round, after the gathering time", async () => {
    const { r, refreshed, write } = rounds([7]);
    r.start();
    write();
    write();
    write();
    expect(refreshed).toEqual([]);
    await Bun.sleep(60);
    expect(refreshed).toEqual([7]);
    r.stop();
    write();
    await Bun.sleep(40);
    expect(refreshed).toEqual([7]);
  });
});

describe("FeedRounds, stopped", () => {
  test("a round under way ends at its next slice, and a round asked for meanwhile does not run", async () => {
    const { r, refreshed } = rounds([1, 2, 3, 4, 5, 6, 7, 8], 0.3);
    r.start();
    r.all();
    r.all();
    const before = refreshed.length;
    expect(before).toBeLessThan(8);
    r.stop();
    await Bun.sleep(50);
    expect(refreshed.length).toBe(before);
  });
});
