import { describe, expect, test } from "bun:test";
import { MemoryKeeper } from "../../src/platform/memory.ts";

const MB = 1024 * 1024;

/** A process whose size the test sets, and whose collections bring it back to `after`. */
function process(start: number, after: number) {
  const p = { size: start, clock: 0 };
  const keeper = new MemoryKeeper({
    rss: () => p.size,
    collect: () => {
      p.size = after;
    },
    now: () => p.clock,
    growth: 24 * MB,
    everyMs: 5_000,
    high: 150 * MB,
    highGrowth: 8 * MB,
    highEveryMs: 1_000,
    ceiling: 180 * MB,
  });
  return { p, keeper };
}

/** Grows the process by `mb` before each look, one a second: each collection's second, kind and what it left. */
function growSteadily({ p, keeper }: ReturnType<typeof process>, seconds: number, mb: number) {
  const collected: { second: number; full: boolean; left: number }[] = [];
  for (let s = 0; s < seconds; s++) {
    p.clock = s * 1_000;
    p.size += mb * MB;
    const [any, full] = [keeper.collections, keeper.fullCollections];
    keeper.tick();
    if (keeper.collections > any)
      collected.push({ second: s, full: keeper.fullCollections > full, left: p.size / MB });
  }
  return collected;
}

describe("MemoryKeeper", () => {
  test.each([
    ["a process", 90, 10, 600],
    ["a big process (over 150 MB)", 170, 5, 60],
  ])("%s that does not grow is never held up by a collection", (_, base, wobble, seconds) => {
    const { p, keeper } = process(base * MB, (base - 10) * MB);
    for (let s = 0; s < seconds; s++) {
      p.clock = s * 1_000;
      p.size = (base + (s % wobble)) * MB; // wobbling under the growth mark
      keeper.tick();
    }
    expect(keeper.collections).toBe(0);
  });

  test("growth past the mark collects, and the size after it is the new mark", () => {
    const { p, keeper } = process(90 * MB, 95 * MB);
    p.size = 113 * MB;
    keeper.tick();
    expect(keeper.collections).toBe(0);
    p.size = 115 * MB;
    keeper.tick();
    expect(keeper.collections).toBe(1);
    expect(p.size).toBe(95 * MB);
    // The collection runs beside the loop: the next look takes what it left as the mark.
    p.size = 97 * MB;
    keeper.tick();
    // Measured from 97 MB now: 120 is under the mark, 122 over it.
    p.clock = 10_000;
    p.size = 120 * MB;
    keeper.tick();
    expect(keeper.collections).toBe(1);
    p.size = 122 * MB;
    keeper.tick();
    expect(keeper.collections).toBe(2);
  });

  test("below 150 MB: a concurrent collection at most every 5 s however fast the process grows", () => {
    const sim = process(20 * MB, 20 * MB);
    expect(growSteadily(sim, 20, 25).map((c) => c.second)).toEqual([0, 5, 10, 15]);
    expect(sim.keeper.fullCollections).toBe(0);
  });

  test("above 150 MB: a full collection on 8 MB of growth, at most every second", () => {
    const sim = process(160 * MB, 155 * MB);
    const { p, keeper } = sim;
    growSteadily(sim, 5, 10);
    expect([keeper.collections, keeper.fullCollections]).toEqual([5, 5]);
    // Twice in one second: once.
    p.size += 10 * MB;
    keeper.tick();
    expect(keeper.fullCollections).toBe(5);
  });

  test("above 150 MB, slow growth waits for the engine's own collections up to 180 MB", () => {
    const sim = process(140 * MB, 145 * MB);
    // 3 MB a second: past the 8 MB of growth within a few seconds, never 8 MB in one second.
    const fullLeft = growSteadily(sim, 30, 3)
      .filter((c) => c.full)
      .map((c) => c.left);
    // 143, 146, ... 179 MB pass by; the look at 182 MB collects (back to 145), and 181 MB again.
    expect(fullLeft).toEqual([145, 145]);
    expect(sim.keeper.collections).toBe(2);
  });

  test("growth during the wait after a collection still counts toward the pace", () => {
    const { p, keeper } = process(150 * MB, 152 * MB);
    p.size = 170 * MB;
    keeper.tick();
    expect(keeper.fullCollections).toBe(1);
    // 12 MB in the half second after it: held back by the wait, not forgotten.
    p.clock = 500;
    p.size = 164 * MB;
    keeper.tick();
    expect(keeper.fullCollections).toBe(1);
    // 3 MB more: 15 MB in 1.5 s is 10 MB a second.
    p.clock = 1_500;
    p.size = 167 * MB;
    keeper.tick();
    expect(keeper.fullCollections).toBe(2);
  });

  test("a process that shrank by itself is measured from its new size", () => {
    const { p, keeper } = process(150 * MB, 90 * MB);
    p.size = 100 * MB;
    keeper.tick();
    p.size = 123 * MB;
    keeper.tick();
    expect(keeper.collections).toBe(0);
    p.size = 125 * MB;
    keeper.tick();
    expect(keeper.collections).toBe(1);
  });
});
