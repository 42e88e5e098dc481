import { describe, expect, test } from "bun:test";
import { Problem } from "../../src/domain/errors.ts";
import {
  insideWindows,
  isActive,
  isListed,
  newestFirst,
  ticketNote,
  windowSpans,
} from "../../src/domain/permits/activity.ts";
import { PlateList } from "../../src/domain/permits/plate-list.ts";
import { toWallTime } from "../../src/domain/time/zoned.ts";
import { lookupTarget } from "../../src/modules/enforcement/lookup-params.ts";

const TZ = "Europe/Stockholm";
const at = (iso: string) => Date.parse(iso);
const H = 3_600_000;

describe("active: not canceled, start <= now < end, open end once started", () => {
  const p = { startAt: at("2026-06-15T08:00:00Z"), endAt: at("2026-06-15T10:00:00Z") };
  test("bounds", () => {
    expect(isActive(p, at("2026-06-15T07:59:59.999Z"), TZ)).toBe(false);
    expect(isActive(p, at("2026-06-15T08:00:00Z"), TZ)).toBe(true);
    expect(isActive(p, at("2026-06-15T09:59:59.999Z"), TZ)).toBe(true);
    expect(isActive(p, at("2026-06-15T10:00:00Z"), TZ)).toBe(false);
  });
  test("canceled is never active", () => {
    expect(isActive({ ...p, canceled: true }, at("2026-06-15T09:00:00Z"), TZ)).toBe(false);
  });
  test("open-ended is active once started, for ever", () => {
    const open = { startAt: p.startAt, endAt: null };
    expect(isActive(open, at("2026-06-15T07:00:00Z"), TZ)).toBe(false);
    expect(isActive(open, at("2036-01-01T00:00:00Z"), TZ)).toBe(true);
  });
});

describe("listed: active, or ended within the recent window", () => {
  const now = at("2026-06-15T12:00:00Z");
  const recent = 24 * H;
  const ended = (hoursAgo: number) => ({ startAt: now - 30 * H, endAt: now - hoursAgo * H });
  test("ended 23 h ago: in; 25 h ago: out; exactly 24 h: out", () => {
    expect(isListed(ended(23), now, recent)).toBe(true);
    expect(isListed(ended(25), now, recent)).toBe(false);
    expect(isListed(ended(24), now, recent)).toBe(false);
  });
  test("not yet started: out; canceled: out; open-ended: in", () => {
    expect(isListed({ startAt: now + 1, endAt: null }, now, recent)).toBe(false);
    expect(isListed({ startAt: now - H, endAt: null, canceled: true }, now, recent)).toBe(false);
    expect(isListed({ startAt: now - 1000 * H, endAt: null }, now, recent)).toBe(true);
  });
});

describe("weekly windows in the site time zone", () => {
  const nights = windowSpans([{ weekday: 5, start_time: "22:00:00", end_time: "06:00:00" }])!;
  const period = { startAt: at("2026-01-01T00:00:00Z"), endAt: null, windows: nights };

  test("a window across midnight belongs to the day it starts", () => {
    // 2026-06-12 is a Friday; Stockholm is UTC+2 in June.
    expect(isActive(period, at("2026-06-12T19:59:59Z"), TZ)).toBe(false); // Fri 21:59:59
    expect(isActive(period, at("2026-06-12T20:00:00Z"), TZ)).toBe(true); // Fri 22:00
    expect(isActive(period, at("2026-06-13T03:59:59Z"), TZ)).toBe(true); // Sat 05:59:59
    expect(isActive(period, at("2026-06-13T04:00:00Z"), TZ)).toBe(false); // Sat 06:00
    expect(isActive(period, at("2026-06-13T20:30:00Z"), TZ)).toBe(false); // Sat 22:30: not a Friday
    expect(isActive(period, at("2026-06-12T01:00:00Z"), TZ)).toBe(false); // Fri 03:00: Thursday's night
  });

  test("the weekday is the site's, not UTC's", () => {
    const monday = windowSpans([{ weekday: 1, start_time: "00:00:00", end_time: "02:00:00" }])!;
    const p = { startAt: 0, endAt: null, windows: monday };
    // Sunday 22:30 UTC is Monday 00:30 in Stockholm.
    expect(toWallTime(at("2026-06-14T22:30:00Z"), "UTC").weekday).toBe(7);
    expect(isActive(p, at("2026-06-14T22:30:00Z"), TZ)).toBe(true);
    expect(isActive(p, at("2026-06-14T22:30:00Z"), "UTC")).toBe(false);
  });

  test("spring forward (2026-03-29): the night is an hour shorter, wall-clock bounds hold", () => {
    const saturdayNight = windowSpans([{ weekday: 6, start_time: "22:00:00", end_time: "06:00:00" }])!;
    const p = { startAt: 0, endAt: null, windows: saturdayNight };
    expect(isActive(p, at("2026-03-28T20:59:59Z"), TZ)).toBe(false); // Sat 21:59:59 CET
    expect(isActive(p, at("2026-03-28T21:00:00Z"), TZ)).toBe(true); // Sat 22:00 CET
    expect(isActive(p, at("2026-03-29T00:59:59Z"), TZ)).toBe(true); // Sun 01:59:59 CET
    expect(isActive(p, at("2026-03-29T01:00:00Z"), TZ)).toBe(true); // Sun 03:00 CEST
    expect(isActive(p, at("2026-03-29T03:59:59Z"), TZ)).toBe(true); // Sun 05:59:59 CEST
    expect(isActive(p, at("2026-03-29T04:00:00Z"), TZ)).toBe(false); // Sun 06:00 CEST (7 h, not 8)
  });

  test("spring forward: a window inside the skipped hour never opens", () => {
    const gap = windowSpans([{ weekday: 7, start_time: "02:00:00", end_time: "03:00:00" }])!;
    const p = { startAt: 0, endAt: null, windows: gap };
    expect(isActive(p, at("2026-03-29T00:59:59Z"), TZ)).toBe(false); // 01:59:59 CET
    expect(isActive(p, at("2026-03-29T01:00:00Z"), TZ)).toBe(false); // 03:00 CEST
    // A week later the same window is open for its hour.
    expect(isActive(p, at("2026-04-05T00:30:00Z"), TZ)).toBe(true); // 02:30 CEST
  });

  test("fall back (2026-10-25): the repeated hour is inside both times", () => {
    const early = windowSpans([{ weekday: 7, start_time: "02:00:00", end_time: "03:00:00" }])!;
    const p = { startAt: 0, endAt: null, windows: early };
    expect(isActive(p, at("2026-10-25T00:30:00Z"), TZ)).toBe(true); // 02:30 CEST
    expect(isActive(p, at("2026-10-25T01:30:00Z"), TZ)).toBe(true); // 02:30 CET
    expect(isActive(p, at("2026-10-25T02:00:00Z"), TZ)).toBe(false); // 03:00 CET
    expect(isActive(p, at("2026-10-24T23:59:59Z"), TZ)).toBe(false); // 01:59:59 CEST
  });

  test("whole days, 23:59:59 as end of day, several windows", () => {
    const spans = windowSpans([
      { weekday: 6, start_time: "00:00:00", end_time: "24:00:00" },
      { weekday: 7, start_time: "08:00:00", end_time: "23:59:59" },
    ])!;
    const wall = (iso: string) => toWallTime(at(iso), TZ);
    expect(insideWindows(spans, wall("2026-06-13T21:59:59Z"))).toBe(true); // Sat 23:59:59
    expect(insideWindows(spans, wall("2026-06-13T22:00:00Z"))).toBe(false); // Sun 00:00
    expect(insideWindows(spans, wall("2026-06-14T21:59:59.500Z"))).toBe(true); // Sun 23:59:59.5
    expect(insideWindows(spans, wall("2026-06-14T22:00:00Z"))).toBe(false); // Mon 00:00
  });

  test("Sunday night runs into Monday", () => {
    const sunday = windowSpans([{ weekday: 7, start_time: "20:00:00", end_time: "02:00:00" }])!;
    expect(insideWindows(sunday, toWallTime(at("2026-06-14T23:00:00Z"), TZ))).toBe(true); // Mon 01:00
    expect(insideWindows(sunday, toWallTime(at("2026-06-15T00:00:00Z"), TZ))).toBe(false); // Mon 02:00
  });

  test("outside the period, windows do not matter", () => {
    const p = { startAt: at("2026-07-01T00:00:00Z"), endAt: null, windows: nights };
    expect(isActive(p, at("2026-06-12T21:00:00Z"), TZ)).toBe(false);
  });
});

describe("order and presentation", () => {
  test("newest first: later start first; then open or later end; then a stable tail", () => {
    const e = (startAt: number, endAt: number | null, id: string, source: 0 | 1 = 0) => ({
      startAt,
      endAt,
      plateNorm: "A",
      id,
      source,
    });
    const list = [e(1, 5, "a"), e(3, 4, "b"), e(3, null, "c"), e(3, null, "d", 1), e(2, 9, "e")];
    expect(list.sort(newestFirst).map((x) => x.id)).toEqual(["c", "d", "b", "e", "a"]);
  });

  test("each plate once, as last sent, in Swedish order (Å Ä Ö after Z)", () => {
    const plates = PlateList.sorted([
      { plate: "ÖRN 1", plateNorm: "ÖRN1", startAt: 1 },
      { plate: "abc 123", plateNorm: "ABC123", startAt: 1 },
      { plate: "ABC123", plateNorm: "ABC123", startAt: 5 },
      { plate: "ÅSA 9", plateNorm: "ÅSA9", startAt: 1 },
      { plate: "ÄLG 2", plateNorm: "ÄLG2", startAt: 1 },
      { plate: "ZZZ 9", plateNorm: "ZZZ9", startAt: 1 },
    ]).plates;
    expect(plates).toEqual(["ABC123", "ZZZ 9", "ÅSA 9", "ÄLG 2", "ÖRN 1"]);
  });

  test("a ticket's note says where it came from", () => {
    expect(ticketNote({ ticketId: "42", parkingLotId: 7, lotName: "Torget", status: "running" })).toBe(
      "ticket 42, lot 7 (Torget), running",
    );
    expect(ticketNote({ ticketId: "42", parkingLotId: 7, status: "stopped" })).toBe(
      "ticket 42, lot 7, stopped",
    );
    expect(ticketNote({ ticketId: "42", parkingLotId: null, status: "running" })).toBe("ticket 42, running");
  });
});

describe("check-tickets parameters", () => {
  const kind = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      if (!(e instanceof Problem)) return String(e);
      return `${e.status} ${e.type}`;
    }
    return "ok";
  };
  test("from the query or the body, zone as digits or a number", () => {
    expect(lookupTarget({ zone: "1234" }, undefined)).toEqual({ by: "zone", zone: 1234 });
    expect(lookupTarget({}, { zone: "1234" })).toEqual({ by: "zone", zone: 1234 });
    expect(lookupTarget({}, { zone: 1234 })).toEqual({ by: "zone", zone: 1234 });
    expect(lookupTarget({}, { registration_number: "ab-123 " })).toEqual({
      by: "registration_number",
      plateNorm: "AB123",
    });
    expect(lookupTarget({ zone: "7" }, { zone: 7 })).toEqual({ by: "zone", zone: 7 });
  });
  test("empty strings and nulls count as not given", () => {
    expect(lookupTarget({ zone: "", registration_number: "ABC123" }, undefined)).toEqual({
      by: "registration_number",
      plateNorm: "ABC123",
    });
    expect(lookupTarget({}, { zone: 5, registration_number: null })).toEqual({ by: "zone", zone: 5 });
  });
  test("errors", () => {
    expect(kind(() => lookupTarget({}, undefined))).toBe("400 lookup-parameters");
    expect(kind(() => lookupTarget({ zone: "1" }, { registration_number: "A1" }))).toBe(
      "400 lookup-parameters",
    );
    expect(kind(() => lookupTarget({ zone: "1" }, { zone: "2" }))).toBe("400 bad-request");
    expect(kind(() => lookupTarget({ zone: "12a" }, undefined))).toBe("400 validation");
    expect(kind(() => lookupTarget({}, { zone: 1.5 }))).toBe("400 validation");
    expect(kind(() => lookupTarget({}, { zone: -1 }))).toBe("400 validation");
    expect(kind(() => lookupTarget({}, { zone: true }))).toBe("400 validation");
    expect(kind(() => lookupTarget({}, { registration_number: 123 }))).toBe("400 validation");
    expect(kind(() => lookupTarget({}, { registration_number: " - . " }))).toBe("400 validation");
    expect(kind(() => lookupTarget({}, [1]))).toBe("400 validation");
    expect(kind(() => lookupTarget({}, "zone"))).toBe("400 validation");
  });
});
