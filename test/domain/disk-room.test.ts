import { describe, expect, test } from "bun:test";
import {
  daysToKeep,
  defaultReserveBytes,
  photoFits,
  roomForRecords,
  roomState,
} from "../../src/domain/disk-room.ts";

const MB = 1_048_576;
const GB = 1024 * MB;

describe("the reserve kept for ticket events", () => {
  test.each([
    { size: 1 * GB, reserve: 256 * MB, what: "a small card: at least 256 MB" },
    { size: 16 * GB, reserve: 819.2 * MB, what: "a 16 GB card: a twentieth" },
    { size: 64 * GB, reserve: 2048 * MB, what: "a large disk: at most 2 GB" },
    { size: 300 * MB, reserve: 75 * MB, what: "a small disk: never over a quarter of it" },
  ])("$what", ({ size, reserve }) => {
    expect(defaultReserveBytes(size)).toBe(Math.round(reserve));
  });
});

describe("the room the disk has for records", () => {
  const reserve = 100 * MB;
  test.each([
    { free: 500, reusable: 0, state: "ample" },
    { free: 150, reusable: 60, state: "ample" }, // the store's freed pages count
    { free: 200, reusable: 0, state: "near" },
    { free: 101, reusable: 0, state: "near" },
    { free: 100, reusable: 0, state: "at" },
    { free: 40, reusable: 0, state: "at" },
    { free: 40, reusable: 70, state: "near" },
  ])("$free MB free and $reusable MB reusable: $state", ({ free, reusable, state }) => {
    const room = { freeBytes: free * MB, reusableBytes: reusable * MB, sizeBytes: 10 * GB };
    expect(roomState(room, reserve)).toBe(state as never);
    expect(roomForRecords(room)).toBe((free + reusable) * MB);
  });

  test("no reserve kept (0): the disk never reads as at it, even full", () => {
    expect(roomState({ freeBytes: 0, reusableBytes: 0, sizeBytes: GB }, 0)).toBe("ample");
  });

  test.each([
    { free: 300, photo: 5, fits: true },
    { free: 104, photo: 5, fits: false },
    { free: 105, photo: 5, fits: false }, // exactly down to the reserve: no
    { free: 106, photo: 5, fits: true },
  ])("a photo of $photo MB with $free MB free fits: $fits", ({ free, photo, fits }) => {
    expect(photoFits({ freeBytes: free * MB }, photo * MB, 100 * MB)).toBe(fits);
  });
});

describe("the days retention keeps", () => {
  const setting = { retentionDays: 90, minDays: 7 };
  const reserve = 100 * MB;
  test.each([
    { state: "at", left: 90, kept: 90, days: 89, what: "at the reserve: a day fewer" },
    { state: "at", left: 90, kept: 30, days: 29, what: "and again from where it is" },
    { state: "at", left: 90, kept: 7, days: 7, what: "never under the minimum" },
    { state: "near", left: 140, kept: 30, days: 30, what: "just over the reserve: held where it is" },
    {
      state: "near",
      left: 151,
      kept: 30,
      days: 90,
      what: "room again (over 1.5 times the reserve): the setting",
    },
    { state: "ample", left: 500, kept: 30, days: 90, what: "plenty of room: the setting" },
    { state: "at", left: 50, kept: 120, days: 89, what: "a count above the setting starts from the setting" },
  ])("$what", ({ state, left, kept, days }) => {
    expect(daysToKeep(state as never, left * MB, reserve, kept, setting)).toBe(days);
  });
});
