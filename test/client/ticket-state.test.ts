import { describe, expect, test } from "bun:test";
import { ticketState } from "../../src/client/console/ticket-state.ts";

const NOW = Date.parse("2026-06-15T12:00:00Z");
const at = (h: number) => new Date(NOW + h * 3_600_000).toISOString();

describe("a ticket's state is read from time and events", () => {
  test.each([
    ["running, ends later", "running", at(-1), at(1), "active"],
    ["running, open-ended", "running", at(-1), null, "active"],
    ["running, ended an hour ago", "running", at(-3), at(-1), "ended"],
    ["running, ends this very moment", "running", at(-3), at(0), "ended"],
    ["stopped", "stopped", at(-3), at(-2), "ended"],
    ["stopped early, its old end still ahead", "stopped", at(-3), at(2), "ended"],
    ["canceled", "canceled", at(-3), at(2), "canceled"],
    ["canceled before it started", "canceled", at(2), at(3), "canceled"],
    ["starts in an hour", "running", at(1), at(2), "not_started"],
  ] as const)("%s", (_, status, start_at, end_at, state) => {
    expect(ticketState({ status, start_at, end_at }, NOW)).toBe(state);
  });
});
