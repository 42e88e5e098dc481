import { describe, expect, test } from "bun:test";
import { type ChangeFilter, changePageSql } from "../../../src/platform/store/changes.ts";
import { openMemoryStore } from "../../../src/platform/store/db.ts";
import {
  type LookupFilter,
  lookupPageSql,
  RECORD_BELOW_SQL,
  SAME_RECORD_SQL,
} from "../../../src/platform/store/lookups.ts";
import { PERMIT_LOOKUP_SQL } from "../../../src/platform/store/permits.ts";
import { LAST_EVENT_BY_SENDER_SQL, TICKET_LOOKUP_SQL } from "../../../src/platform/store/tickets/records.ts";
import { OCCUPANCY_SQL } from "../../../src/platform/store/tickets/reports.ts";

const LOOKUP_SQL = { ...TICKET_LOOKUP_SQL, ...PERMIT_LOOKUP_SQL };

/** The attendant's hot path must be index searches, never a scan of the ticket history. */
describe("lookup queries are served from indexes", () => {
  const store = openMemoryStore();
  const plan = (name: keyof typeof LOOKUP_SQL) => {
    const sql = LOOKUP_SQL[name];
    const args = [...new Set(sql.match(/\?\d+/g))].map(() => 1);
    return (store.sqlite.query(`EXPLAIN QUERY PLAN ${sql}`).all(...(args as [])) as { detail: string }[])
      .map((r) => r.detail)
      .join(" | ");
  };

  test("by plate: the plate index (which also holds end_at, start_at, status) for tickets, plate_norm for permits", () => {
    expect(plan("ticketsByPlate")).toMatch(
      /^SEARCH tickets USING INDEX tickets_plate_norm \(plate_norm=\?\)$/,
    );
    expect(plan("permitsByPlate")).toMatch(
      /^SEARCH permits USING INDEX permits_plate_norm \(plate_norm=\?\)$/,
    );
  });

  test("by zone: a range on (zone, end_at), and the open-ended ones by (zone, end_at IS NULL)", () => {
    expect(plan("ticketsInZoneEnding")).toBe(
      "SEARCH tickets USING INDEX tickets_zone_time (zone=? AND end_at>?)",
    );
    expect(plan("ticketsInZoneOpen")).toBe(
      "SEARCH tickets USING INDEX tickets_zone_time (zone=? AND end_at=?)",
    );
    expect(plan("permitsInZoneEnding")).toBe("SEARCH permits USING INDEX permits_zone (zone=? AND end_at>?)");
    expect(plan("permitsInZoneOpen")).toBe("SEARCH permits USING INDEX permits_zone (zone=? AND end_at=?)");
  });
});

/** Occupancy reads the stays of a range from two indexes alone, never the table (issue 25). */
describe("occupancy queries read covering indexes", () => {
  const store = openMemoryStore();
  const plan = (sql: string) => {
    const args = [...new Set(sql.match(/\?\d+/g))].map(() => 1);
    return (store.sqlite.query(`EXPLAIN QUERY PLAN ${sql}`).all(...(args as [])) as { detail: string }[])
      .map((r) => r.detail)
      .join(" | ");
  };

  test("recent stays: a range on tickets_start; long stays: the partial tickets_long_stay", () => {
    expect(plan(OCCUPANCY_SQL.recentStays)).toBe(
      "SEARCH tickets USING COVERING INDEX tickets_start (start_at>? AND start_at<?)",
    );
    expect(plan(OCCUPANCY_SQL.longStays)).toBe(
      "SEARCH tickets USING COVERING INDEX tickets_long_stay (start_at<?)",
    );
  });
});

/** The change history's pages: one record's history, one actor's writes, a date range. */
describe("change history pages are served from indexes", () => {
  const store = openMemoryStore();
  const plan = (filter: ChangeFilter) => {
    const sql = changePageSql(filter);
    const names = [...new Set(sql.match(/\$\w+/g))].map((n) => n.slice(1));
    const args = Object.fromEntries(names.map((n) => [n, n === "subject" ? "lot" : 1]));
    return (store.sqlite.query(`EXPLAIN QUERY PLAN ${sql}`).all(args as never) as { detail: string }[])
      .map((r) => r.detail)
      .join(" | ");
  };

  test("one record: (subject, subject_id, id), newest first without a sort", () => {
    expect(plan({ subject: "lot", subjectId: "3" })).toBe(
      "SEARCH operator_changes USING INDEX operator_changes_subject (subject=? AND subject_id=? AND id<?)",
    );
    expect(plan({ subject: "lot", subjectId: "3", from: 1, to: 2 })).toBe(
      "SEARCH operator_changes USING INDEX operator_changes_subject (subject=? AND subject_id=? AND id<?)",
    );
  });

  test("one actor: (actor, id); one kind: (subject, id); everything: the primary key; a date range: (at)", () => {
    expect(plan({ actor: "user:anna" })).toBe(
      "SEARCH operator_changes USING INDEX operator_changes_actor (actor=? AND id<?)",
    );
    expect(plan({})).toBe("SEARCH operator_changes USING INTEGER PRIMARY KEY (rowid<?)");
    expect(plan({ subject: "permit" })).toBe(
      "SEARCH operator_changes USING INDEX operator_changes_kind (subject=? AND id<?)",
    );
    // A date range is read through (at) and sorted: the range bounds the sort
    expect(plan({ from: 1, to: 2 })).toBe(
      "SEARCH operator_changes USING INDEX operator_changes_at (at>? AND at<?) | USE TEMP B-TREE FOR ORDER BY",
    );
  });
});

/** The audit's pages: one plate's lookups and verdicts, one credential's, a date range. */
describe("lookup record pages are served from indexes", () => {
  const store = openMemoryStore();
  const plan = (filter: LookupFilter) => {
    const sql = lookupPageSql(filter);
    const names = [...new Set(sql.match(/\$\w+/g))].map((n) => n.slice(1));
    const args = Object.fromEntries(
      names.map((n) => [n, n === "plate" || n.startsWith("verdict") ? "ABC1" : 1]),
    );
    return (store.sqlite.query(`EXPLAIN QUERY PLAN ${sql}`).all(args as never) as { detail: string }[])
      .map((r) => r.detail)
      .join(" | ");
  };

  test("a plate: its lookups and its verdicts in a list of stretches, each a search on (stretch, query, id)", () => {
    expect(plan({ plate: "ABC1" })).toBe(
      "MULTI-INDEX OR | INDEX 1 | SEARCH permit_lookups USING INDEX permit_lookups_plate (<expr>=? AND query=? AND id<?) | INDEX 2 | SEARCH permit_lookups USING INDEX permit_lookups_plate (<expr>=? AND query>? AND query<?) | USE TEMP B-TREE FOR ORDER BY",
    );
    expect(plan({ plate: "ABC1", from: 1, credential: "token:handheld-1" })).toContain(
      "permit_lookups_plate (<expr>=? AND query=? AND id<?)",
    );
  });

  test("a plate's next stretches start at the newest record below: one search of the primary key", () => {
    const plan = (
      store.sqlite.query(`EXPLAIN QUERY PLAN ${RECORD_BELOW_SQL}`).all(1 as never) as { detail: string }[]
    )
      .map((r) => r.detail)
      .join(" | ");
    expect(plan).toBe("SEARCH permit_lookups USING INTEGER PRIMARY KEY (rowid<?)");
  });

  test("an offline check sent again is found by its instant: one search of the time index", () => {
    const plan = (
      store.sqlite
        .query(`EXPLAIN QUERY PLAN ${SAME_RECORD_SQL}`)
        .all(1 as never, "c", "offline_verdict", "q") as {
        detail: string;
      }[]
    )
      .map((r) => r.detail)
      .join(" | ");
    expect(plan).toBe("SEARCH permit_lookups USING INDEX permit_lookups_at (at=?)");
  });

  test("a credential: (credential, id), newest first without a sort; everything: the primary key", () => {
    expect(plan({ credential: "token:handheld-1" })).toBe(
      "SEARCH permit_lookups USING INDEX permit_lookups_credential (credential=? AND id<?)",
    );
    expect(plan({})).toBe("SEARCH permit_lookups USING INTEGER PRIMARY KEY (rowid<?)");
  });

  test("a kind: (by, id), newest first without a sort (several kinds: one such search each, merged)", () => {
    expect(plan({ kinds: ["zone_list"] })).toBe(
      "SEARCH permit_lookups USING INDEX permit_lookups_by (by=? AND id<?)",
    );
    expect(plan({ kinds: ["checks"], from: 1 })).toBe(
      "SEARCH permit_lookups USING INDEX permit_lookups_by (by=? AND id<?)",
    );
    // Beside a credential, kinds only filter its records.
    expect(plan({ credential: "token:handheld-1", kinds: ["verdict", "registration_number"] })).toBe(
      "SEARCH permit_lookups USING INDEX permit_lookups_credential (credential=? AND id<?)",
    );
  });
});

describe("a page of several kinds", () => {
  test("is each kind's newest, merged newest first, as one statement over them would give", () => {
    const store = openMemoryStore();
    const kinds = ["registration_number", "zone_list", "verdict", "checks"] as const;
    const batch = Array.from({ length: 400 }, (_, i) => ({
      at: 1_000 + i,
      credential: i % 3 ? "token:a" : "token:b",
      by: kinds[(i * 7) % 4]!,
      query: `Q${i}`,
      results: 1,
      verdict: null,
      cameraRead: null,
    }));
    store.lookups.append(batch);
    const want = ["registration_number", "verdict"] as const;
    const all = store.lookups.page({}, undefined, 1000);
    const expected = all.filter((r) => (want as readonly string[]).includes(r.by));
    expect(store.lookups.page({ kinds: want }, undefined, 30).map((r) => r.id)).toEqual(
      expected.slice(0, 30).map((r) => r.id),
    );
    const below = expected[29]!.id;
    expect(store.lookups.page({ kinds: want }, below, 30).map((r) => r.id)).toEqual(
      expected.slice(30, 60).map((r) => r.id),
    );
    expect(
      store.lookups.page({ kinds: want, credential: "token:b" }, undefined, 1000).map((r) => r.id),
    ).toEqual(expected.filter((r) => r.credential === "token:b").map((r) => r.id));
  });
});

/** Read at every start to seed the silent-terminal gauge: seeks per sender, never a sort of the log. */
describe("each sender's last event", () => {
  test("is read by seeks on ticket_events_credential, never a scan", () => {
    const store = openMemoryStore();
    const plan = (
      store.sqlite.query(`EXPLAIN QUERY PLAN ${LAST_EVENT_BY_SENDER_SQL}`).all() as { detail: string }[]
    )
      .map((r) => r.detail)
      .join(" | ");
    expect(plan).not.toMatch(/SCAN ticket_events|TEMP B-TREE/);
    expect(plan).toContain("ticket_events_credential");
  });

  test("is each sender's newest receive time, for every sender however old", () => {
    const store = openMemoryStore();
    expect(store.tickets.lastEventByCredential()).toEqual([]);
    const insert = store.sqlite.prepare(
      `INSERT INTO ticket_events (ticket_id, event_type, received_at, credential, raw_body, outcome)
       VALUES ('t', 'TicketCreated', ?1, ?2, '{}', 'applied')`,
    );
    const events: [number, string][] = [
      [1_000, "token:terminal-2"],
      [5_000, "token:terminal-1"],
      [3_000, "token:terminal-1"],
      [9_000, "user:anna"],
      [2_000, "token:terminal-2"],
      [7_000, "token:terminal-1"],
    ];
    store.sqlite.run("PRAGMA foreign_keys = OFF");
    for (const [at, who] of events) insert.run(at, who);
    expect(store.tickets.lastEventByCredential()).toEqual([
      { credential: "token:terminal-1", at: 7_000 },
      { credential: "token:terminal-2", at: 2_000 },
      { credential: "user:anna", at: 9_000 },
    ]);
  });
});
