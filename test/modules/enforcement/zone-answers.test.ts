import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { composeBox } from "../../../src/app.ts";
import { createContext } from "../../../src/context.ts";
import { openStore } from "../../../src/platform/store/db.ts";
import { call, testApp, testClock } from "../../support/app.ts";
import { cityLot } from "../../support/lots.ts";
import { cancelTicket, moveTicket, seedTicket } from "../../support/seed.ts";

/**
 * Zone answers are reused between requests (the read model's one cache of answers,
 * src/modules/enforcement/read-model/): every write and every instant at which an answer changes
 * must show in the very next answer, with a fresh ETag.
 */
const CHECK = "/api/v1/attendants/check-tickets";
const NOW = "2026-06-15T12:00:00Z"; // Monday 14:00 in Stockholm
const T0 = Date.parse(NOW);
const MIN = 60_000;
const H = 3_600_000;

function setup() {
  const clock = testClock(NOW);
  const s = testApp({}, clock);
  return { ...s, clock, reader: s.token("permits:read"), admin: s.token("admin") };
}
type Setup = ReturnType<typeof setup>;

async function list(s: Setup, zone: number, etag?: string) {
  const res = await call(s.app, "GET", `/api/v1/tickets/zone/${zone}`, {
    token: s.reader,
    headers: etag ? { "if-none-match": etag } : {},
  });
  return {
    status: res.status,
    plates: res.json?.data as string[] | undefined,
    etag: res.headers.get("etag")!,
  };
}

async function check(s: Setup, zone: number) {
  const res = await call(s.app, "GET", `${CHECK}?zone=${zone}`, { token: s.reader });
  expect(res.status).toBe(200);
  return res.json as { registration_number: string; active: boolean; note: string }[];
}

const plates = (found: { registration_number: string }[]) => found.map((f) => f.registration_number);

describe("zone answers follow every write at once", () => {
  test("a new ticket, a permit issued, changed and deleted, a cancel and a move", async () => {
    const s = setup();
    seedTicket(s.ctx, { ticketId: "a", plate: "AAA 1", zone: 30, start: T0 - H });
    let last = await list(s, 30);
    expect(last.plates).toEqual(["AAA 1"]);
    expect(plates(await check(s, 30))).toEqual(["AAA 1"]);
    expect((await list(s, 30, last.etag)).status).toBe(304);

    const expectNow = async (want: string[], inCheck: string[] = want) => {
      const next = await list(s, 30, last.etag);
      expect(next.status).toBe(200);
      expect(next.plates).toEqual(want);
      expect(next.etag).not.toBe(last.etag);
      expect((await list(s, 30, next.etag)).status).toBe(304);
      expect(plates(await check(s, 30)).sort()).toEqual([...inCheck].sort());
      last = next;
    };

    seedTicket(s.ctx, { ticketId: "b", plate: "BBB 1", zone: 30, start: T0 - 2 * H });
    await expectNow(["AAA 1", "BBB 1"]);

    const intake = await call(s.app, "POST", "/api/v1/actions/tickets", {
      token: s.token("tickets:write"),
      body: {
        eventType: "TicketCreated",
        ticketId: "c",
        zoneCode: "30",
        startDate: "2026-06-15T13:30:00+02:00",
        endDate: "2026-06-15T16:00:00+02:00",
        licenseNumber: "CCC 1",
        ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
      },
    });
    expect(intake.status).toBeLessThan(300);
    await expectNow(["AAA 1", "BBB 1", "CCC 1"]);

    const made = await call(s.app, "POST", "/api/v1/permits", {
      token: s.admin,
      body: { registration_number: "PPP 1", zone: 30, start_at: "2026-06-01T00:00:00Z" },
    });
    expect(made.status).toBe(201);
    await expectNow(["AAA 1", "BBB 1", "CCC 1", "PPP 1"]);

    const id = made.json.data.id;
    await call(s.app, "PATCH", `/api/v1/permits/${id}`, { token: s.admin, body: { zone: 31 } });
    await expectNow(["AAA 1", "BBB 1", "CCC 1"]);
    expect((await list(s, 31)).plates).toEqual(["PPP 1"]);
    await call(s.app, "PATCH", `/api/v1/permits/${id}`, { token: s.admin, body: { zone: 30 } });
    await expectNow(["AAA 1", "BBB 1", "CCC 1", "PPP 1"]);
    expect((await call(s.app, "DELETE", `/api/v1/permits/${id}`, { token: s.admin })).status).toBe(204);
    await expectNow(["AAA 1", "BBB 1", "CCC 1"]);

    cancelTicket(s.ctx, "b");
    await expectNow(["AAA 1", "CCC 1"]);
    moveTicket(s.ctx, "a", "ZZZ 9");
    await expectNow(["CCC 1", "ZZZ 9"]);
  });

  test("a lot renamed shows in the next check-tickets note", async () => {
    const s = setup();
    const lot = await call(s.app, "POST", "/api/v1/parkings", {
      token: s.admin,
      body: { ...cityLot(), id: 7, name: "Stora torget" },
    });
    expect(lot.status).toBe(201);
    seedTicket(s.ctx, { ticketId: "L1", plate: "HHH 1", zone: 6, start: T0 - H, parkingLotId: 7 });
    expect((await check(s, 6)).map((f) => f.note)).toEqual(["ticket L1, lot 7 (Stora torget), running"]);
    const renamed = await call(s.app, "PATCH", "/api/v1/parkings/7", {
      token: s.admin,
      body: { name: "Lilla torget" },
    });
    expect(renamed.status).toBe(200);
    expect((await check(s, 6)).map((f) => f.note)).toEqual(["ticket L1, lot 7 (Lilla torget), running"]);
  });

  test("a write by another connection (a CLI command on the same store) shows at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parkd-zone-answers-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const store = openStore(dir);
    const ctx = createContext(store, { timezone: "Europe/Stockholm" }, () => T0);
    const { app, credentials } = composeBox(ctx);
    const s = {
      ctx,
      app,
      reader: credentials.createToken({ name: "r", scopes: ["permits:read"] }).token,
    };
    seedTicket(ctx, { ticketId: "own", plate: "OWN 1", zone: 40, start: T0 - H });
    const first = await list(s as unknown as Setup, 40);
    expect(first.plates).toEqual(["OWN 1"]);
    const other = new Database(store.path);
    other.run("PRAGMA busy_timeout = 5000");
    other.run(
      `INSERT INTO tickets (ticket_id, zone, start_at, plate, plate_norm, status, created_at, updated_at)
       VALUES ('other', 40, ?1, 'OTH 1', 'OTH1', 'running', ?1, ?1)`,
      [T0 - H],
    );
    const second = await list(s as unknown as Setup, 40, first.etag);
    expect(second.status).toBe(200);
    expect(second.plates).toEqual(["OTH 1", "OWN 1"]);
    other.run("UPDATE tickets SET status = 'canceled' WHERE ticket_id = 'own'");
    expect((await list(s as unknown as Setup, 40, second.etag)).plates).toEqual(["OTH 1"]);
    other.close();
    store.close();
  });
});

describe("zone answers follow the clock to the millisecond", () => {
  test("a ticket that starts later: in from its start, out at its end, unlisted 24 h after", async () => {
    const s = setup();
    const start = T0 + 30 * MIN;
    const end = T0 + 90 * MIN;
    seedTicket(s.ctx, { ticketId: "later", plate: "LLL 1", zone: 50, start, end });
    const before = await list(s, 50);
    expect(before.plates).toEqual([]);
    expect(await check(s, 50)).toEqual([]);
    s.clock.set(start - 1);
    expect((await list(s, 50, before.etag)).status).toBe(304);
    expect(await check(s, 50)).toEqual([]);
    s.clock.set(start);
    const started = await list(s, 50, before.etag);
    expect(started.status).toBe(200);
    expect(started.plates).toEqual(["LLL 1"]);
    expect((await check(s, 50)).map((f) => f.active)).toEqual([true]);
    s.clock.set(end - 1);
    expect((await list(s, 50, started.etag)).status).toBe(304);
    s.clock.set(end);
    expect((await list(s, 50, started.etag)).plates).toEqual([]);
    expect((await check(s, 50)).map((f) => f.active)).toEqual([false]);
    s.clock.set(end + 24 * H - 1);
    expect(await check(s, 50)).toHaveLength(1);
    s.clock.set(end + 24 * H);
    expect(await check(s, 50)).toEqual([]);
  });

  test("an operator permit's start and end, and a clock set back", async () => {
    const s = setup();
    await call(s.app, "POST", "/api/v1/permits", {
      token: s.admin,
      body: {
        registration_number: "OPS 1",
        zone: 51,
        start_at: "2026-06-15T12:10:00Z",
        end_at: "2026-06-15T12:20:00Z",
      },
    });
    seedTicket(s.ctx, { ticketId: "t", plate: "TTT 1", zone: 51, start: T0 - H });
    expect((await list(s, 51)).plates).toEqual(["TTT 1"]);
    s.clock.set("2026-06-15T12:10:00Z");
    expect((await list(s, 51)).plates).toEqual(["OPS 1", "TTT 1"]);
    s.clock.set("2026-06-15T12:20:00Z");
    expect((await list(s, 51)).plates).toEqual(["TTT 1"]);
    s.clock.set("2026-06-15T12:15:00Z");
    expect((await list(s, 51)).plates).toEqual(["OPS 1", "TTT 1"]);
    s.clock.set(T0 - 2 * H);
    expect((await list(s, 51)).plates).toEqual([]);
    expect(await check(s, 51)).toEqual([]);
  });

  test("a weekly window opening and closing, to the second", async () => {
    const s = setup();
    await call(s.app, "POST", "/api/v1/permits", {
      token: s.admin,
      body: {
        registration_number: "WIN 1",
        zone: 52,
        start_at: "2026-06-01T00:00:00Z",
        days: [{ weekday: 1, start_time: "14:00:05", end_time: "14:00:10" }],
      },
    });
    const closed = await list(s, 52);
    expect(closed.plates).toEqual([]);
    s.clock.set(T0 + 4_999);
    expect((await list(s, 52, closed.etag)).status).toBe(304);
    expect((await check(s, 52)).map((f) => f.active)).toEqual([false]);
    s.clock.set(T0 + 5_000);
    expect((await list(s, 52)).plates).toEqual(["WIN 1"]);
    expect((await check(s, 52)).map((f) => f.active)).toEqual([true]);
    s.clock.set(T0 + 9_999);
    expect((await list(s, 52)).plates).toEqual(["WIN 1"]);
    s.clock.set(T0 + 10_000);
    expect((await list(s, 52)).plates).toEqual([]);
    expect((await check(s, 52)).map((f) => f.active)).toEqual([false]);
  });
});
