import { describe, expect, test } from "bun:test";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";
import { examples } from "./examples.ts";

/** The contract's event rules through the route: what is stored, what is refused, retries. */

function setup() {
  const clock = testClock("2026-06-15T08:05:00Z");
  const s = testApp({ timezone: "Europe/Stockholm" }, clock);
  const writer = s.token("tickets:write");
  const admin = s.token("admin");
  const post = (body: unknown) => call(s.app, "POST", "/api/v1/actions/tickets", { token: writer, body });
  const ticket = async (id = "100234") => {
    const r = await call(s.app, "GET", `/api/v1/tickets/${id}`, { token: admin });
    expect(r.status).toBe(200);
    return r.json.data;
  };
  const counts = () =>
    s.ctx.store.sqlite
      .query(
        "SELECT (SELECT count(*) FROM tickets) AS tickets, (SELECT count(*) FROM ticket_events) AS events",
      )
      .get() as { tickets: number; events: number };
  return { ...s, clock, post, ticket, counts };
}

const outcomes = (t: { events: { event_type: string; outcome: string }[] }) =>
  t.events.map((e) => `${e.event_type}:${e.outcome}`);

describe("TicketCreated", () => {
  test("the same create twice: one ticket, 200 each, the retry recorded as a repeat", async () => {
    const s = setup();
    expect((await s.post(examples.TicketCreated)).status).toBe(200);
    s.clock.advance(1000);
    expect((await s.post(examples.TicketCreated)).status).toBe(200);
    expect(s.counts()).toEqual({ tickets: 1, events: 2 });
    const t = await s.ticket();
    expect(outcomes(t)).toEqual(["TicketCreated:applied", "TicketCreated:repeat"]);
    expect(t.updated_at).toBe("2026-06-15T08:05:00.000000Z");
  });

  test("the same ticketId with different content is 409 ticket-exists and changes nothing", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    const res = await s.post({ ...examples.TicketCreated, licenseNumber: "QQQ999" });
    expectProblem(res, 409, "ticket-exists");
    expect(s.counts()).toEqual({ tickets: 1, events: 1 });
    expect((await s.ticket()).license_number).toBe("ABC123");
  });

  test("a late retry of the create after an update is still a retry", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    await s.post(examples.TicketUpdated);
    expect((await s.post(examples.TicketCreated)).status).toBe(200);
    const t = await s.ticket();
    expect(t.ticket_cost.amount_incl_vat).toBe(6000);
    expect(outcomes(t)).toEqual(["TicketCreated:applied", "TicketUpdated:applied", "TicketCreated:repeat"]);
  });
});

describe("TicketUpdated and TicketStopped", () => {
  test("of an unknown ticket: 404 ticket-not-found, nothing stored", async () => {
    const s = setup();
    expectProblem(await s.post(examples.TicketUpdated), 404, "ticket-not-found");
    expectProblem(await s.post(examples.TicketStopped), 404, "ticket-not-found");
    expect(s.counts()).toEqual({ tickets: 0, events: 0 });
  });

  test("update replaces zone, lot, start, end, plate and cost; stop also marks stopped", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    s.clock.advance(60_000);
    const update = {
      ...examples.TicketUpdated,
      zoneCode: "77",
      parkingLotId: "5",
      startDate: "2026-06-15T10:15:00+02:00",
      licenseNumber: "abc-123",
      ticketCost: { amountInclVat: "6500", vatRate: "12", currencyCode: "EUR" },
    };
    expect((await s.post(update)).status).toBe(200);
    let t = await s.ticket();
    expect(t).toMatchObject({
      zone: 77,
      parking_lot_id: 5,
      start_at: "2026-06-15T08:15:00.000000Z",
      end_at: "2026-06-15T11:00:00.000000Z",
      license_number: "abc-123",
      plate_normalized: "ABC123",
      ticket_cost: { amount_incl_vat: 6500, vat_rate: 12, currency_code: "EUR" },
      status: "running",
      created_at: "2026-06-15T08:05:00.000000Z",
      updated_at: "2026-06-15T08:06:00.000000Z",
    });
    expect((await s.post(examples.TicketStopped)).status).toBe(200);
    t = await s.ticket();
    expect(t).toMatchObject({ status: "stopped", end_at: "2026-06-15T09:30:00.000000Z", zone: 1234 });
    // An update after the stop changes the facts; the ticket stays stopped.
    expect((await s.post(examples.TicketUpdated)).status).toBe(200);
    expect((await s.ticket()).status).toBe("stopped");
  });

  test("the same update or stop again is a repeat", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    await s.post(examples.TicketStopped);
    await s.post(examples.TicketStopped);
    expect(outcomes(await s.ticket())).toEqual([
      "TicketCreated:applied",
      "TicketStopped:applied",
      "TicketStopped:repeat",
    ]);
  });
});

describe("TicketMoved", () => {
  test("of an unknown ticket: 404", async () => {
    const s = setup();
    expectProblem(await s.post(examples.TicketMoved), 404, "ticket-not-found");
  });

  test("from matching after normalization moves the ticket; a retry is 200; a stranger is 409", async () => {
    const s = setup();
    await s.post({ ...examples.TicketCreated, licenseNumber: "abc 123" });
    expect(
      (await s.post({ ...examples.TicketMoved, fromLicenseNumber: "ABC-123", toLicenseNumber: "xyz 789" }))
        .status,
    ).toBe(200);
    let t = await s.ticket();
    expect(t.license_number).toBe("xyz 789");
    expect(t.plate_normalized).toBe("XYZ789");
    expect(
      (await s.post({ ...examples.TicketMoved, fromLicenseNumber: "ABC-123", toLicenseNumber: "xyz 789" }))
        .status,
    ).toBe(200);
    const res = await s.post({
      ...examples.TicketMoved,
      fromLicenseNumber: "ABC123",
      toLicenseNumber: "QQQ111",
    });
    expectProblem(res, 409, "plate-mismatch");
    t = await s.ticket();
    expect(t.license_number).toBe("xyz 789");
    expect(outcomes(t)).toEqual(["TicketCreated:applied", "TicketMoved:applied", "TicketMoved:repeat"]);
  });
});

describe("TicketCanceled", () => {
  test("of an unknown ticket: 404", async () => {
    const s = setup();
    expectProblem(await s.post(examples.TicketCanceled), 404, "ticket-not-found");
  });

  test("marks it canceled and keeps it; again is 200", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    s.clock.advance(5_000);
    expect((await s.post(examples.TicketCanceled)).status).toBe(200);
    s.clock.advance(5_000);
    expect((await s.post(examples.TicketCanceled)).status).toBe(200);
    const t = await s.ticket();
    expect(t).toMatchObject({
      status: "canceled",
      canceled_at: "2026-06-15T08:05:05.000000Z",
      license_number: "ABC123",
    });
    expect(outcomes(t)).toEqual(["TicketCreated:applied", "TicketCanceled:applied", "TicketCanceled:repeat"]);
  });

  test("a canceled ticket refuses every change with 409 ticket-canceled; retries still answer 200", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    await s.post(examples.TicketCanceled);
    for (const body of [
      examples.TicketUpdated,
      examples.TicketStopped,
      examples.CreateOrUpdate,
      examples.TicketMoved,
    ])
      expectProblem(await s.post(body), 409, "ticket-canceled");
    expect((await s.post(examples.TicketCreated)).status).toBe(200);
    const t = await s.ticket();
    expect(t.status).toBe("canceled");
    expect(outcomes(t)).toEqual(["TicketCreated:applied", "TicketCanceled:applied", "TicketCreated:repeat"]);
  });
});

describe("CreateOrUpdate", () => {
  test("creates when unknown, replaces when known, repeats when the same", async () => {
    const s = setup();
    expect((await s.post(examples.CreateOrUpdate)).status).toBe(200);
    let t = await s.ticket();
    expect(t).toMatchObject({ status: "running", ticket_cost: { amount_incl_vat: 4000 } });
    const later = {
      ...examples.CreateOrUpdate,
      endDate: "2026-06-15T14:00:00+02:00",
      ticketCost: { amountInclVat: "80,00", vatRate: null, currencyCode: null },
    };
    expect((await s.post(later)).status).toBe(200);
    expect((await s.post(later)).status).toBe(200);
    t = await s.ticket();
    expect(t).toMatchObject({
      end_at: "2026-06-15T12:00:00.000000Z",
      ticket_cost: { amount_incl_vat: 8000, vat_rate: null, currency_code: null },
    });
    expect(outcomes(t)).toEqual([
      "CreateOrUpdate:applied",
      "CreateOrUpdate:applied",
      "CreateOrUpdate:repeat",
    ]);
    expect(s.counts()).toEqual({ tickets: 1, events: 3 });
  });
});

describe("durability plumbing", () => {
  test("a refused event leaves neither ticket change nor log entry (one transaction)", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    await s.post(examples.TicketCanceled);
    const before = s.counts();
    expectProblem(await s.post(examples.TicketUpdated), 409, "ticket-canceled");
    expect(s.counts()).toEqual(before);
  });

  test("events posted at once share a commit yet keep arrival order and fail alone", async () => {
    const s = setup();
    const other = { ...examples.TicketCreated, ticketId: "200" };
    const answers = await Promise.all([
      s.post(examples.TicketCreated),
      s.post({ ...examples.TicketCreated, licenseNumber: "QQQ999" }),
      s.post(other),
      s.post(examples.TicketUpdated),
      s.post({ ...examples.TicketMoved, fromLicenseNumber: "NOPE1" }),
      s.post(examples.TicketStopped),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 409, 200, 200, 409, 200]);
    expect(answers[1]!.json.type).toBe("/problems/ticket-exists");
    expect(answers[4]!.json.type).toBe("/problems/plate-mismatch");
    const t = await s.ticket();
    expect(t.status).toBe("stopped");
    expect(outcomes(t)).toEqual(["TicketCreated:applied", "TicketUpdated:applied", "TicketStopped:applied"]);
    expect(s.counts()).toEqual({ tickets: 2, events: 4 });
  });

  test("a store that cannot write answers 503 and the event is not acknowledged", async () => {
    const s = setup();
    s.ctx.store.sqlite.run("PRAGMA query_only = ON");
    const res = await s.post(examples.TicketCreated);
    expectProblem(res, 503, "store-unavailable");
    // Events committed together fail together: none of them is acknowledged.
    const group = await Promise.all([
      s.post({ ...examples.TicketCreated, ticketId: "201" }),
      s.post(examples.TicketCreated),
    ]);
    expect(group.map((g) => g.status)).toEqual([503, 503]);
    s.ctx.store.sqlite.run("PRAGMA query_only = OFF");
    expect(s.counts()).toEqual({ tickets: 0, events: 0 });
    expect((await s.post(examples.TicketCreated)).status).toBe(200);
  });
});
