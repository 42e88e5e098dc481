import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canonicalEvent } from "../../../src/domain/tickets/rules.ts";
import { openStore } from "../../../src/platform/store/db.ts";
import { canonicalDigest } from "../../../src/platform/store/tickets/records.ts";

const event = (ticketId: string) => ({
  ticketId,
  eventType: "TicketCreated",
  receivedAt: Date.parse("2026-06-15T10:00:00Z"),
  credential: "token:terminal-1",
  rawBody: "{}",
  bodyCutFrom: null,
  outcome: "applied" as const,
});

describe("an event's canonical form in the log", () => {
  const store = openStore(mkdtempSync(join(tmpdir(), "parkd-digest-")));
  const form = canonicalEvent({
    type: "TicketCreated",
    ticketId: "T-1",
    facts: {
      zone: 1234,
      parkingLotId: 12,
      startAt: Date.parse("2026-06-15T08:00:00Z"),
      endAt: Date.parse("2026-06-15T10:00:00Z"),
      plate: "ABC123",
      amountInclVat: 4000,
      vatRate: 25,
      currencyCode: "SEK",
    },
  } as Parameters<typeof canonicalEvent>[0]);
  const logged = (ticketId: string) =>
    store.sqlite
      .query<{ canonical: string }, [string]>("SELECT canonical FROM ticket_events WHERE ticket_id = ?1")
      .get(ticketId)!.canonical;

  test("is kept as its digest, 22 characters, and a retry is still known by it", () => {
    store.tickets.appendEvent({ ...event("T-1"), canonical: form });
    expect(logged("T-1")).toBe(canonicalDigest(form));
    expect(logged("T-1")).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(form.length).toBeGreaterThan(60);
    expect(store.tickets.appliedBefore("T-1", form)).toBe(true);
    expect(store.tickets.appliedBefore("T-1", form.replace("ABC123", "ABC124"))).toBe(false);
    expect(store.tickets.appliedBefore("T-2", form)).toBe(false);
  });

  test("an event logged whole before digests is still known by its form", () => {
    store.sqlite.run(
      `INSERT INTO ticket_events (ticket_id, event_type, received_at, credential, raw_body, canonical, outcome)
       VALUES ('T-OLD', 'TicketCreated', 1, 'token:terminal-1', '{}', ?1, 'applied')`,
      [form],
    );
    expect(store.tickets.appliedBefore("T-OLD", form)).toBe(true);
  });
});
