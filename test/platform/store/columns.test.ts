import { describe, expect, test } from "bun:test";
import { getTableColumns } from "drizzle-orm";
import { columnList } from "../../../src/platform/store/columns.ts";
import { openMemoryStore } from "../../../src/platform/store/db.ts";
import { tickets } from "../../../src/platform/store/schema/index.ts";
import {
  LISTED_TICKET_COLUMNS,
  TICKET_COLUMNS,
  type TicketRow,
} from "../../../src/platform/store/tickets/rows.ts";

describe("column lists from the drizzle schema", () => {
  test("each column by its SQL name, as the schema's key", () => {
    expect(columnList(tickets, ["ticketId", "zone", "plateNorm"])).toBe(
      "ticket_id AS ticketId, zone, plate_norm AS plateNorm",
    );
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
