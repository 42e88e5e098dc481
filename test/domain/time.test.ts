import { describe, expect, test } from "bun:test";
import { normalizePlate } from "../../src/domain/plates.ts";
import {
  formatMicros,
  fromWallTime,
  intlWallTime,
  offsetAt,
  parseInstant,
  parseTimeOfDay,
  startOfDay,
  startOfNextDay,
  toWallTime,
} from "../../src/domain/time/zoned.ts";
import { seeded } from "../support/random.ts";

const STHLM = "Europe/Stockholm";

describe("zoned time", () => {
  test("offsets in Stockholm: +1 in winter, +2 in summer", () => {
    expect(offsetAt(Date.parse("2026-01-15T12:00:00Z"), STHLM)).toBe(3_600_000);
    expect(offsetAt(Date.parse("2026-07-15T12:00:00Z"), STHLM)).toBe(7_200_000);
  });

  test("wall time round trip and weekday", () => {
    const t = fromWallTime(STHLM, 2026, 11, 21, 14, 30);
    expect(new Date(t).toISOString()).toBe("2026-11-21T13:30:00.000Z");
    const w = toWallTime(t, STHLM);
    expect([w.hour, w.minute, w.weekday]).toEqual([14, 30, 6]);
  });

  test("spring forward (2026-03-29): 02:30 does not exist and maps past the gap; the day is 23 h", () => {
    const t = fromWallTime(STHLM, 2026, 3, 29, 2, 30);
    expect(new Date(t).toISOString()).toBe("2026-03-29T01:30:00.000Z"); // 03:30 CEST
    const day = startOfDay(Date.parse("2026-03-29T12:00:00Z"), STHLM);
    expect(startOfNextDay(day, STHLM) - day).toBe(23 * 3_600_000);
  });

  test("fall back (2026-10-25): 02:30 happens twice, the first is chosen; the day is 25 h", () => {
    const t = fromWallTime(STHLM, 2026, 10, 25, 2, 30);
    expect(new Date(t).toISOString()).toBe("2026-10-25T00:30:00.000Z"); // 02:30 CEST
    const day = startOfDay(Date.parse("2026-10-25T12:00:00Z"), STHLM);
    expect(startOfNextDay(day, STHLM) - day).toBe(25 * 3_600_000);
  });

  test("parseInstant: offsets, Z, and wall time in the site zone", () => {
    expect(parseInstant("2026-06-15T10:00:00+02:00", STHLM)).toBe(Date.parse("2026-06-15T08:00:00Z"));
    expect(parseInstant("2026-06-15T10:00:00+0200", STHLM)).toBe(Date.parse("2026-06-15T08:00:00Z"));
    expect(parseInstant("2026-06-15T08:00:00.123456Z", STHLM)).toBe(Date.parse("2026-06-15T08:00:00.123Z"));
    expect(parseInstant("2026-06-15T10:00:00", STHLM)).toBe(Date.parse("2026-06-15T08:00:00Z"));
    expect(parseInstant("2026-01-15 10:00", STHLM)).toBe(Date.parse("2026-01-15T09:00:00Z"));
    for (const bad of [
      "",
      "yesterday",
      "2026-02-30T10:00:00Z",
      "2026-06-15T25:00:00Z",
      "2026-13-01",
      "12,50",
    ])
      expect(parseInstant(bad, STHLM)).toBeNull();
  });

  test("formatMicros has six fractional digits", () => {
    expect(formatMicros(Date.parse("2026-06-15T08:00:00.123Z"))).toBe("2026-06-15T08:00:00.123000Z");
  });

  test("parseTimeOfDay", () => {
    expect(parseTimeOfDay("00:00:00")).toBe(0);
    expect(parseTimeOfDay("23:59:59")).toBe(86_399);
    expect(parseTimeOfDay("24:00:00")).toBe(86_400);
    for (const bad of ["24:00:01", "7:00:00", "07:60:00", "07:00"]) expect(parseTimeOfDay(bad)).toBeNull();
  });
});

describe("plate normalization", () => {
  test("spaces, hyphens, dots and case do not matter; Swedish letters stay", () => {
    for (const p of ["ab-123 ", "AB 123", "ab123", "a.b.1.2.3", "ＡＢ１２３"])
      expect(normalizePlate(p)).toBe("AB123");
    expect(normalizePlate("åäö 12")).toBe("ÅÄÖ12");
  });
});

describe("wall time from cached offsets", () => {
  test("agrees with Intl in zones with odd offsets and DST rules, across their changes", () => {
    const { rand } = seeded(7);
    const zones = [
      "Europe/Stockholm",
      "America/New_York",
      "Australia/Lord_Howe",
      "Asia/Kathmandu",
      "Pacific/Chatham",
      "UTC",
    ];
    const from = Date.parse("2025-01-01T00:00:00Z");
    const span = Date.parse("2028-01-01T00:00:00Z") - from;
    for (const tz of zones) {
      for (let i = 0; i < 3000; i++) {
        const t = from + Math.floor(rand() * span);
        expect(toWallTime(t, tz)).toEqual(intlWallTime(t, tz));
      }
    }
    // Every minute around Stockholm's two changes in 2026.
    for (const edge of ["2026-03-29T01:00:00Z", "2026-10-25T01:00:00Z"])
      for (let m = -90; m <= 90; m++) {
        const t = Date.parse(edge) + m * 60_000 + 17_123;
        expect(toWallTime(t, STHLM)).toEqual(intlWallTime(t, STHLM));
      }
  });
});
