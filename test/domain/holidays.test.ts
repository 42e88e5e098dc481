import { describe, expect, test } from "bun:test";
import {
  easterSunday,
  holidayCalendar,
  holidayEntryProblem,
  swedishPublicHolidays,
} from "../../src/domain/tariff/holidays.ts";

describe("Easter", () => {
  // Known Easter Sundays (Gregorian), including the earliest (22 March) and latest (25 April) cases.
  test.each([
    [2024, 3, 31],
    [2025, 4, 20],
    [2026, 4, 5],
    [2027, 3, 28],
    [2038, 4, 25],
    [2285, 3, 22],
    [2000, 4, 23],
  ])("%i", (year, month, day) => {
    expect(easterSunday(year)).toEqual({ year, month, day });
  });
});

describe("Swedish public holidays", () => {
  test("2026, by hand from the calendar", () => {
    expect(swedishPublicHolidays(2026)).toEqual([
      "2026-01-01", // New Year's Day
      "2026-01-06", // Epiphany
      "2026-04-03", // Good Friday (Easter 5 April)
      "2026-04-05", // Easter Sunday
      "2026-04-06", // Easter Monday
      "2026-05-01", // May Day
      "2026-05-14", // Ascension: Easter + 39
      "2026-05-24", // Whitsunday: Easter + 49
      "2026-06-06", // National Day
      "2026-06-19", // Midsummer Eve: Friday 19-25 June
      "2026-06-20", // Midsummer Day
      "2026-10-31", // All Saints' Day: Saturday 31 Oct - 6 Nov
      "2026-12-24",
      "2026-12-25",
      "2026-12-26",
      "2026-12-31",
    ]);
  });

  test("2025: Midsummer on 20/21 June, All Saints on 1 November", () => {
    const days = swedishPublicHolidays(2025);
    expect(days).toContain("2025-06-20");
    expect(days).toContain("2025-06-21");
    expect(days).toContain("2025-11-01");
    expect(days).toContain("2025-04-18"); // Good Friday
    expect(days).toContain("2025-05-29"); // Ascension
    expect(days).toHaveLength(16);
  });

  test("Midsummer Eve is always a Friday and All Saints' Day a Saturday", () => {
    for (let year = 1990; year < 2100; year++) {
      const days = swedishPublicHolidays(year);
      const weekday = (d: string) => new Date(`${d}T00:00:00Z`).getUTCDay();
      const eve = days.find((d) => d.slice(5, 7) === "06" && d.slice(8) >= "19" && d.slice(8) <= "25")!;
      expect(weekday(eve)).toBe(5);
      const saints = days.find((d) => d.endsWith("-10-31") || /-11-0[1-6]$/.test(d))!;
      expect(weekday(saints)).toBe(6);
    }
  });
});

describe("holiday calendar from configuration", () => {
  test("SE covers every year; dates add to it; without SE only the dates count", () => {
    const both = holidayCalendar(["SE", "2026-08-15"]);
    expect(both({ year: 2031, month: 12, day: 25 })).toBe(true);
    expect(both({ year: 2026, month: 8, day: 15 })).toBe(true);
    expect(both({ year: 2026, month: 8, day: 14 })).toBe(false);
    const only = holidayCalendar(["2026-08-15"]);
    expect(only({ year: 2026, month: 12, day: 25 })).toBe(false);
    expect(only({ year: 2026, month: 8, day: 15 })).toBe(true);
    expect(holidayCalendar([])({ year: 2026, month: 1, day: 1 })).toBe(false);
  });

  test("entries are checked", () => {
    expect(holidayEntryProblem("SE")).toBeNull();
    expect(holidayEntryProblem("2026-02-28")).toBeNull();
    expect(holidayEntryProblem("2026-02-30")).toContain("not a date");
    expect(holidayEntryProblem("26-02-01")).toContain("neither");
    expect(holidayEntryProblem(20260101)).toContain("not a string");
  });
});
