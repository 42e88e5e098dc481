import { describe, expect, test } from "bun:test";
import { formatMicros } from "../../../src/domain/time/zoned.ts";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";

describe("status", () => {
  test("the figures of /metrics and of the event log", async () => {
    const clock = testClock(Date.now());
    const s = testApp({}, clock);
    const admin = s.token("admin");
    const terminal = s.token("tickets:write");
    const now = new Date(clock.now()).toISOString();
    const ev = await call(s.app, "POST", "/api/v1/actions/tickets", {
      token: terminal,
      body: {
        eventType: "TicketCreated",
        ticketId: "S1",
        zoneCode: "5",
        parkingLotId: null,
        startDate: now,
        endDate: null,
        licenseNumber: "ABC123",
        ticketCost: { amountInclVat: 100, vatRate: 25, currencyCode: "SEK" },
      },
    });
    expect(ev.status).toBe(200);
    await call(s.app, "GET", "/api/v1/nowhere", { token: admin });
    const res = await call(s.app, "GET", "/api/v1/status", { token: admin });
    expect(res.status).toBe(200);
    const d = res.json.data;
    expect(d.events).toEqual({ last_minute: 1, last_hour: 1, since_start: { TicketCreated: 1 } });
    expect(d.terminals).toEqual([{ credential: "token:test-2", last_at: formatMicros(Date.parse(now)) }]);
    expect(d.active_tickets).toBe(1);
    expect(d.active_permits).toBe(0);
    expect(d.store_writable).toBe(true);
    expect(d.requests.total).toBeGreaterThanOrEqual(2);
    expect(d.requests.client_errors).toBeGreaterThanOrEqual(1);
    expect(d.requests.server_errors).toBe(0);
    expect(d.live_feeds).toBe(0);
    expect(d.resident_memory_bytes).toBeGreaterThan(0);
    expectProblem(await call(s.app, "GET", "/api/v1/status", { token: terminal }), 403, "insufficient-scope");
    expectProblem(await call(s.app, "GET", "/api/v1/status"), 401, "unauthorized");
  });
});
