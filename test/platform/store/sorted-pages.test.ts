import { describe, expect, test } from "bun:test";
import { openMemoryStore } from "../../../src/platform/store/db.ts";
import type { SortColumn, SortValue } from "../../../src/platform/store/keyset.ts";
import { PERMIT_ORDERS, type PermitOrder, permitPageQueries } from "../../../src/platform/store/permits.ts";
import {
  TICKET_ORDERS,
  type TicketOrder,
  ticketPageQueries,
} from "../../../src/platform/store/tickets/search.ts";
import { seeded } from "../../support/random.ts";

/** SQLite's order: NULL below every value; then the rowid. */
function compare(
  key: readonly SortColumn[],
  a: Record<string, SortValue>,
  b: Record<string, SortValue>,
): number {
  for (const c of [...key.map((k) => k.name), "rowid"]) {
    const x = a[c] ?? null;
    const y = b[c] ?? null;
    if (x === y) continue;
    if (x === null) return -1;
    if (y === null) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Every order, both ways, with and without a filter, walked a page at a time with a few page
 * sizes: the pages joined are exactly the rows sorted in memory. Values repeat often and ends are
 * often missing, so ties and NULLs fall on page boundaries.
 */
describe("sorted pages walk every row once, in order", () => {
  const store = openMemoryStore();
  const { rand, pick } = seeded(7);
  const tickets: Record<string, SortValue>[] = [];
  const permits: Record<string, SortValue>[] = [];
  const addTicket = store.sqlite.prepare(
    `INSERT INTO tickets (ticket_id, zone, start_at, end_at, plate, plate_norm, status, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?5, 'running', 0, 0) RETURNING rowid`,
  );
  const addPermit = store.sqlite.prepare(
    `INSERT INTO permits (plate, plate_norm, zone, start_at, end_at, created_at, updated_at, created_by)
     VALUES (?1, ?1, ?2, ?3, ?4, 0, 0, 'test') RETURNING id`,
  );
  for (let i = 0; i < 400; i++) {
    const row = {
      ticket_id: `t${Math.floor(rand() * 1e6)}-${i}`,
      zone: pick([1, 2, 3]),
      start_at: pick([100, 200, 300, 400]),
      end_at: rand() < 0.3 ? null : pick([500, 600, 700]),
      plate_norm: pick(["ABC1", "ABC2", "XYZ9", "Q1"]),
    };
    const { rowid } = addTicket.get(row.ticket_id, row.zone, row.start_at, row.end_at, row.plate_norm) as {
      rowid: number;
    };
    tickets.push({ ...row, rowid });
  }
  for (let i = 0; i < 150; i++) {
    const row = {
      plate_norm: pick(["ABC1", "ABC2", "XYZ9"]),
      zone: pick([1, 2]),
      start_at: pick([100, 200]),
      end_at: rand() < 0.4 ? null : pick([500, 600]),
    };
    const { id } = addPermit.get(row.plate_norm, row.zone, row.start_at, row.end_at) as { id: number };
    permits.push({ ...row, rowid: id });
  }

  for (const order of Object.keys(TICKET_ORDERS) as TicketOrder[])
    for (const descending of [false, true])
      test(`tickets by ${descending ? "-" : ""}${order}`, () => {
        const key = TICKET_ORDERS[order];
        for (const zone of [undefined, 2])
          for (const limit of [1, 7, 50]) {
            const seen: string[] = [];
            let after: SortValue[] | undefined;
            for (;;) {
              const page = store.ticketSearch.search({ order, descending, zone, after, limit });
              expect(page.rows.length).toBeLessThanOrEqual(limit);
              seen.push(...page.rows.map((r) => r.ticketId));
              if (!page.next) break;
              after = page.next;
            }
            const want = tickets
              .filter((r) => zone === undefined || r.zone === zone)
              .sort((a, b) => compare(key, a, b) * (descending ? -1 : 1))
              .map((r) => r.ticket_id);
            expect(seen).toEqual(want as string[]);
          }
      });

  for (const order of Object.keys(PERMIT_ORDERS) as PermitOrder[])
    for (const descending of [false, true])
      test(`permits by ${descending ? "-" : ""}${order}`, () => {
        const key: readonly SortColumn[] = PERMIT_ORDERS[order];
        for (const limit of [1, 6, undefined]) {
          const seen: number[] = [];
          let after: SortValue[] | undefined;
          for (;;) {
            const page = store.permits.list({ order, descending, after, limit });
            seen.push(...page.rows.map((r) => r.id));
            if (!page.next) break;
            after = page.next;
          }
          const want = [...permits].sort((a, b) => compare(key, a, b) * (descending ? -1 : 1));
          expect(seen).toEqual(want.map((r) => r.rowid as number));
        }
      });
});

/**
 * The console's lists read an index in the order asked for, from the previous page's position on:
 * never the whole table sorted. A sort of the last term (ties of one start time, one plate's
 * tickets) is bounded by the rows sharing a value; a filter on one zone or plate sorts only those.
 */
describe("sorted pages are served from indexes", () => {
  const store = openMemoryStore();
  /** The plan of a page's first statement (a page at `after`, or the first page). */
  const planOf = (queries: { toSQL(): { sql: string; params: unknown[] } }[]) => {
    const first = queries[0]!.toSQL();
    const params = first.params.map((v) => v ?? 0);
    return (
      store.sqlite.query(`EXPLAIN QUERY PLAN ${first.sql}`).all(...(params as [])) as { detail: string }[]
    )
      .map((r) => r.detail)
      .join(" | ");
  };

  const ticketIndex: Record<TicketOrder, string> = {
    start_at: "tickets_start",
    end_at: "tickets_end",
    registration_number: "tickets_plate_norm",
    zone: "tickets_zone_time",
    ticket_id: "sqlite_autoindex_tickets_1",
  };
  for (const order of Object.keys(TICKET_ORDERS) as TicketOrder[])
    for (const descending of [false, true])
      test(`tickets by ${descending ? "-" : ""}${order}: ${ticketIndex[order]}, first and later pages`, () => {
        const key: readonly SortColumn[] = TICKET_ORDERS[order];
        for (const after of [undefined, positionOf(key, 1), positionOf(key, null)]) {
          if (after?.some((v, i) => v === null && key[i]?.notNull)) continue;
          const p = planOf(ticketPageQueries(store.db, { order, descending, after, limit: 50 }));
          expect(p).toContain(`USING INDEX ${ticketIndex[order]}`);
          expect(p).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
        }
        // Ascending from among NULL ends: the rest of the NULLs by a seek, then the values.
        if (key[0] && !key[0].notNull && !descending) {
          const [nulls, values] = ticketPageQueries(store.db, {
            order,
            descending,
            after: [null, 5],
            limit: 50,
          }).map((q) => q.toSQL().sql);
          expect(nulls).toMatch(/end_at"? is null/i);
          expect(values).toMatch(/end_at"? is not null/i);
          expect(
            planOf(ticketPageQueries(store.db, { order, descending, after: [null, 5], limit: 50 })),
          ).toBe("SEARCH tickets USING INDEX tickets_end (end_at=? AND rowid>?)");
        }
        // One zone's tickets: read by the zone index, only they sorted.
        const inZone = planOf(ticketPageQueries(store.db, { order, descending, zone: 3, limit: 50 }));
        expect(inZone).toMatch(/^SEARCH tickets USING INDEX tickets_zone_time \(zone=\?\)/);
      });

  // By id is the table's own order: its first page a plain scan of it, later ones a rowid range.
  const permitIndex: Record<PermitOrder, RegExp> = {
    id: /^(SCAN permits|SEARCH permits USING INTEGER PRIMARY KEY \(rowid[<>]\?\))$/,
    registration_number: /USING INDEX permits_plate_norm/,
    zone: /USING INDEX permits_zone/,
    start_at: /USING INDEX permits_start/,
    end_at: /USING INDEX permits_end/,
  };
  for (const order of Object.keys(PERMIT_ORDERS) as PermitOrder[])
    for (const descending of [false, true])
      test(`permits by ${descending ? "-" : ""}${order}`, () => {
        const key: readonly SortColumn[] = PERMIT_ORDERS[order];
        for (const after of [undefined, positionOf(key, 1)]) {
          const p = planOf(permitPageQueries(store.db, { order, descending, after, limit: 50 }));
          expect(p).toMatch(permitIndex[order]);
          expect(p).not.toMatch(/TEMP B-TREE/);
        }
      });
});

/** A position with every key value `v` (NULL tried only where the column allows it), rowid 5. */
function positionOf(key: readonly SortColumn[], v: SortValue): SortValue[] {
  return [...key.map((c) => (v === null && c.notNull ? 1 : v)), 5];
}
