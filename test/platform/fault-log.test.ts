import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { RepeatedFault } from "../../src/platform/fault-log.ts";
import { setLogging } from "../../src/platform/log.ts";

/** The log lines written to stderr while `fn` runs, parsed. */
function linesOf(fn: () => void): Record<string, unknown>[] {
  const write = spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    fn();
    return write.mock.calls.map((c) => JSON.parse(String(c[0])) as Record<string, unknown>);
  } finally {
    write.mockRestore();
  }
}

describe("a repeated fault is logged once, summarised, and ended", () => {
  beforeEach(() => setLogging(true));
  afterEach(() => setLogging(false));

  test("one line when it starts, at most one summary a minute with a count, one line when it ends", () => {
    let now = 0;
    const fault = new RepeatedFault("lookup records could not be written", () => now);
    const full = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    const lines = linesOf(() => {
      // 50 lookups a second for 150 s, each failing.
      for (let i = 0; i < 7_500; i++) {
        fault.failed(full, true, { pending: i });
        now += 20;
      }
      fault.recovered();
      fault.recovered(); // nothing more: it already ended
    });
    expect(lines.map((l) => l.msg)).toEqual([
      "lookup records could not be written",
      "lookup records could not be written (still failing)",
      "lookup records could not be written (still failing)",
      "lookup records could not be written: recovered",
    ]);
    // An expected condition: its message, no stack.
    expect(lines[0]).toMatchObject({ level: "warning", error: "database or disk is full" });
    expect(JSON.stringify(lines)).not.toContain("stack");
    expect(lines[1]).toMatchObject({ failures: 3_001, failuresSinceLastLine: 3_000, failingForSeconds: 60 });
    expect(lines[3]).toMatchObject({ level: "notice", failures: 7_500, failedForSeconds: 150 });
  });

  test("an unexpected error keeps its stack, once; a new fault after recovery starts again", () => {
    let now = 0;
    const fault = new RepeatedFault("reading the live permits failed", () => now);
    const lines = linesOf(() => {
      fault.failed(new TypeError("x is undefined"), false);
      now += 1_000;
      fault.failed(new TypeError("x is undefined"), false);
      fault.recovered();
      fault.failed(new TypeError("y is undefined"), false);
    });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({
      level: "error",
      error: { name: "TypeError", message: "x is undefined" },
    });
    expect(String((lines[0]!.error as { stack: string }).stack)).toContain("TypeError");
    expect(lines[2]).toMatchObject({ level: "error", error: { message: "y is undefined" } });
    expect(fault.failing).toBe(true);
  });
});
