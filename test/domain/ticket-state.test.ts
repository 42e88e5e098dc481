import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { ticketState } from "../../src/client/console/ticket-state.ts";
import { TICKET_STATE_SQL, TICKET_STATES, ticketStateAt } from "../../src/domain/tickets/state.ts";

const NOW = Date.parse("2026-06-15T12:00:00Z");
const at = (h: number) => NOW + h * 3_600_000;

const CASES = [
  ["running, ends later", "running", at(-1), at(1), "active"],
  ["running, open-ended", "running", at(-1), null, "active"],
  ["running, ended an hour ago", "running", at(-3), at(-1), "ended"],
  ["running, ends this very moment", "running", at(-3), at(0), "ended"],
  ["stopped", "stopped", at(-3), at(-2), "ended"],
  ["stopped early, its old end still ahead", "stopped", at(-3), at(2), "ended"],
  ["stopped, open-ended", "stopped", at(-3), null, "ended"],
  ["canceled", "canceled", at(-3), at(2), "canceled"],
  ["canceled before it started", "canceled", at(2), at(3), "canceled"],
  ["starts in an hour", "running", at(1), at(2), "not_started"],
  ["stopped before it started", "stopped", at(1), at(2), "not_started"],
] as const;

describe("a ticket's state, the one vocabulary of the search, its filter and the console", () => {
  test.each(CASES)("%s", (_, status, startAt, endAt, state) => {
    expect(ticketStateAt({ status, startAt, endAt }, NOW)).toBe(state);
    // The console reads the same rule in the browser.
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    expect(ticketState({ status, start_at: iso(startAt)!, end_at: iso(endAt) }, NOW)).toBe(state);
  });

  test("the SQL terms find exactly the tickets the rule names, each in one state", () => {
    const db = new Database(":memory:");
    db.run("CREATE TABLE tickets (id TEXT, status TEXT, start_at INTEGER, end_at INTEGER)");
    for (const [id, status, start, end] of CASES)
      db.prepare("INSERT INTO tickets VALUES (?1, ?2, ?3, ?4)").run(id, status, start, end);
    for (const state of TICKET_STATES) {
      const found = db
        .prepare<{ id: string }, { now: number }>(`SELECT id FROM tickets WHERE ${TICKET_STATE_SQL[state]}`)
        .all({ now: NOW })
        .map((r) => r.id);
      expect(found).toEqual(CASES.filter((c) => c[4] === state).map((c) => c[0]));
    }
  });
});
