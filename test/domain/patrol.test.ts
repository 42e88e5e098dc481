import { describe, expect, test } from "bun:test";
import type { Observation } from "../../src/domain/permits/observations.ts";
import { type PatrolEntry, patrolOrder } from "../../src/domain/permits/patrol.ts";
import { type PlateHolding, patrolDue, verdictAnswer } from "../../src/domain/permits/verdict-answer.ts";
import { seeded } from "../support/random.ts";

const TZ = "Europe/Stockholm";
const MIN = 60_000;
const H = 60 * MIN;
// 14:00 in Stockholm, a Monday.
const T = Date.parse("2026-06-15T12:00:00Z");
const ZONE = 1002;
const rules = (graceMinutes = 10) => ({ timezone: TZ, graceMinutes, recentHours: 24 });

const ticket = (startAt: number, endAt: number | null, zone = ZONE): PlateHolding => ({
  kind: "ticket",
  id: `t${zone}-${startAt}-${endAt}`,
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
/** A resident's permit for Monday evenings, 21:00-24:00 site time. */
const evenings = (startAt: number, endAt: number | null): PlateHolding => ({
  ...ticket(startAt, endAt),
  kind: "permit",
  id: `p-${startAt}`,
  ticketStatus: null,
  days: [{ weekday: 1, start_time: "21:00:00", end_time: "24:00:00" }],
});
const mark = (firstSeenAt: number, limitSeconds = 7200): Observation => ({
  plateNorm: "ABC123",
  zone: ZONE,
  firstSeenAt,
  limitSeconds,
  note: "",
});

type Case = [string, PlateHolding[], Observation[], number, { reason: string; at: number | null } | null];

// [what, holdings, marks, grace minutes, what the list says at T]
const cases: Case[] = [
  [
    "a ticket ending in 5 min",
    [ticket(T - H, T + 5 * MIN)],
    [],
    10,
    { reason: "ending_soon", at: T + 5 * MIN },
  ],
  [
    "a ticket ending in exactly 10 min",
    [ticket(T - H, T + 10 * MIN)],
    [],
    10,
    { reason: "ending_soon", at: T + 10 * MIN },
  ],
  ["a ticket ending in 11 min", [ticket(T - H, T + 11 * MIN)], [], 10, null],
  ["an open-ended permit", [ticket(T - H, null)], [], 10, null],
  [
    "ended 3 min ago, 10 min grace",
    [ticket(T - H, T - 3 * MIN)],
    [],
    10,
    { reason: "in_grace", at: T + 7 * MIN },
  ],
  [
    "ended 15 min ago: grace over 5 min ago",
    [ticket(T - H, T - 15 * MIN)],
    [],
    10,
    { reason: "grace_over", at: T - 5 * MIN },
  ],
  [
    "grace over 29 min ago",
    [ticket(T - H, T - 39 * MIN)],
    [],
    10,
    { reason: "grace_over", at: T - 29 * MIN },
  ],
  ["grace over 30 min ago: off the list", [ticket(T - H, T - 40 * MIN)], [], 10, null],
  ["grace over 35 min ago", [ticket(T - H, T - 45 * MIN)], [], 10, null],
  ["no grace: ended a minute ago", [ticket(T - H, T - MIN)], [], 0, { reason: "grace_over", at: T - MIN }],
  ["no grace: ending now is ended", [ticket(T - H, T)], [], 0, { reason: "grace_over", at: T }],
  [
    "ended here 15 min ago, valid in another zone now",
    [ticket(T - H, T - 15 * MIN), ticket(T - 10 * MIN, T + H, 1003)],
    [],
    10,
    null,
  ],
  [
    "ended 15 min ago, a new ticket here since",
    [ticket(T - H, T - 15 * MIN), ticket(T - 5 * MIN, T + H)],
    [],
    10,
    null,
  ],
  [
    "ended, then a new ticket ending in 4 min",
    [ticket(T - H, T - 15 * MIN), ticket(T - 5 * MIN, T + 4 * MIN)],
    [],
    10,
    { reason: "ending_soon", at: T + 4 * MIN },
  ],
  [
    "two tickets back to back: valid until the second's end",
    [ticket(T - H, T + 5 * MIN), ticket(T + 5 * MIN, T + H)],
    [],
    10,
    null,
  ],
  ["a ticket for another zone ending in 5 min", [ticket(T - H, T + 5 * MIN, 1003)], [], 10, null],
  [
    "marked 2 h 5 min ago, 2 h limit, nothing",
    [],
    [mark(T - 125 * MIN)],
    10,
    { reason: "over_limit", at: T - 5 * MIN },
  ],
  [
    "marked 1 h 55 min ago: passes the limit in 5 min",
    [],
    [mark(T - 115 * MIN)],
    10,
    { reason: "limit_soon", at: T + 5 * MIN },
  ],
  ["marked an hour ago", [], [mark(T - H)], 10, null],
  [
    "marked and over, with a ticket here for hours",
    [ticket(T - H, T + 3 * H)],
    [mark(T - 125 * MIN)],
    10,
    null,
  ],
  [
    "marked and over, the ticket here ending in 3 min",
    [ticket(T - H, T + 3 * MIN)],
    [mark(T - 125 * MIN)],
    10,
    { reason: "ending_soon", at: T + 3 * MIN },
  ],
  [
    "marked and over, the ticket ended 2 min ago: grace wins",
    [ticket(T - H, T - 2 * MIN)],
    [mark(T - 125 * MIN)],
    10,
    { reason: "in_grace", at: T + 8 * MIN },
  ],
  [
    "marked and over, grace over: over the limit first",
    [ticket(T - H, T - 15 * MIN)],
    [mark(T - 125 * MIN)],
    10,
    { reason: "over_limit", at: T - 5 * MIN },
  ],
  ["marked yesterday: a mark counts its own day", [], [mark(T - 24 * H)], 10, null],
  [
    "the Monday evening permit at 14:00: outside its hours until 21:00",
    [evenings(T - 30 * 24 * H, T + 300 * 24 * H)],
    [],
    10,
    { reason: "outside_hours", at: Date.parse("2026-06-15T19:00:00Z") },
  ],
  [
    "the Monday evening permit whose period ended 15 min ago: its last evening ended a week ago",
    [evenings(T - 30 * 24 * H, T - 15 * MIN)],
    [],
    10,
    null,
  ],
];

describe("what puts a car on the zone's patrol list", () => {
  for (const [what, holdings, marks, grace, expected] of cases)
    test(what, () => {
      const due = patrolDue(holdings, marks, ZONE, T, rules(grace));
      expect(due).toEqual(expected as never);
      // The box's verdict says the same, judging the car whatever its holdings.
      const answer = verdictAnswer(holdings, marks, "ABC123", ZONE, T, rules(grace));
      expect(answer.patrol?.reason ?? null).toBe((expected?.reason ?? null) as never);
    });

  test("the evening permit inside its hours, ending at midnight in 5 min", () => {
    const at = Date.parse("2026-06-15T21:55:00Z");
    expect(patrolDue([evenings(T - 30 * 24 * H, null)], [], ZONE, at, rules())).toEqual({
      reason: "ending_soon",
      at: Date.parse("2026-06-15T22:00:00Z"),
    });
  });

  test("on random holdings and marks, the quick test before judging never leaves a car off", () => {
    const r = seeded(53);
    let listed = 0;
    for (let i = 0; i < 4_000; i++) {
      const holdings: PlateHolding[] = [];
      for (let k = r.int(4); k > 0; k--) {
        const start = T - r.int(6 * H);
        const end = r.int(5) === 0 ? null : start + r.int(7 * H);
        const h = r.int(6) === 0 ? evenings(start, end) : ticket(start, end, r.int(3) === 0 ? 1003 : ZONE);
        holdings.push(h);
      }
      const marks = r.int(3) === 0 ? [mark(T - r.int(3 * H), 60 * (30 + r.int(120)))] : [];
      const grace = [0, 5, 10, 30][r.int(4)]!;
      const at = T + r.int(12 * H);
      const full = verdictAnswer(holdings, marks, "ABC123", ZONE, at, rules(grace)).patrol;
      const due = patrolDue(holdings, marks, ZONE, at, rules(grace));
      expect(
        due === null
          ? null
          : { reason: due.reason, at: due.at === null ? null : new Date(due.at).toISOString() },
      ).toEqual(
        full === null
          ? null
          : { reason: full.reason, at: full.at === null ? null : full.at.replace(/(\.\d{3})\d+Z$/, "$1Z") },
      );
      if (due) listed++;
    }
    expect(listed).toBeGreaterThan(500);
  });
});

describe("the patrol list's order", () => {
  const entry = (
    plate: string,
    reason: PatrolEntry["reason"],
    at: number | null,
    distance: number | null,
  ): PatrolEntry => ({
    plate,
    reason,
    at,
    distance,
  });
  test("urgency first, then nearest where known, then the longest overdue or soonest, then plate", () => {
    const list = [
      entry("SOON1", "ending_soon", T + 2 * MIN, 10),
      entry("GRACE1", "in_grace", T + 5 * MIN, null),
      entry("FAR1", "grace_over", T - 20 * MIN, 900),
      entry("NEAR1", "grace_over", T - 2 * MIN, 50),
      entry("NOPOS2", "over_limit", T - 1 * MIN, null),
      entry("NOPOS1", "over_limit", T - 9 * MIN, null),
      entry("HOURS1", "outside_hours", null, null),
      entry("HOURS0", "outside_hours", T + H, null),
      entry("LIMIT1", "limit_soon", T + 1 * MIN, null),
      entry("B", "grace_over", T - 2 * MIN, 50),
    ].sort(patrolOrder);
    expect(list.map((e) => e.plate)).toEqual([
      "B",
      "NEAR1",
      "FAR1",
      "NOPOS1",
      "NOPOS2",
      "HOURS0",
      "HOURS1",
      "GRACE1",
      "SOON1",
      "LIMIT1",
    ]);
  });
});
