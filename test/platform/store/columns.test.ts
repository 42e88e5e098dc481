import { describe, expect, test } from "bun:test";
import { getTableColumns } from "drizzle-orm";
import { columnList, insertColumns, setColumns } from "../../../src/platform/store/columns.ts";
import { openMemoryStore } from "../../../src/platform/store/db.ts";
import { ticketEvents, tickets } from "../../../src/platform/store/schema/index.ts";
import {
  LISTED_TICKET_COLUMNS,
  NEW_EVENT_KEYS,
  TICKET_COLUMNS,
  type TicketRow,
} from "../../../src/platform/store/tickets/rows.ts";

describe("column lists from the drizzle schema", () => {
  test("each column by its SQL name, as the schema's key", () => {
    expect(columnList(tickets, ["ticketId", "zone", "plateNorm"])).toBe(
      "ticket_id AS ticketId, zone, plate_norm AS plateNorm",
    );
  });

  test("an INSERT names the columns by their SQL names and binds the schema's keys", () => {
    expect(insertColumns(tickets, ["ticketId", "plateNorm"])).toBe(
      "(ticket_id, plate_norm) VALUES ($ticketId, $plateNorm)",
    );
    expect(() => insertColumns(tickets, ["nope" as "zone"])).toThrow("no column nope");
  });

  test("a column may be bound to another parameter, in an INSERT and in an UPDATE's SET", () => {
    expect(
      insertColumns(tickets, ["ticketId", "createdAt", "updatedAt"], { createdAt: "at", updatedAt: "at" }),
    ).toBe("(ticket_id, created_at, updated_at) VALUES ($ticketId, $at, $at)");
    expect(setColumns(tickets, ["plateNorm", "updatedAt"], { updatedAt: "at" })).toBe(
      "plate_norm = $plateNorm, updated_at = $at",
    );
    expect(() => setColumns(tickets, ["nope" as "zone"])).toThrow("no column nope");
  });

  test("an appended event writes every column the table requires (a new NOT NULL column fails here)", () => {
    const required = Object.entries(getTableColumns(ticketEvents))
      .filter(([, c]) => c.notNull && !c.hasDefault && !c.primary)
      .map(([key]) => key);
    expect(required.filter((k) => !(NEW_EVENT_KEYS as readonly string[]).includes(k))).toEqual([]);
  });

  test("a key the table does not have is refused when the list is made", () => {
    expect(() => columnList(tickets, ["ticketId", "nope" as "zone"])).toThrow("no column nope");
  });

  test("a written ticket reads back under every key of the schema, and as the lookups list it", () => {
    const store = openMemoryStore();
    const row: TicketRow = {
      ticketId: "t1",
      zone: 7,
      parkingLotId: null,
      lotUnknown: false,
      startAt: 1_000,
      endAt: null,
      plate: "ABC 123",
      plateNorm: "ABC123",
      amountInclVat: 2500,
      vatRate: 25,
      currencyCode: "SEK",
      status: "running",
      at: 2_000,
    };
    store.tickets.insert(row);
    const all = store.sqlite.query(`SELECT ${TICKET_COLUMNS} FROM tickets`).get() as Record<string, unknown>;
    expect(Object.keys(all).sort()).toEqual(Object.keys(getTableColumns(tickets)).sort());
    expect(all).toMatchObject({ ticketId: "t1", plateNorm: "ABC123", createdAt: 2_000, updatedAt: 2_000 });
    const listed = store.sqlite.query(`SELECT ${LISTED_TICKET_COLUMNS} FROM tickets`).get();
    expect(listed).toEqual({
      ticketId: "t1",
      zone: 7,
      parkingLotId: null,
      startAt: 1_000,
      endAt: null,
      plate: "ABC 123",
      plateNorm: "ABC123",
      status: "running",
      updatedAt: 2_000,
    });
    store.close();
  });
});
