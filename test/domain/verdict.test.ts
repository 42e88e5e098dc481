import { describe, expect, test } from "bun:test";
import { isActive, type PermitWindow, windowSpans } from "../../src/domain/permits/activity.ts";
import { validSpans } from "../../src/domain/permits/spans.ts";
import { type VerdictState, verdict, type ZonedPermit } from "../../src/domain/permits/verdict.ts";

const TZ = "Europe/Stockholm";
const at = (iso: string) => Date.parse(iso);
const MIN = 60_000;
const HERE = 1002;

interface P extends ZonedPermit {
  id: string;
}
const permit = (
  id: string,
  zone: number,
  start: string,
  end: string | null,
  days?: PermitWindow[],
  canceled = false,
): P => ({
  id,
  zone,
  startAt: at(start),
  endAt: end === null ? null : at(end),
  windows: days ? windowSpans(days) : null,
  canceled,
});
const win = (weekday: number, start_time: string, end_time: string): PermitWindow => ({
  weekday,
  start_time,
  end_time,
});

interface Case {
  name: string;
  now: string;
  permits: P[];
  grace?: number;
  state: VerdictState;
  validUntil?: string | null;
  nextOpening?: string | null;
  endedAt?: string;
  zones?: number[];
}

// 2026-06-15 is a Monday; Stockholm is UTC+2 in summer, UTC+1 in winter.
const longPermit = (days: PermitWindow[], zone = HERE) =>
  permit("p", zone, "2026-01-01T00:00:00Z", "2027-06-30T00:00:00Z", days);

const cases: Case[] = [
  {
    name: "a running ticket here, open-ended",
    now: "2026-06-15T10:00:00Z",
    permits: [permit("t", HERE, "2026-06-15T09:00:00Z", null)],
    state: "valid_here",
    validUntil: null,
  },
  {
    name: "a ticket here until its end",
    now: "2026-06-15T10:00:00Z",
    permits: [permit("t", HERE, "2026-06-15T09:00:00Z", "2026-06-15T12:30:00Z")],
    state: "valid_here",
    validUntil: "2026-06-15T12:30:00Z",
  },
  {
    name: "a ticket for another zone is not valid here",
    now: "2026-06-15T10:00:00Z",
    permits: [permit("t", 1001, "2026-06-15T09:00:00Z", "2026-06-15T11:00:00Z")],
    state: "valid_elsewhere",
    zones: [1001],
    validUntil: "2026-06-15T11:00:00Z",
  },
  {
    name: "Monday 21:00-24:00 inside its window: valid until midnight, not the permit's end",
    now: "2026-06-15T20:00:00Z", // Mon 22:00
    permits: [longPermit([win(1, "21:00:00", "24:00:00")])],
    state: "valid_here",
    validUntil: "2026-06-15T22:00:00Z", // Tue 00:00
  },
  {
    name: "Monday 21:00-24:00 outside its window: outside hours, opening next Monday",
    now: "2026-06-16T08:00:00Z", // Tue 10:00
    permits: [longPermit([win(1, "21:00:00", "24:00:00")])],
    state: "outside_hours",
    nextOpening: "2026-06-22T19:00:00Z", // Mon 21:00
  },
  {
    name: "23:59:59 as the end is the end of the day too",
    now: "2026-06-14T10:00:00Z", // Sun 12:00
    permits: [longPermit([win(7, "08:00:00", "23:59:59")])],
    state: "valid_here",
    validUntil: "2026-06-14T22:00:00Z", // Mon 00:00
  },
  {
    name: "a window across midnight ends on the next day",
    now: "2026-06-12T21:00:00Z", // Fri 23:00
    permits: [longPermit([win(5, "22:00:00", "06:00:00")])],
    state: "valid_here",
    validUntil: "2026-06-13T04:00:00Z", // Sat 06:00
  },
  {
    name: "after midnight, the window started yesterday still holds",
    now: "2026-06-13T03:59:59Z", // Sat 05:59:59
    permits: [longPermit([win(5, "22:00:00", "06:00:00")])],
    state: "valid_here",
    validUntil: "2026-06-13T04:00:00Z",
  },
  {
    name: "Monday evening and Tuesday's early hours join into one stretch",
    now: "2026-06-15T20:00:00Z", // Mon 22:00
    permits: [longPermit([win(1, "21:00:00", "24:00:00"), win(2, "00:00:00", "06:00:00")])],
    state: "valid_here",
    validUntil: "2026-06-16T04:00:00Z", // Tue 06:00
  },
  {
    name: "spring forward: the Saturday night ends at 06:00 summer time",
    now: "2026-03-28T22:00:00Z", // Sat 23:00 CET
    permits: [longPermit([win(6, "22:00:00", "06:00:00")])],
    state: "valid_here",
    validUntil: "2026-03-29T04:00:00Z", // Sun 06:00 CEST
  },
  {
    name: "spring forward: a window inside the skipped hour opens a week later",
    now: "2026-03-28T12:00:00Z",
    permits: [longPermit([win(7, "02:00:00", "03:00:00")])],
    state: "outside_hours",
    nextOpening: "2026-04-05T00:00:00Z", // Sun 02:00 CEST
  },
  {
    name: "fall back: a window ending in the repeated hour ends at its first 02:30",
    now: "2026-10-24T22:30:00Z", // Sun 00:30 CEST
    permits: [longPermit([win(7, "00:00:00", "02:30:00")])],
    state: "valid_here",
    validUntil: "2026-10-25T00:30:00Z", // 02:30 CEST
  },
  {
    name: "fall back: ... and opens again when the clock shows 02:00 a second time",
    now: "2026-10-25T00:45:00Z", // 02:45 CEST
    permits: [longPermit([win(7, "00:00:00", "02:30:00")])],
    state: "outside_hours",
    nextOpening: "2026-10-25T01:00:00Z", // 02:00 CET
  },
  {
    name: "fall back: the night window is an hour longer",
    now: "2026-10-24T21:00:00Z", // Sat 23:00 CEST
    permits: [longPermit([win(6, "22:00:00", "06:00:00")])],
    state: "valid_here",
    validUntil: "2026-10-25T05:00:00Z", // Sun 06:00 CET
  },
  {
    name: "the permit's period ends inside a window",
    now: "2026-06-15T20:00:00Z",
    permits: [
      permit("p", HERE, "2026-01-01T00:00:00Z", "2026-06-15T21:00:00Z", [win(1, "21:00:00", "24:00:00")]),
    ],
    state: "valid_here",
    validUntil: "2026-06-15T21:00:00Z",
  },
  {
    name: "outside hours with no window left before the period ends",
    now: "2026-06-16T08:00:00Z",
    permits: [
      permit("p", HERE, "2026-01-01T00:00:00Z", "2026-06-20T00:00:00Z", [win(1, "21:00:00", "24:00:00")]),
    ],
    state: "outside_hours",
    nextOpening: null,
  },
  {
    name: "windows covering the whole week last to the permit's end",
    now: "2026-06-15T10:00:00Z",
    permits: [longPermit([1, 2, 3, 4, 5, 6, 7].map((d) => win(d, "00:00:00", "24:00:00")))],
    state: "valid_here",
    validUntil: "2027-06-30T00:00:00Z",
  },
  {
    name: "grace: ended 4 min ago with 5 min of grace",
    now: "2026-06-15T10:04:00Z",
    grace: 5,
    permits: [permit("t", HERE, "2026-06-15T09:00:00Z", "2026-06-15T10:00:00Z")],
    state: "grace",
    endedAt: "2026-06-15T10:00:00Z",
    validUntil: "2026-06-15T10:05:00Z",
  },
  {
    name: "grace: ended at this very instant",
    now: "2026-06-15T10:00:00Z",
    grace: 5,
    permits: [permit("t", HERE, "2026-06-15T09:00:00Z", "2026-06-15T10:00:00Z")],
    state: "grace",
    validUntil: "2026-06-15T10:05:00Z",
  },
  {
    name: "grace: exactly the grace period ago is over",
    now: "2026-06-15T10:05:00Z",
    grace: 5,
    permits: [permit("t", HERE, "2026-06-15T09:00:00Z", "2026-06-15T10:00:00Z")],
    state: "none",
  },
  {
    name: "grace 0 is off",
    now: "2026-06-15T10:00:00Z",
    permits: [permit("t", HERE, "2026-06-15T09:00:00Z", "2026-06-15T10:00:00Z")],
    state: "none",
  },
  {
    name: "grace after a weekly window closed",
    now: "2026-06-15T22:02:00Z", // Tue 00:02
    grace: 5,
    permits: [longPermit([win(1, "21:00:00", "24:00:00")])],
    state: "grace",
    endedAt: "2026-06-15T22:00:00Z",
  },
  {
    name: "grace is for this zone only; elsewhere it is none",
    now: "2026-06-15T10:01:00Z",
    grace: 5,
    permits: [permit("t", 1001, "2026-06-15T09:00:00Z", "2026-06-15T10:00:00Z")],
    state: "none",
  },
  {
    name: "several: a ticket until 14:00 and a permit window from 13:00 to 18:00 join",
    now: "2026-06-15T10:00:00Z", // Mon 12:00
    permits: [
      permit("t", HERE, "2026-06-15T09:00:00Z", "2026-06-15T12:00:00Z"),
      longPermit([win(1, "13:00:00", "18:00:00")]),
    ],
    state: "valid_here",
    validUntil: "2026-06-15T16:00:00Z",
  },
  {
    name: "several: valid here beats valid elsewhere",
    now: "2026-06-15T10:00:00Z",
    permits: [
      permit("a", 1001, "2026-06-15T09:00:00Z", null),
      permit("b", HERE, "2026-06-15T09:00:00Z", "2026-06-15T11:00:00Z"),
    ],
    state: "valid_here",
    validUntil: "2026-06-15T11:00:00Z",
  },
  {
    name: "several: grace here beats valid elsewhere",
    now: "2026-06-15T10:01:00Z",
    grace: 5,
    permits: [
      permit("a", 1001, "2026-06-15T09:00:00Z", null),
      permit("b", HERE, "2026-06-15T09:00:00Z", "2026-06-15T10:00:00Z"),
    ],
    state: "grace",
  },
  {
    name: "several: valid elsewhere beats outside hours here; the zones in order, the latest end",
    now: "2026-06-16T08:00:00Z",
    permits: [
      longPermit([win(1, "21:00:00", "24:00:00")]),
      permit("a", 1003, "2026-06-16T07:00:00Z", "2026-06-16T09:00:00Z"),
      permit("b", 1001, "2026-06-16T07:00:00Z", "2026-06-16T10:00:00Z"),
    ],
    state: "valid_elsewhere",
    zones: [1001, 1003],
    validUntil: "2026-06-16T10:00:00Z",
  },
  {
    name: "several: two permits outside hours here, the earliest opening",
    now: "2026-06-16T08:00:00Z", // Tue 10:00
    permits: [longPermit([win(1, "21:00:00", "24:00:00")]), longPermit([win(3, "07:00:00", "09:00:00")])],
    state: "outside_hours",
    nextOpening: "2026-06-17T05:00:00Z", // Wed 07:00
  },
  {
    name: "a canceled ticket counts for nothing",
    now: "2026-06-15T10:00:00Z",
    permits: [permit("t", HERE, "2026-06-15T09:00:00Z", null, undefined, true)],
    state: "none",
  },
  {
    name: "nothing at all",
    now: "2026-06-15T10:00:00Z",
    permits: [],
    state: "none",
  },
];

describe("the verdict for a car in the attendant's zone", () => {
  for (const c of cases)
    test(c.name, () => {
      const v = verdict(c.permits, HERE, at(c.now), TZ, (c.grace ?? 0) * MIN);
      expect(v.state).toBe(c.state);
      const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString().replace(".000Z", "Z"));
      if (c.validUntil !== undefined) expect(iso(v.validUntil)).toBe(c.validUntil);
      if (c.nextOpening !== undefined) expect(iso(v.nextOpening)).toBe(c.nextOpening);
      if (c.endedAt !== undefined) expect(iso(v.endedAt)).toBe(c.endedAt);
      expect(v.zones).toEqual(c.zones ?? []);
      expect(v.permits.map((f) => f.permit)).toEqual(c.permits);
    });
});

describe("each permit's own state", () => {
  test("valid, grace, outside hours, ended, upcoming", () => {
    const now = at("2026-06-16T08:00:00Z");
    const v = verdict(
      [
        permit("valid", 1001, "2026-06-16T07:00:00Z", "2026-06-16T09:00:00Z"),
        permit("grace", HERE, "2026-06-16T07:00:00Z", "2026-06-16T07:58:00Z"),
        longPermit([win(1, "21:00:00", "24:00:00")]),
        permit("ended", HERE, "2026-06-16T06:00:00Z", "2026-06-16T07:00:00Z"),
        permit("upcoming", HERE, "2026-06-16T09:00:00Z", null),
      ],
      HERE,
      now,
      TZ,
      5 * MIN,
    );
    expect(v.permits.map((f) => f.state)).toEqual(["valid", "grace", "outside_hours", "ended", "upcoming"]);
    expect(v.permits[4]!.nextOpening).toBe(at("2026-06-16T09:00:00Z"));
    expect(v.state).toBe("grace");
  });
});

describe("valid stretches agree with isActive", () => {
  test("every minute of a DST week, windows across midnight and in the changed hours", () => {
    const p = longPermit([
      win(6, "22:00:00", "02:30:00"),
      win(7, "01:30:00", "03:00:00"),
      win(7, "23:00:00", "24:00:00"),
    ]);
    for (const from of [at("2026-03-27T00:00:00Z"), at("2026-10-23T00:00:00Z")]) {
      const to = from + 4 * 86_400_000;
      const spans = validSpans(p, from, to, TZ);
      const inSpans = (t: number) => spans.some((s) => s.start <= t && t < s.end);
      const wall = (t: number) => isActive(p, t, TZ);
      for (let t = from; t < to; t += 5 * MIN) expect([t, inSpans(t)]).toEqual([t, wall(t)]);
    }
  });
});
