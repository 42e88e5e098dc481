import { describe, expect, test } from "bun:test";
import { ReadModel } from "../../../src/modules/enforcement/read-model/read-model.ts";
import { openMemoryStore } from "../../../src/platform/store/db.ts";

const T0 = Date.parse("2026-06-15T12:00:00Z");

/**
 * The read model's rounds over its watched zones (the live feed's), each zone's list taking `ms`
 * of busy time to ask; what was asked, in order.
 */
function rounds(zones: number[], ms = 0) {
  const store = openMemoryStore();
  const config = { recentHours: 24, timezone: "Europe/Stockholm" };
  const model = new ReadModel({ store, config, now: () => T0 } as never, { gatherMs: 20 });
  const asked: number[] = [];
  let counting = false;
  const zoneList = model.zoneList.bind(model);
  model.zoneList = (zone, at) => {
    if (counting) {
      const until = performance.now() + ms;
      while (performance.now() < until) {}
      asked.push(zone);
    }
    return zoneList(zone, at);
  };
  const watches = zones.map((zone) => model.watch(zone, () => {}));
  counting = true;
  return {
    asked,
    round: () => model["allWatched"](),
    write: () => store.written.observation(),
    stop: () => {
      for (const w of watches) w.stop();
    },
  };
}

describe("the rounds over watched zones", () => {
  test("a round over slow zones is cut in slices, with a turn of the event loop between them", async () => {
    const { asked, round, stop } = rounds([1, 2, 3, 4, 5, 6], 0.3);
    round();
    // The first slice runs at once; the rest after turns of the loop.
    expect(asked.length).toBeLessThan(6);
    expect(asked.length).toBeGreaterThan(0);
    await Bun.sleep(50);
    expect(asked).toEqual([1, 2, 3, 4, 5, 6]);
    stop();
  });

  test("a round asked for while one runs follows it, once", async () => {
    const { asked, round, stop } = rounds([1, 2, 3, 4], 0.3);
    round();
    round();
    round();
    await Bun.sleep(50);
    expect(asked).toEqual([1, 2, 3, 4, 1, 2, 3, 4]);
    stop();
  });

  test("writes that come together make one round, after the gathering time; none once nothing is watched", async () => {
    const { asked, write, stop } = rounds([7]);
    write();
    write();
    write();
    expect(asked).toEqual([]);
    await Bun.sleep(60);
    expect(asked).toEqual([7]);
    stop();
    write();
    await Bun.sleep(40);
    expect(asked).toEqual([7]);
  });

  test("a round under way ends at its next slice when nothing is watched any more, and one asked for meanwhile does not run", async () => {
    const { asked, round, stop } = rounds([1, 2, 3, 4, 5, 6, 7, 8], 0.3);
    round();
    round();
    const before = asked.length;
    expect(before).toBeLessThan(8);
    stop();
    await Bun.sleep(50);
    expect(asked.length).toBe(before);
  });
});
