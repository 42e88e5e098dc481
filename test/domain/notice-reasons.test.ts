import { describe, expect, test } from "bun:test";
import { type NoticeVerdict, reasonsForVerdict } from "../../src/domain/notices/rules.ts";

type Reason = { code: string; active?: boolean; verdicts?: NoticeVerdict[] };

const site: Reason[] = [
  { code: "no-permit", active: true, verdicts: ["none"] },
  { code: "over-time", active: true, verdicts: ["over_time_limit"] },
  { code: "bad-bay", active: true, verdicts: ["none", "over_time_limit"] },
  { code: "retired", active: false, verdicts: ["none", "over_time_limit"] },
  // A phone's copy from a box that had no verdicts on its reasons: offered after either.
  { code: "older-box" },
];

describe("the reasons offered after a verdict (the phone's form and the box's check alike)", () => {
  test.each([
    ["none", ["no-permit", "bad-bay", "older-box"]],
    ["over_time_limit", ["over-time", "bad-bay", "older-box"]],
  ] as const)("after %s: %p", (verdict, codes) => {
    expect(reasonsForVerdict(site, verdict).map((r) => r.code)).toEqual([...codes]);
  });

  test.each([
    ["no reasons at all", [], "none"],
    ["only retired ones", [{ code: "x", active: false, verdicts: ["none"] }], "none"],
    ["only the other verdict's", [{ code: "x", active: true, verdicts: ["none"] }], "over_time_limit"],
  ] as const)("none offered with %s", (_, reasons, verdict) => {
    expect(reasonsForVerdict(reasons as readonly Reason[], verdict)).toEqual([]);
  });
});
