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
    expect(d.events).toEqual({ lastMinute: 1, lastHour: 1, sinceStart: { TicketCreated: 1 } });
    expect(d.terminals).toEqual([{ credential: "token:test-2", lastAt: formatMicros(Date.parse(now)) }]);
    expect(d.activeTickets).toBe(1);
    expect(d.activePermits).toBe(0);
    expect(d.storeWritable).toBe(true);
    expect(d.requests.total).toBeGreaterThanOrEqual(2);
    expect(d.requests.clientErrors).toBeGreaterThanOrEqual(1);
    expect(d.requests.serverErrors).toBe(0);
    expect(d.liveFeeds).toBe(0);
    expect(d.residentMemoryBytes).toBeGreaterThan(0);
    expectProblem(await call(s.app, "GET", "/api/v1/status", { token: terminal }), 403, "insufficient-scope");
    expectProblem(await call(s.app, "GET", "/api/v1/status"), 401, "unauthorized");
  });
});
