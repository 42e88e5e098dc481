import { describe, expect, test } from "bun:test";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";
import { cityLot } from "../../support/lots.ts";
import { examples } from "../intake/examples.ts";

/** Issue 25: occupancy now, over time, and as gauges, from the tickets held. */

async function setup() {
  const clock = testClock("2026-06-15T10:00:00Z");
  const s = testApp({ timezone: "Europe/Stockholm" }, clock);
  const writer = s.token("tickets:write");
  const admin = s.token("admin");
  const get = (path: string) => call(s.app, "GET", path, { token: admin });
  for (const lot of [
    { ...cityLot(), id: 1, name: "Storgatan", number_of_spaces: 2, zone_number: 1234 },
    { ...cityLot(), id: 2, name: "Hamnen", number_of_spaces: 0, zone_number: 1235 },
  ]) {
    const r = await call(s.app, "POST", "/api/v1/parkings", { token: admin, body: lot });
    expect(r.status).toBe(201);
  }
  const ticket = async (id: string, lot: string | null, zone: string, start: string, end: string | null) => {
    const body = {
      ...examples.CreateOrUpdate,
      ticketId: id,
      parkingLotId: lot,
      zoneCode: zone,
      startDate: start,
      endDate: end,
    };
    const r = await call(s.app, "POST", "/api/v1/actions/tickets", { token: writer, body });
    expect(r.status).toBe(200);
  };
  // Local time is UTC+2: 12:00 local is 10:00Z, the clock.
  await ticket("a", "1", "1234", "2026-06-15T09:00:00Z", "2026-06-15T11:00:00Z");
  await ticket("b", "1", "1234", "2026-06-15T09:30:00Z", null);
  await ticket("c", "1", "1234", "2026-06-15T09:50:00Z", "2026-06-15T10:20:00Z"); // three in two spaces
  await ticket("d", "2", "1235", "2026-06-13T08:00:00Z", "2026-06-16T08:00:00Z"); // a long stay, from two days back
  await ticket("e", null, "1235", "2026-06-15T09:00:00Z", "2026-06-15T09:55:00Z"); // ended before now
  await ticket("f", "7", "1236", "2026-06-15T09:58:00Z", "2026-06-15T10:30:00Z"); // a lot nobody made
  await ticket("x", "1", "1234", "2026-06-15T09:00:00Z", "2026-06-15T12:00:00Z");
  await call(s.app, "POST", "/api/v1/actions/tickets", {
    token: writer,
    body: { ...examples.TicketCanceled, ticketId: "x" },
  });
  const permit = { registration_number: "RES1", zone: 1235, start_at: "2026-06-01T00:00:00Z", end_at: null };
  expect((await call(s.app, "POST", "/api/v1/permits", { token: admin, body: permit })).status).toBe(201);
  return { ...s, clock, get };
}

describe("GET /api/v1/occupancy", () => {
  test("tickets per lot with free spaces and percent; zones with permits; canceled ones left out", async () => {
    const s = await setup();
    const r = await s.get("/api/v1/occupancy");
    expect(r.status).toBe(200);
    expect(r.json.at).toBe("2026-06-15T10:00:00.000000Z");
    expect(r.json.lots).toEqual([
      { id: 1, name: "Storgatan", zone: 1234, spaces: 2, active: true, tickets: 3, free: 0, percent: 150 },
      { id: 2, name: "Hamnen", zone: 1235, spaces: 0, active: true, tickets: 1, free: null, percent: null },
      { id: 7, name: null, zone: null, spaces: 0, active: false, tickets: 1, free: null, percent: null },
    ]);
    expect(r.json.zones).toEqual([
      { zone: 1234, tickets: 3, permits: 0 },
      { zone: 1235, tickets: 1, permits: 1 },
      { zone: 1236, tickets: 1, permits: 0 },
    ]);
  });

  test("Prometheus gauges per lot, with the lot id as label", async () => {
    const s = await setup();
    const text = (await s.get("/metrics")).text;
    expect(text).toContain('parkd_lot_occupied_tickets{lot="1"} 3');
    expect(text).toContain('parkd_lot_occupied_tickets{lot="2"} 1');
    expect(text).toContain('parkd_lot_spaces{lot="1"} 2');
    expect(text).toContain('parkd_lot_free_spaces{lot="1"} 0');
    expect(text).not.toContain('parkd_lot_free_spaces{lot="2"}');
    expect(text).not.toContain('lot="7"');
  });
});

describe("GET /api/v1/occupancy/history", () => {
  test("counts at every step from the tickets, with arrivals per step", async () => {
    const s = await setup();
    const r = await s.get(
      "/api/v1/occupancy/history?from=2026-06-15T09:45:00Z&to=2026-06-15T10:30:00Z&step=15",
    );
    expect(r.status).toBe(200);
    expect(r.json.at).toEqual([
      "2026-06-15T09:45:00.000000Z",
      "2026-06-15T10:00:00.000000Z",
      "2026-06-15T10:15:00.000000Z",
    ]);
    expect(r.json.step).toBe(15);
    const lot = (id: number) => r.json.lots.find((l: { id: number }) => l.id === id)?.tickets;
    expect(lot(1)).toEqual([2, 3, 3]); // a, b; +c; c ends 10:20
    expect(lot(2)).toEqual([1, 1, 1]); // the long stay
    expect(lot(7)).toEqual([0, 1, 1]);
    const zone = (z: number) => r.json.zones.find((x: { zone: number }) => x.zone === z);
    expect(zone(1235).tickets).toEqual([2, 1, 1]); // e ended 09:55
    expect(r.json.arrivals).toEqual([2, 0, 0]); // c 09:50, f 09:58
  });

  test("a whole site day by dates, filtered to one lot and its zone", async () => {
    const s = await setup();
    const r = await s.get("/api/v1/occupancy/history?from=2026-06-15&to=2026-06-16&lot=2");
    expect(r.status).toBe(200);
    expect(r.json.from).toBe("2026-06-14T22:00:00.000000Z");
    expect(r.json.at).toHaveLength(288);
    expect(r.json.lots.map((l: { id: number }) => l.id)).toEqual([2]);
    expect(r.json.lots[0].tickets.every((n: number) => n === 1)).toBe(true);
    expect(r.json.zones.map((z: { zone: number }) => z.zone)).toEqual([1235]);
  });

  test("bad ranges and steps are a 400 naming the parameter", async () => {
    const s = await setup();
    const bad = async (q: string, pointer: string) => {
      const r = await s.get(`/api/v1/occupancy/history?${q}`);
      expectProblem(r, 400, "validation");
      expect(JSON.stringify(r.json.errors)).toContain(pointer);
    };
    await bad("from=2026-06-16&to=2026-06-15", "/to");
    await bad("from=yesterday&to=2026-06-15", "/from");
    await bad("from=2026-05-01&to=2026-06-15", "/to");
    await bad("from=2026-06-01&to=2026-06-15&step=5", "/step");
    await bad("from=2026-06-15&to=2026-06-16&step=7", "/step");
    await bad("from=2026-06-15&to=2026-06-16&lot=1;2", "/lot");
  });
});
