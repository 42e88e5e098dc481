import { describe, expect, test } from "bun:test";
import {
  isOverLimit,
  markTime,
  type Observation,
  observationAt,
  zoneTimeLimit,
} from "../../src/domain/permits/observations.ts";
import { type PlateHolding, verdictAnswer } from "../../src/domain/permits/verdict-answer.ts";

const TZ = "Europe/Stockholm";
const MIN = 60_000;
const H = 60 * MIN;
// 12:02 in Stockholm, a Monday.
const T0 = Date.parse("2026-06-15T10:02:00Z");
const RULES = { timezone: TZ, graceMinutes: 10, recentHours: 24 };

const seen = (over: Partial<Observation> = {}): Observation => ({
  plateNorm: "ABC123",
  zone: 1002,
  firstSeenAt: T0,
  limitSeconds: 7200,
  note: "",
  ...over,
});

const ticket = (zone: number, startAt: number, endAt: number | null): PlateHolding => ({
  kind: "ticket",
  id: `t${zone}-${startAt}`,
  plate: "ABC123",
  zone,
  startAt,
  endAt,
  ticketStatus: "running",
  parkingLotId: null,
  lotName: null,
  note: "",
  days: null,
});

describe("a zone's time limit", () => {
  const lots = [
    { zone_number: 1002, max_time: 10_800, active: true },
    { zone_number: 1002, max_time: 7_200, active: true },
    { zone_number: 1002, max_time: 0, active: true },
    { zone_number: 1003, max_time: 1_800, active: false },
    { zone_number: 1004, max_time: 0, active: true },
  ];
  for (const [zone, limit] of [
    [1002, 7_200],
    [1003, null],
    [1004, null],
    [9999, null],
  ] as const)
    test(`zone ${zone}: ${limit ?? "none"}`, () => expect(zoneTimeLimit(lots, zone)).toBe(limit));
});

describe("a mark's time of marking, by the phone's clock", () => {
  // The box's now: 12:02 in Stockholm; its day began at 2026-06-14T22:00Z.
  const cases: [string, number, number | null][] = [
    ["now", T0, T0],
    ["40 min ago (kept offline)", T0 - 40 * MIN, T0 - 40 * MIN],
    ["midnight, site time", Date.parse("2026-06-14T22:00:00Z"), Date.parse("2026-06-14T22:00:00Z")],
    ["a minute before midnight: yesterday", Date.parse("2026-06-14T21:59:00Z"), null],
    ["a phone 2 min fast: the box's now", T0 + 2 * MIN, T0],
    ["a phone 2 min 1 s fast: refused", T0 + 2 * MIN + 1000, null],
  ];
  for (const [name, markedAt, at] of cases)
    test(name, () => {
      const time = markTime(markedAt, T0, TZ);
      expect(time.at).toBe(at);
      expect(time.problem === null).toBe(at !== null);
    });
});

describe("which mark counts", () => {
  const cases: [string, Observation[], number, number, Observation | null][] = [
    ["this zone, same day, later", [seen()], 1002, T0 + H, seen()],
    ["another zone", [seen()], 1003, T0 + H, null],
    ["made after the instant judged", [seen()], 1002, T0 - MIN, null],
    [
      "yesterday's (23:59 site time) at 00:01",
      [seen({ firstSeenAt: Date.parse("2026-06-14T21:59:00Z") })],
      1002,
      Date.parse("2026-06-14T22:01:00Z"),
      null,
    ],
    ["the earliest of two", [seen({ firstSeenAt: T0 + H }), seen()], 1002, T0 + 2 * H, seen()],
  ];
  for (const [name, marks, zone, at, expected] of cases)
    test(name, () => expect(observationAt(marks, zone, at, TZ)).toEqual(expected));

  test("over only past the limit, not at it", () => {
    expect(isOverLimit(seen(), T0 + 2 * H)).toBe(false);
    expect(isOverLimit(seen(), T0 + 2 * H + 1)).toBe(true);
  });
});

describe("OVER TIME LIMIT among the verdict's states", () => {
  const at = T0 + 2 * H + 14 * MIN;
  const cases: [string, PlateHolding[], string][] = [
    ["nothing held", [], "over_time_limit"],
    ["a ticket valid here wins", [ticket(1002, T0, T0 + 4 * H)], "valid_here"],
    ["grace here wins", [ticket(1002, T0, at - 5 * MIN)], "grace"],
    ["valid elsewhere does not", [ticket(1001, T0, T0 + 4 * H)], "over_time_limit"],
    ["ended here long ago does not", [ticket(1002, T0 - 3 * H, T0)], "over_time_limit"],
  ];
  for (const [name, holdings, state] of cases)
    test(name, () => {
      const v = verdictAnswer(holdings, [seen({ note: "valves 2 and 7" })], "abc 123", 1002, at, RULES);
      expect(v.state).toBe(state as never);
      expect(v.observation).toEqual({
        first_seen_at: "2026-06-15T10:02:00.000000Z",
        limit_seconds: 7200,
        over_limit_at: "2026-06-15T12:02:00.000000Z",
        seen_seconds_ago: 2 * 3600 + 14 * 60,
        note: "valves 2 and 7",
      });
    });

  test("under the limit the permits' verdict stands, with the mark", () => {
    const v = verdictAnswer([], [seen()], "ABC123", 1002, T0 + 30 * MIN, RULES);
    expect(v.state).toBe("none");
    expect(v.observation?.seen_seconds_ago).toBe(1800);
  });

  test("no mark: no observation", () => {
    expect(verdictAnswer([], [], "ABC123", 1002, T0, RULES).observation).toBeNull();
  });
});
