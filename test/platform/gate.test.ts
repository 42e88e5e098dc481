import { describe, expect, test } from "bun:test";
import { Gate } from "../../src/platform/gate.ts";

const BUSY = new Error("busy");

/** A gate of 2 at once and 3 waiting on a clock of our own, with tasks that end when told. */
function setup() {
  let t = 0;
  const gate = new Gate(2, 3, () => BUSY, { now: () => t, halfLifeMs: 60_000 });
  const order: string[] = [];
  const ends: (() => void)[] = [];
  const ask = (party: string, name = party) =>
    gate
      .run(party, () => {
        order.push(name);
        return new Promise<string>((end) => ends.push(() => end(name)));
      })
      .then(
        () => "done",
        (e) => (e === BUSY ? "busy" : "failed"),
      );
  /** Ends the oldest running task and lets the next start. */
  const endOne = async () => {
    ends.shift()!();
    await Bun.sleep(0);
  };
  return { gate, ask, order, endOne, advance: (ms: number) => (t += ms) };
}

describe("Gate", () => {
  test("two at once, the rest waiting in order; past the places a party's own newcomer is refused", async () => {
    const g = setup();
    const a = Array.from({ length: 6 }, (_, i) => g.ask("A", `A${i + 1}`));
    expect(g.order).toEqual(["A1", "A2"]);
    expect(g.gate.queued).toBe(3);
    // The sixth would wait behind three of its own party's: no lighter than them, refused.
    expect(await a[5]).toBe("busy");
    for (let i = 0; i < 5; i++) await g.endOne();
    expect(g.order).toEqual(["A1", "A2", "A3", "A4", "A5"]);
    expect(await Promise.all(a.slice(0, 5))).toEqual(Array(5).fill("done"));
  });

  test("a turn goes to the party that weighs least (failed least lately), not the first to wait", async () => {
    const g = setup();
    for (let i = 0; i < 6; i++) g.gate.charge("A");
    for (let i = 0; i < 2; i++) g.gate.charge("B");
    void g.ask("X1");
    void g.ask("X2");
    g.order.length = 0;
    void g.ask("A", "A-late");
    void g.ask("B", "B-late");
    void g.ask("C", "C-late");
    expect(g.gate.queued).toBe(3);
    for (let i = 0; i < 3; i++) await g.endOne();
    expect(g.order).toEqual(["C-late", "B-late", "A-late"]);
  });

  test("tasks that succeed weigh nothing: a burst from one party is not held back for its number", async () => {
    const g = setup();
    for (let i = 0; i < 20; i++) {
      void g.ask("NAT", `nat${i}`);
      await g.endOne();
    }
    g.gate.charge("SPRAY");
    void g.ask("X1");
    void g.ask("X2");
    g.order.length = 0;
    void g.ask("SPRAY", "spray");
    void g.ask("NAT", "nat-again");
    await g.endOne();
    expect(g.order).toEqual(["nat-again"]);
  });

  test("a full queue: a lighter newcomer takes the heaviest party's place; an equal or heavier one is refused", async () => {
    const g = setup();
    for (let i = 0; i < 4; i++) g.gate.charge("S1");
    for (let i = 0; i < 3; i++) g.gate.charge("S2");
    void g.ask("X1");
    void g.ask("X2");
    const waiting = [g.ask("S1"), g.ask("S2"), g.ask("S3")];
    expect(g.gate.full).toBe(true);
    const newcomers = [g.ask("N1"), g.ask("N2")];
    // The heaviest waiting party gave way each time: S1 (4 failures), then S2 (3).
    expect(await waiting[0]).toBe("busy");
    expect(await waiting[1]).toBe("busy");
    // Now every waiting party weighs nothing: a third newcomer is no lighter, and is refused.
    expect(await g.ask("N3")).toBe("busy");
    g.order.length = 0;
    for (let i = 0; i < 5; i++) await g.endOne();
    expect(g.order).toEqual(["S3", "N1", "N2"]);
    expect(await Promise.all([waiting[2], ...newcomers])).toEqual(["done", "done", "done"]);
  });

  test("what a party failed long ago counts less: its weight halves every half-life", async () => {
    const g = setup();
    for (let i = 0; i < 4; i++) g.gate.charge("OLD");
    g.advance(10 * 60_000);
    g.gate.charge("NEW");
    void g.ask("X1");
    void g.ask("X2");
    void g.ask("NEW", "new-again");
    void g.ask("OLD", "old-again");
    g.order.length = 0;
    await g.endOne();
    // OLD's four failures of ten minutes ago weigh 4/1024 now, NEW's one of just now weighs 1.
    expect(g.order).toEqual(["old-again"]);
    await g.endOne();
    expect(g.order).toEqual(["old-again", "new-again"]);
  });

  test("a task that throws gives its slot to the next", async () => {
    const gate = new Gate(1, 2, () => BUSY);
    const failed = gate.run("A", () => Promise.reject(new Error("boom")));
    const next = gate.run("B", () => Promise.resolve("ran"));
    await expect(failed).rejects.toThrow("boom");
    expect(await next).toBe("ran");
    expect(gate.queued).toBe(0);
  });
});
