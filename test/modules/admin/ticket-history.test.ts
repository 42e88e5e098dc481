import { describe, expect, test } from "bun:test";
import { MAX_EVENTS_PER_TICKET } from "../../../src/domain/tickets/rules.ts";
import { rowCursor } from "../../../src/modules/admin/paging.ts";
import { MAX_STORED_BODY } from "../../../src/modules/intake/stored-body.ts";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";
import { examples } from "../intake/examples.ts";

/** Issue 11, items 2 and 13: bounded ticket histories, paged reads, and late retries. */

function setup() {
  const clock = testClock("2026-06-15T08:05:00Z");
  const s = testApp({ timezone: "Europe/Stockholm" }, clock);
  const writer = s.token("tickets:write");
  const admin = s.token("admin");
  const post = (body: unknown) => call(s.app, "POST", "/api/v1/actions/tickets", { token: writer, body });
  const view = (query = "", id = "100234") =>
    call(s.app, "GET", `/api/v1/tickets/${id}${query}`, { token: admin });
  return { ...s, clock, post, view, admin };
}

/** Stores `n` more repeat events for the ticket straight through its repository. */
function seedEvents(s: ReturnType<typeof setup>, n: number, ticketId = "100234") {
  const tickets = s.ctx.store.tickets;
  s.ctx.store.transaction(() => {
    for (let i = 0; i < n; i++)
      tickets.appendEvent({
        ticketId,
        eventType: "TicketUpdated",
        receivedAt: s.ctx.now(),
        credential: "token:seed",
        rawBody: JSON.stringify({ ...examples.TicketUpdated, n: i }),
        bodyCutFrom: null,
        canonical: `seed-${i}`,
        outcome: "repeat",
      });
  })();
}

describe("a late retry of an older event does not undo a newer one (item 13)", () => {
  test("Created → Stopped → Moved A→B → the same Stopped again: 200, a repeat, the plate stays B", async () => {
    const s = setup();
    expect((await s.post(examples.TicketCreated)).status).toBe(200);
    expect((await s.post(examples.TicketStopped)).status).toBe(200);
    expect((await s.post(examples.TicketMoved)).status).toBe(200);
    const late = await s.post(examples.TicketStopped);
    expect(late.status).toBe(200);
    expect(late.json).toEqual([]);
    const t = (await s.view()).json.data;
    expect(t.license_number).toBe("XYZ789");
    expect(t.status).toBe("stopped");
    expect(
      t.events.map((e: { event_type: string; outcome: string }) => `${e.event_type}:${e.outcome}`),
    ).toEqual([
      "TicketCreated:applied",
      "TicketStopped:applied",
      "TicketMoved:applied",
      "TicketStopped:repeat",
    ]);
  });

  test("canonically equal: key order, digit strings against numbers and unknown fields do not matter", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    await s.post(examples.TicketUpdated);
    await s.post({ ...examples.TicketUpdated, endDate: "2026-06-15T14:00:00+02:00" });
    const { ticketCost, ...rest } = examples.TicketUpdated;
    const resent = {
      terminalSeq: 7,
      ticketCost,
      ...rest,
      zoneCode: 1234,
      parkingLotId: 12,
      endDate: "2026-06-15T11:00:00Z",
    };
    expect((await s.post(resent)).status).toBe(200);
    const t = (await s.view()).json.data;
    expect(t.end_at).toBe("2026-06-15T12:00:00.000000Z");
    expect(t.events.at(-1).outcome).toBe("repeat");
  });

  test("an event with new content is still applied", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    await s.post(examples.TicketUpdated);
    await s.post({ ...examples.TicketUpdated, endDate: "2026-06-15T15:00:00+02:00" });
    expect((await s.view()).json.data.end_at).toBe("2026-06-15T13:00:00.000000Z");
  });

  test("a retry of an applied update after a cancel is a 200 repeat, not a 409", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    await s.post(examples.TicketUpdated);
    await s.post(examples.TicketCanceled);
    expect((await s.post(examples.TicketUpdated)).status).toBe(200);
    expectProblem(await s.post({ ...examples.TicketUpdated, zoneCode: "99" }), 409, "ticket-canceled");
    expect((await s.view()).json.data.status).toBe("canceled");
  });
});

describe("bounded history (item 2)", () => {
  test(`a ticket takes ${MAX_EVENTS_PER_TICKET} events; the next one is a 409 and stores nothing`, async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    seedEvents(s, MAX_EVENTS_PER_TICKET - 2);
    expect((await s.post(examples.TicketUpdated)).status).toBe(200);
    expect(s.ctx.store.tickets.eventCount("100234")).toBe(MAX_EVENTS_PER_TICKET);
    const p = expectProblem(await s.post(examples.TicketStopped), 409, "ticket-event-limit");
    expect(p.detail).toContain(String(MAX_EVENTS_PER_TICKET));
    expect(s.ctx.store.tickets.eventCount("100234")).toBe(MAX_EVENTS_PER_TICKET);
    expect((await s.view()).json.data.status).toBe("running");
    // Other tickets are not affected.
    expect((await s.post({ ...examples.TicketCreated, ticketId: "other" })).status).toBe(200);
  });

  test("a body over the stored-body bound keeps its known fields, and says it was cut", async () => {
    const s = setup();
    const padding = "p".repeat(MAX_STORED_BODY);
    const sent = { ...examples.TicketCreated, padding };
    expect((await s.post(sent)).status).toBe(200);
    const e = (await s.view()).json.data.events[0];
    expect(e.body).toEqual(examples.TicketCreated);
    expect(Object.keys(e.body)).toEqual(Object.keys(examples.TicketCreated));
    expect(e.body_cut_from).toBe(Buffer.byteLength(JSON.stringify(sent)));
    const stored = s.ctx.store.sqlite.query("SELECT max(length(raw_body)) AS n FROM ticket_events").get() as {
      n: number;
    };
    expect(stored.n).toBeLessThan(1024);
    // The cut body still reads back as the same event: its retry is recognised.
    expect((await s.post(sent)).status).toBe(200);
    expect((await s.view()).json.data.events[1].outcome).toBe("repeat");
  });

  test("a body within the bound is kept exactly as sent", async () => {
    const s = setup();
    const raw = JSON.stringify({ ...examples.TicketCreated, note: "x".repeat(MAX_STORED_BODY - 600) });
    expect(Buffer.byteLength(raw)).toBeLessThanOrEqual(MAX_STORED_BODY);
    expect((await s.post(raw)).status).toBe(200);
    const e = (await s.view()).json.data.events[0];
    expect(e.body_cut_from).toBeNull();
    expect(JSON.stringify(e.body)).toBe(raw);
  });
});

describe("the operator's ticket view is paged (item 2)", () => {
  test("100 events a page by default; events_next_cursor walks every event once, in order", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    seedEvents(s, 249);
    const seen: number[] = [];
    let cursor: string | null = "";
    let pages = 0;
    while (cursor !== null) {
      const res = await s.view(cursor ? `?events_cursor=${cursor}` : "");
      expect(res.status).toBe(200);
      expect(res.json.data.ticket_id).toBe("100234");
      expect(res.json.data.events.length).toBeLessThanOrEqual(100);
      for (const e of res.json.data.events) seen.push(e.seq);
      cursor = res.json.data.events_next_cursor;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(250);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(new Set(seen).size).toBe(250);
  });

  test("events_limit sets the page size up to 500; out of range or malformed is a 400", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    seedEvents(s, 10);
    const small = await s.view("?events_limit=4");
    expect(small.json.data.events).toHaveLength(4);
    const next = await s.view(`?events_limit=4&events_cursor=${small.json.data.events_next_cursor}`);
    expect(next.json.data.events[0].seq).toBe(small.json.data.events[3].seq + 1);
    const all = await s.view("?events_limit=500");
    expect(all.json.data.events).toHaveLength(11);
    expect(all.json.data.events_next_cursor).toBeNull();
    // A cursor is opaque, as every list's: the bare seq the first versions handed out is refused.
    for (const q of [
      "?events_limit=0",
      "?events_limit=501",
      "?events_limit=1e2",
      "?events_cursor=abc",
      "?events_cursor=4",
      // Another list's cursor (the change history's), though it holds a row id too.
      `?events_cursor=${rowCursor("changes", 2)}`,
    ]) {
      const res = await s.view(q);
      expectProblem(res, 400, "validation");
      expect(res.json.errors[0].pointer).toBe(
        q.startsWith("?events_cursor") ? "/events_cursor" : "/events_limit",
      );
    }
  });
});

describe("the ticket view by query, for ids a path cannot carry", () => {
  test('tickets "." and ".." open by ?ticket_id=, with their history paged the same way', async () => {
    const s = setup();
    for (const ticketId of [".", ".."])
      expect((await s.post({ ...examples.TicketCreated, ticketId })).status).toBe(200);
    for (const ticketId of [".", ".."]) {
      const r = await call(s.app, "GET", `/api/v1/ticket?ticket_id=${encodeURIComponent(ticketId)}`, {
        token: s.admin,
      });
      expect(r.status).toBe(200);
      expect(r.json.data.ticket_id).toBe(ticketId);
      expect(r.json.data.events).toHaveLength(1);
    }
    // The same view as by path, page for page.
    expect((await s.post(examples.TicketCreated)).status).toBe(200);
    seedEvents(s, 3);
    const byPath = (await s.view("?events_limit=2")).json.data;
    const byQuery = (
      await call(s.app, "GET", "/api/v1/ticket?ticket_id=100234&events_limit=2", { token: s.admin })
    ).json.data;
    expect(byQuery).toEqual(byPath);
    const next = await call(
      s.app,
      "GET",
      `/api/v1/ticket?ticket_id=100234&events_limit=2&events_cursor=${encodeURIComponent(byQuery.events_next_cursor)}`,
      { token: s.admin },
    );
    expect(next.json.data.events).toEqual(
      (await s.view(`?events_limit=2&events_cursor=${encodeURIComponent(byPath.events_next_cursor)}`)).json
        .data.events,
    );
  });

  test("an unknown id is 404 ticket-not-found; none, an empty one or a too long one is 400", async () => {
    const s = setup();
    const get = (q: string) => call(s.app, "GET", `/api/v1/ticket${q}`, { token: s.admin });
    expectProblem(await get("?ticket_id=nope"), 404, "ticket-not-found");
    for (const q of ["", "?ticket_id=", `?ticket_id=${"x".repeat(129)}`])
      expect((await get(q)).status).toBe(400);
  });
});
