import { describe, expect, test } from "bun:test";
import { formatMicros } from "../../../src/domain/time/zoned.ts";
import { MAX_CSV_TICKETS } from "../../../src/modules/admin/tickets/csv.ts";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";
import { seedTicket } from "../../support/seed.ts";

const NOW = "2026-06-15T12:00:00Z";
const H = 3_600_000;
const at = (hours: number) => Date.parse(NOW) + hours * H;

function setup() {
  const clock = testClock(NOW);
  const s = testApp({}, clock);
  return { ...s, clock, admin: s.token("admin"), reader: s.token("permits:read") };
}

describe("tokens over the API", () => {
  test("create shows the token once; list never does; revoke ends it", async () => {
    const s = setup();
    const made = await call(s.app, "POST", "/api/v1/tokens", {
      token: s.admin,
      body: { name: "handheld-1", scopes: ["permits:read"], expires_in_days: 30 },
    });
    expect(made.status).toBe(201);
    expect(made.headers.get("cache-control")).toBe("no-store");
    const { id, token, expires_at } = made.json.data;
    expect(token).toMatch(/^pk_/);
    expect(expires_at).toBe(formatMicros(at(30 * 24)));
    expect((await call(s.app, "GET", "/api/v1/whoami", { token })).status).toBe(200);
    const list = await call(s.app, "GET", "/api/v1/tokens", { token: s.admin });
    expect(list.text).not.toContain(token);
    expect(list.json.data.find((t: { id: string }) => t.id === id)).toMatchObject({
      name: "handheld-1",
      scopes: ["permits:read"],
      revoked_at: null,
    });
    expect((await call(s.app, "DELETE", `/api/v1/tokens/${id}`, { token: s.admin })).status).toBe(204);
    expectProblem(await call(s.app, "GET", "/api/v1/whoami", { token }), 401, "unauthorized");
    expectProblem(
      await call(s.app, "DELETE", `/api/v1/tokens/${id}`, { token: s.admin }),
      404,
      "credential-not-found",
    );
  });

  test("errors: 401, 403, 400, 409, 404", async () => {
    const s = setup();
    const body = { name: "handheld-1", scopes: ["permits:read"] };
    expectProblem(await call(s.app, "POST", "/api/v1/tokens", { body }), 401, "unauthorized");
    expectProblem(await call(s.app, "GET", "/api/v1/tokens", { token: s.reader }), 403, "insufficient-scope");
    expectProblem(
      await call(s.app, "POST", "/api/v1/tokens", { token: s.reader, body }),
      403,
      "insufficient-scope",
    );
    for (const bad of [
      { name: "handheld-1", scopes: [] },
      { name: "handheld-1", scopes: ["root"] },
      { name: "bad name!", scopes: ["admin"] },
      { name: "handheld-1", scopes: ["admin"], expires_in_days: 0 },
      // A JSON integer only: the framework's own integer type read a string of digits.
      { name: "handheld-1", scopes: ["admin"], expires_in_days: "30" },
      { name: "handheld-1", scopes: ["admin"], expires_in_days: "-12" },
      { name: "handheld-1", scopes: ["admin"], colour: "red" },
    ])
      expectProblem(
        await call(s.app, "POST", "/api/v1/tokens", { token: s.admin, body: bad }),
        400,
        "validation",
      );
    expect((await call(s.app, "POST", "/api/v1/tokens", { token: s.admin, body })).status).toBe(201);
    expectProblem(
      await call(s.app, "POST", "/api/v1/tokens", { token: s.admin, body }),
      409,
      "credential-exists",
    );
    expectProblem(
      await call(s.app, "DELETE", "/api/v1/tokens/tok_000000000000", { token: s.admin }),
      404,
      "credential-not-found",
    );
    // Revoking by name is the CLI's; the API takes ids only.
    expectProblem(
      await call(s.app, "DELETE", "/api/v1/tokens/handheld-1", { token: s.admin }),
      404,
      "credential-not-found",
    );
  });
});

describe("users over the API", () => {
  test("create, list, delete; errors", async () => {
    const s = setup();
    const body = { name: "terminal-2", scopes: ["tickets:write"], password: "correct horse battery" };
    const made = await call(s.app, "POST", "/api/v1/users", { token: s.admin, body });
    expect(made.status).toBe(201);
    expect(made.text).not.toContain("correct horse");
    expect(made.json.data).toMatchObject({
      name: "terminal-2",
      scopes: ["tickets:write"],
      last_used_at: null,
    });
    expectProblem(
      await call(s.app, "POST", "/api/v1/users", { token: s.admin, body }),
      409,
      "credential-exists",
    );
    expectProblem(
      await call(s.app, "POST", "/api/v1/users", {
        token: s.admin,
        body: { ...body, name: "x", password: "short" },
      }),
      400,
      "validation",
    );
    expectProblem(await call(s.app, "POST", "/api/v1/users", { body }), 401, "unauthorized");
    expectProblem(await call(s.app, "GET", "/api/v1/users", { token: s.reader }), 403, "insufficient-scope");
    const list = await call(s.app, "GET", "/api/v1/users", { token: s.admin });
    expect(list.json.data.map((u: { name: string }) => u.name)).toEqual(["terminal-2"]);
    const id = made.json.data.id;
    expect((await call(s.app, "DELETE", `/api/v1/users/${id}`, { token: s.admin })).status).toBe(204);
    expectProblem(
      await call(s.app, "DELETE", `/api/v1/users/${id}`, { token: s.admin }),
      404,
      "credential-not-found",
    );
  });
});

describe("ticket search by the state the console shows, counted, with lots and amounts, and as CSV", () => {
  const s = setup();
  const lot = (name: string) =>
    call(s.app, "POST", "/api/v1/parkings", {
      token: s.admin,
      body: { name, zone_number: 30, parking_lot_fee: [] },
    });
  seedTicket(s.ctx, { ticketId: "ACTIVE", plate: "AAA111", zone: 30, start: at(-1), end: at(1) });
  seedTicket(s.ctx, { ticketId: "OPEN", plate: "AAA112", zone: 30, start: at(-1) });
  // Running as the last event left it, but its end has passed: ended, as the column says.
  seedTicket(s.ctx, { ticketId: "RAN-OUT", plate: "BBB222", zone: 30, start: at(-5), end: at(-4) });
  seedTicket(s.ctx, {
    ticketId: "STOPPED",
    plate: "CCC333",
    zone: 30,
    start: at(-3),
    end: at(2),
    status: "stopped",
  });
  seedTicket(s.ctx, { ticketId: "LATER", plate: "DDD444", zone: 30, start: at(1), end: at(2) });
  seedTicket(s.ctx, {
    ticketId: "GONE",
    plate: "EEE555",
    zone: 30,
    start: at(-1),
    end: at(1),
    status: "canceled",
  });
  const ids = async (q: string) =>
    (
      await call(s.app, "GET", `/api/v1/tickets?zone=30&sort=ticket_id${q}`, { token: s.admin })
    ).json.data.map((t: { ticket_id: string; state: string }) => `${t.ticket_id}:${t.state}`);

  test("state=active|not_started|ended|canceled finds what the column says, at the request's time", async () => {
    expect(await ids("&state=active")).toEqual(["ACTIVE:active", "OPEN:active"]);
    expect(await ids("&state=ended")).toEqual(["RAN-OUT:ended", "STOPPED:ended"]);
    expect(await ids("&state=not_started")).toEqual(["LATER:not_started"]);
    expect(await ids("&state=canceled")).toEqual(["GONE:canceled"]);
    expect((await ids("")).length).toBe(6);
    // The clock moves on: the active ticket with an end is ended an hour and a bit later.
    s.clock.advance(1.5 * H);
    expect(await ids("&state=active")).toEqual(["LATER:active", "OPEN:active"]);
    s.clock.advance(-1.5 * H);
    expectProblem(
      await call(s.app, "GET", "/api/v1/tickets?state=running", { token: s.admin }),
      400,
      "validation",
    );
  });

  test("total on the first page only; lot names and amounts on each row", async () => {
    const made = await lot("=Hamnen");
    const lotId = made.json.data.id as number;
    seedTicket(s.ctx, {
      ticketId: "PAID",
      plate: "FFF666",
      zone: 31,
      start: at(-1),
      end: at(1),
      parkingLotId: lotId,
    });
    seedTicket(s.ctx, {
      ticketId: "NOLOT",
      plate: "FFF667",
      zone: 31,
      start: at(-1),
      end: at(1),
      parkingLotId: 999,
    });
    const first = await call(s.app, "GET", "/api/v1/tickets?zone=30&limit=2", { token: s.admin });
    expect(first.json.total).toBe(6);
    const next = await call(
      s.app,
      "GET",
      `/api/v1/tickets?zone=30&limit=2&cursor=${first.json.next_cursor}`,
      {
        token: s.admin,
      },
    );
    expect(next.json.total).toBeNull();
    const rows = (await call(s.app, "GET", "/api/v1/tickets?zone=31&sort=ticket_id", { token: s.admin })).json
      .data;
    expect(rows.map((r: { lot_name: string | null }) => r.lot_name)).toEqual([null, "=Hamnen"]);
  });

  test("the search as CSV: its filters and order, lots by name, both forms, formulas neutralised", async () => {
    const se = await call(s.app, "GET", "/api/v1/tickets.csv?zone=30&state=ended&sort=ticket_id", {
      token: s.admin,
    });
    expect(se.status).toBe(200);
    expect(se.headers.get("content-type")).toStartWith("text/csv");
    expect(se.headers.get("content-disposition")).toContain("attachment");
    expect(se.text.split("\r\n")).toEqual([
      "\uFEFFBiljett;Registreringsnummer;Zon;Parkering;Parkeringens namn;Tillstånd;Start (Europe/Stockholm);Slut (Europe/Stockholm);Belopp;Valuta",
      "RAN-OUT;BBB222;30;;;Avslutad;2026-06-15 09:00:00;2026-06-15 10:00:00;;",
      "STOPPED;CCC333;30;;;Avslutad;2026-06-15 11:00:00;2026-06-15 16:00:00;;",
      "",
    ]);
    const plain = await call(s.app, "GET", "/api/v1/tickets.csv?zone=31&sort=ticket_id&variant=rfc4180", {
      token: s.admin,
    });
    const lines = plain.text.split("\r\n");
    expect(lines[0]).toBe(
      "ticket_id,registration_number,zone,parking_lot_id,lot_name,state,start_at (Europe/Stockholm),end_at (Europe/Stockholm),amount,currency",
    );
    // The site's time in both forms: with its offset here, as a program reads an instant.
    expect(lines[2]).toMatch(/^PAID,FFF666,31,\d+,'=Hamnen,active,2026-06-15T13:00:00\+02:00,/);
    expectProblem(
      await call(s.app, "GET", "/api/v1/tickets.csv?state=running", { token: s.admin }),
      400,
      "validation",
    );
    expectProblem(await call(s.app, "GET", "/api/v1/tickets.csv"), 401, "unauthorized");
    expectProblem(
      await call(s.app, "GET", "/api/v1/tickets.csv", { token: s.reader }),
      403,
      "insufficient-scope",
    );
  });

  test("a search past the CSV's size is refused, to be narrowed; nothing is cut off silently", async () => {
    const big = setup();
    for (let i = 0; i <= MAX_CSV_TICKETS; i++)
      seedTicket(big.ctx, { ticketId: `M${i}`, plate: "MMM1", zone: 40, start: at(-1), end: at(1) });
    const res = await call(big.app, "GET", "/api/v1/tickets.csv?zone=40", { token: big.admin });
    expectProblem(res, 400, "validation");
    expect(res.text).toContain(`finds ${MAX_CSV_TICKETS + 1} tickets`);
  }, 60_000);
});

describe("ticket search", () => {
  const s = setup();
  for (let i = 0; i < 7; i++)
    seedTicket(s.ctx, {
      ticketId: `A${i}`,
      plate: "ABC123",
      zone: 10,
      start: at(-i),
      end: at(-i + 0.5),
      status: "stopped",
    });
  seedTicket(s.ctx, { ticketId: "B1", plate: "ÅBC 123", zone: 10, start: at(-1) });
  seedTicket(s.ctx, {
    ticketId: "C1",
    plate: "xyz-999",
    zone: 20,
    start: at(-2),
    status: "canceled",
    end: at(1),
  });
  const search = (q: string) => call(s.app, "GET", `/api/v1/tickets${q}`, { token: s.admin });

  test("plates match however they were typed; newest first", async () => {
    const res = await search("?registration_number=abc-123%20");

    expect(res.status).toBe(200);
    expect(res.json.data.map((t: { ticket_id: string }) => t.ticket_id)).toEqual([
      "A0",
      "A1",
      "A2",
      "A3",
      "A4",
      "A5",
      "A6",
    ]);
    expect(res.json.data[0]).toEqual({
      ticket_id: "A0",
      state: "ended",
      status: "stopped",
      zone: 10,
      parking_lot_id: null,
      lot_name: null,
      license_number: "ABC123",
      start_at: formatMicros(at(0)),
      end_at: formatMicros(at(0.5)),
      amount_incl_vat: null,
      currency_code: null,
      updated_at: formatMicros(at(0)),
    });
    expect(res.json.total).toBe(7);
    expect(
      (await search("?registration_number=åbc123")).json.data.map((t: { ticket_id: string }) => t.ticket_id),
    ).toEqual(["B1"]);
    expect((await search("?registration_number=XYZ%20999")).json.data[0].license_number).toBe("xyz-999");
  });

  test("zone, state and time filters", async () => {
    expect((await search("?zone=20")).json.data.map((t: { ticket_id: string }) => t.ticket_id)).toEqual([
      "C1",
    ]);
    expect(
      (await search("?status=running")).json.data.map((t: { ticket_id: string }) => t.ticket_id),
    ).toEqual(["B1"]);
    const range = `?from=${encodeURIComponent(new Date(at(-3.2)).toISOString())}&to=${encodeURIComponent(new Date(at(-1.9)).toISOString())}`;
    expect((await search(range)).json.data.map((t: { ticket_id: string }) => t.ticket_id)).toEqual([
      "C1",
      "A2",
      "A3",
    ]);
  });

  test("from and to read as every list's do: without an offset, site time; a date alone, its start", async () => {
    const ids = async (q: string) =>
      (await search(q)).json.data.map((t: { ticket_id: string }) => t.ticket_id);
    const utc = (h: number) => encodeURIComponent(new Date(at(h)).toISOString());
    // Stockholm is two hours ahead of UTC in June.
    const wall = (h: number) => new Date(at(h) + 2 * H).toISOString().slice(0, 19);
    expect(await ids(`?from=${wall(-3.2)}&to=${wall(-1.9)}`)).toEqual(
      await ids(`?from=${utc(-3.2)}&to=${utc(-1.9)}`),
    );
    const day = new Date(at(0) + 2 * H).toISOString().slice(0, 10);
    expect((await ids(`?from=${day}`)).length).toBeGreaterThan(0);
    for (const bad of ["?from=yesterday", "?to=2026-13-01", "?from=March%207"])
      expectProblem(await search(bad), 400, "validation");
  });

  test("pages with an opaque cursor until next_cursor is null", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await search(`?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...res.json.data.map((t: { ticket_id: string }) => t.ticket_id));
      cursor = res.json.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    // Same start: the one stored later first.
    expect(seen).toEqual(["A0", "B1", "A1", "C1", "A2", "A3", "A4", "A5", "A6"]);
  });

  test("sorted by a column either way, paged in that order; a cursor continues only its own sort", async () => {
    const ids = async (q: string) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await search(`${q}&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
        expect(res.status).toBe(200);
        seen.push(...res.json.data.map((t: { ticket_id: string }) => t.ticket_id));
        cursor = res.json.next_cursor;
      } while (cursor);
      return seen;
    };
    expect(await ids("?sort=ticket_id")).toEqual(["A0", "A1", "A2", "A3", "A4", "A5", "A6", "B1", "C1"]);
    expect(await ids("?sort=-ticket_id")).toEqual(["C1", "B1", "A6", "A5", "A4", "A3", "A2", "A1", "A0"]);
    expect(await ids("?sort=start_at")).toEqual(["A6", "A5", "A4", "A3", "A2", "C1", "A1", "B1", "A0"]);
    // No end yet (B1): first ascending, last descending.
    expect(await ids("?sort=end_at")).toEqual(["B1", "A6", "A5", "A4", "A3", "A2", "A1", "A0", "C1"]);
    expect(await ids("?sort=-end_at")).toEqual(["C1", "A0", "A1", "A2", "A3", "A4", "A5", "A6", "B1"]);
    // Plates as they match (normalized), the tickets of one plate as stored.
    expect(await ids("?sort=registration_number")).toEqual([
      "A0",
      "A1",
      "A2",
      "A3",
      "A4",
      "A5",
      "A6",
      "C1",
      "B1",
    ]);
    // A zone's tickets by end: zone 10 (B1 has none), then 20.
    expect(await ids("?sort=zone")).toEqual(["B1", "A6", "A5", "A4", "A3", "A2", "A1", "A0", "C1"]);
    expect(await ids("?sort=-zone&zone=10")).toEqual(["A0", "A1", "A2", "A3", "A4", "A5", "A6", "B1"]);

    const first = await search("?sort=zone&limit=2");
    const other = await search(`?sort=start_at&limit=2&cursor=${first.json.next_cursor}`);
    expectProblem(other, 400, "validation");
    expect(other.json.errors[0]).toMatchObject({ pointer: "/cursor", in: "query" });
    expect(other.json.errors[0].message).toContain("sort=zone");
    // A value of the wrong type for its column would sort before or after every row: refused.
    const forged = (v: unknown[]) => Buffer.from(JSON.stringify(v)).toString("base64url");
    for (const [sort, position] of [
      ["-start_at", ["abc", 5]],
      ["registration_number", [5, 1]],
      ["end_at", [1.5, 1]],
      ["start_at", [null, 1]],
    ] as const)
      expectProblem(
        await search(`?sort=${sort}&cursor=${forged(["tickets", sort, ...position])}`),
        400,
        "validation",
      );
    expect((await search(`?sort=end_at&cursor=${forged(["tickets", "end_at", null, 1])}`)).status).toBe(200);
    // The permit list shares the sort's name and its values' types, but not the cursor.
    const started = await search("?sort=start_at&limit=2");
    expectProblem(
      await call(s.app, "GET", `/api/v1/permits?sort=start_at&cursor=${started.json.next_cursor}`, {
        token: s.admin,
      }),
      400,
      "validation",
    );
    expectProblem(await search("?sort=status"), 400, "validation");
    expectProblem(await search("?sort=--zone"), 400, "validation");
  });

  test("a cursor after the longest ticket id intake takes is taken back", async () => {
    const fresh = setup();
    // 128 characters, each two bytes in UTF-8 and one a JSON escape: the longest cursors.
    const long = (c: string) => `${"ä".repeat(127)}${c}`;
    for (const id of [long("\u0001"), long("a"), long("b")])
      seedTicket(fresh.ctx, { ticketId: id, plate: "ABC123", zone: 10, start: at(-1) });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(
        fresh.app,
        "GET",
        `/api/v1/tickets?sort=-ticket_id&limit=1${cursor ? `&cursor=${cursor}` : ""}`,
        { token: fresh.admin },
      );
      expect(res.status).toBe(200);
      seen.push(...res.json.data.map((t: { ticket_id: string }) => t.ticket_id));
      cursor = res.json.next_cursor;
    } while (cursor);
    expect(seen).toEqual([long("b"), long("a"), long("\u0001")]);
  });

  test("errors: 400 on a bad cursor, limit, state or time; 401; 403", async () => {
    expectProblem(await search("?cursor=bm9wZQ"), 400, "validation");
    expectProblem(await search("?cursor=%5B%5D"), 400, "validation");
    expectProblem(await search("?limit=201"), 400, "validation");
    expectProblem(await search("?limit=0"), 400, "validation");
    expectProblem(await search("?status=parked"), 400, "validation");
    expectProblem(await search("?from=yesterday"), 400, "validation");
    expectProblem(await search("?zone=-1"), 400, "validation");
    expectProblem(await call(s.app, "GET", "/api/v1/tickets"), 401, "unauthorized");
    expectProblem(
      await call(s.app, "GET", "/api/v1/tickets", { token: s.reader }),
      403,
      "insufficient-scope",
    );
  });
});

describe("lookup records, filtered for the audit", () => {
  test("by plate in any spelling (its lookups and verdicts, not a longer plate's), by credential, by time", async () => {
    const s = setup();
    const other = s.token("permits:read");
    const ask = (token: string, path: string) => call(s.app, "GET", path, { token });
    await ask(s.reader, "/api/v1/attendants/check-tickets?registration_number=abc 1");
    s.clock.advance(1000);
    await ask(s.reader, "/api/v1/attendants/check-tickets?registration_number=ABC12");
    s.clock.advance(1000);
    await ask(other, "/api/v1/attendants/verdict?registration_number=ABC-1&zone=7");
    s.clock.advance(1000);
    await ask(other, "/api/v1/attendants/check-tickets?zone=7");
    s.lookupRecorder.flush();
    const queries = async (q: string) =>
      (await call(s.app, "GET", `/api/v1/lookups?${q}`, { token: s.admin })).json.data.map(
        (r: { query: string }) => r.query,
      );
    expect(await queries("registration_number=Abc%201")).toEqual(["ABC1@7", "ABC1"]);
    const byOther = (await call(s.app, "GET", "/api/v1/lookups", { token: s.admin })).json.data[0].credential;
    expect(await queries(`credential=${encodeURIComponent(byOther)}`)).toEqual(["7", "ABC1@7"]);
    expect(
      await queries(
        `from=${encodeURIComponent(formatMicros(at(0) + 1000))}&to=${encodeURIComponent(formatMicros(at(0) + 3000))}`,
      ),
    ).toEqual(["ABC1@7", "ABC12"]);
    expectProblem(
      await call(s.app, "GET", "/api/v1/lookups?from=yesterday", { token: s.admin }),
      400,
      "validation",
    );
    // By kind: the plate checks (lookups and verdicts), the zone lists; with a credential too.
    expect(await queries("by=registration_number,verdict,offline_verdict")).toEqual([
      "ABC1@7",
      "ABC12",
      "ABC1",
    ]);
    expect(await queries("by=zone")).toEqual(["7"]);
    expect(await queries(`by=verdict,zone&credential=${encodeURIComponent(byOther)}`)).toEqual([
      "7",
      "ABC1@7",
    ]);
    expect(await queries("by=zone_list")).toEqual([]);
    const refused = await call(s.app, "GET", "/api/v1/lookups?by=plates", { token: s.admin });
    expectProblem(refused, 400, "validation");
    expect(refused.json.detail).toBe(
      "/by: Expected kinds of record joined by commas, each one of registration_number, zone, zone_list, verdict, observation, checks, offline_verdict, notice",
    );
  });

  test("each record says what a verdict told the attendant; other lookups say null", async () => {
    const s = setup();
    await call(s.app, "POST", "/api/v1/permits", {
      token: s.admin,
      body: { registration_number: "VAL 1", zone: 7, start_at: "2026-06-01", end_at: null },
    });
    const ask = (path: string) => call(s.app, "GET", path, { token: s.reader });
    await ask("/api/v1/attendants/verdict?registration_number=VAL1&zone=7");
    await ask("/api/v1/attendants/verdict?registration_number=VAL1&zone=8");
    await ask("/api/v1/attendants/verdict?registration_number=NONE1&zone=7");
    await ask("/api/v1/attendants/check-tickets?registration_number=VAL1");
    // A busy site's batch (50 records and more go in one statement) keeps them too.
    for (let i = 0; i < 60; i++) await ask(`/api/v1/attendants/verdict?registration_number=VAL1&zone=7`);
    s.lookupRecorder.flush();
    const rows = (await call(s.app, "GET", "/api/v1/lookups?limit=200", { token: s.admin })).json.data as {
      query: string;
      verdict: string | null;
    }[];
    expect(rows.slice(60).map((r) => [r.query, r.verdict])).toEqual([
      ["VAL1", null],
      ["NONE1@7", "none"],
      ["VAL1@8", "valid_elsewhere"],
      ["VAL1@7", "valid_here"],
    ]);
    expect(rows.slice(0, 60).every((r) => r.verdict === "valid_here")).toBe(true);
  });
});

describe("lookup records, paged", () => {
  test("newest first, with a cursor; errors", async () => {
    const s = setup();
    for (let i = 0; i < 5; i++) {
      await call(s.app, "GET", `/api/v1/attendants/check-tickets?registration_number=AB${i}`, {
        token: s.reader,
      });
      s.clock.advance(1000);
    }
    s.lookupRecorder.flush();
    const first = await call(s.app, "GET", "/api/v1/lookups?limit=3", { token: s.admin });
    expect(first.status).toBe(200);
    expect(first.json.data.map((r: { query: string }) => r.query)).toEqual(["AB4", "AB3", "AB2"]);
    expect(first.json.data[0]).toMatchObject({
      by: "registration_number",
      results: 0,
      at: formatMicros(at(0) + 4000),
    });
    expect(first.json.data[0].credential).toMatch(/^token:/);
    const second = await call(s.app, "GET", `/api/v1/lookups?limit=3&cursor=${first.json.next_cursor}`, {
      token: s.admin,
    });
    expect(second.json.data.map((r: { query: string }) => r.query)).toEqual(["AB1", "AB0"]);
    expect(second.json.next_cursor).toBeNull();
    expectProblem(
      await call(s.app, "GET", "/api/v1/lookups?cursor=zzz", { token: s.admin }),
      400,
      "validation",
    );
    expectProblem(
      await call(s.app, "GET", "/api/v1/lookups?limit=500", { token: s.admin }),
      400,
      "validation",
    );
    expectProblem(await call(s.app, "GET", "/api/v1/lookups"), 401, "unauthorized");
    expectProblem(
      await call(s.app, "GET", "/api/v1/lookups", { token: s.reader }),
      403,
      "insufficient-scope",
    );
  });
});
