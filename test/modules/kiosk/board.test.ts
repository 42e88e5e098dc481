import { describe, expect, test } from "bun:test";
import { MAX_BOARD_STREAMS, MAX_BOARD_STREAMS_PER_ADDRESS } from "../../../src/modules/kiosk/feed.ts";
import { attachMeta } from "../../../src/platform/http/request-meta.ts";
import { call, expectProblem, request, testApp, testClock } from "../../support/app.ts";
import { cityLot } from "../../support/lots.ts";
import { examples } from "../intake/examples.ts";

/** Issue 25: the kiosk board's figures, once and live; public, and never a plate. */

async function setup() {
  // Monday 15 June 2026, 12:00 local: cityLot charges 20 SEK an hour on weekdays 08-18.
  const clock = testClock("2026-06-15T10:00:00Z");
  const s = testApp({ timezone: "Europe/Stockholm" }, clock);
  const writer = s.token("tickets:write");
  const admin = s.token("admin");
  for (const lot of [
    { ...cityLot(), id: 1, name: "Storgatan", number_of_spaces: 2 },
    { ...cityLot(), id: 2, name: "Hamnen", number_of_spaces: 0 },
    { ...cityLot(), id: 3, name: "Stängd", active: false },
  ])
    expect((await call(s.app, "POST", "/api/v1/parkings", { token: admin, body: lot })).status).toBe(201);
  const ticket = async (id: string, plate: string) => {
    const body = {
      ...examples.CreateOrUpdate,
      ticketId: id,
      parkingLotId: "1",
      licenseNumber: plate,
      startDate: "2026-06-15T09:00:00Z",
      endDate: "2026-06-15T12:00:00Z",
    };
    expect((await call(s.app, "POST", "/api/v1/actions/tickets", { token: writer, body })).status).toBe(200);
  };
  return { ...s, clock, ticket };
}

describe("GET /api/v1/board", () => {
  test("free spaces (or full) and the price of the next hour, in the order asked, without credentials", async () => {
    const s = await setup();
    await s.ticket("k1", "ABC123");
    const r = await call(s.app, "GET", "/api/v1/board?lots=2,1");
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      at: "2026-06-15T10:00:00.000000Z",
      currency: "SEK",
      lots: [
        { id: 2, name: "Hamnen", free: null, full: false, price_per_hour: 2000 },
        { id: 1, name: "Storgatan", free: 1, full: false, price_per_hour: 2000 },
      ],
    });
    await s.ticket("k2", "XYZ789");
    const full = await call(s.app, "GET", "/api/v1/board?lots=1");
    expect(full.json.lots[0]).toMatchObject({ free: 0, full: true });
    expect(full.text).not.toContain("ABC123");
    expect(full.text).not.toContain("XYZ789");
    // Without lots: every active lot.
    expect((await call(s.app, "GET", "/api/v1/board")).json.lots.map((l: { id: number }) => l.id)).toEqual([
      1, 2,
    ]);
  });

  test("lots must be ids joined by commas", async () => {
    const s = await setup();
    expectProblem(await call(s.app, "GET", "/api/v1/board?lots=1;2"), 400, "validation");
    const many = Array.from({ length: 25 }, (_, i) => i + 1).join(",");
    expectProblem(await call(s.app, "GET", `/api/v1/board?lots=${many}`), 400, "validation");
  });
});

describe("GET /api/v1/board/events", () => {
  test("a board event on connect, and another when a ticket takes a space", async () => {
    const s = await setup();
    const res = await s.app.handle(request("GET", "/api/v1/board/events?lots=1"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const boards = () =>
      text
        .split("\n\n")
        .filter((b) => b.startsWith("event: board"))
        .map((b) => JSON.parse(/^data: (.*)$/m.exec(b)![1]!));
    // One read outstanding at a time: a read left behind by a timeout still gets its chunk.
    let pending: ReturnType<typeof reader.read> | null = null;
    const until = async (n: number) => {
      const deadline = Date.now() + 5_000;
      while (boards().length < n) {
        if (Date.now() > deadline) throw new Error(`no board event; got: ${text}`);
        pending ??= reader.read();
        const next = await Promise.race([pending, Bun.sleep(200).then(() => null)]);
        if (next === null) continue;
        pending = null;
        if (next.value) text += decoder.decode(next.value, { stream: true });
      }
    };
    await until(1);
    expect(boards()[0].lots[0]).toMatchObject({ id: 1, free: 2, full: false });
    await s.ticket("k1", "ABC123");
    await until(2);
    expect(boards()[1].lots[0]).toMatchObject({ id: 1, free: 1 });
    expect(text).not.toContain("ABC123");
    await reader.cancel();
  });
});

describe("GET /board", () => {
  test("the board page: public, strict CSP, its own script and stylesheet", async () => {
    const s = await setup();
    const r = await call(s.app, "GET", "/board?lots=1,2");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(r.text).toMatch(/<script type="module" src="\/board\.js\?v=[^"]+"><\/script>/);
    const js = await call(s.app, "GET", "/board.js");
    expect(js.status).toBe(200);
    expect(js.text).toContain("/api/v1/board/events");
  });
});

describe("board streams are shared fairly among addresses", () => {
  /** A board stream from a client address: its answer, and whether the box has ended it. */
  async function openFrom(s: Awaited<ReturnType<typeof setup>>, ip: string) {
    const r = request("GET", "/api/v1/board/events?lots=1");
    attachMeta(r, { id: "t", ip });
    const res = await s.app.handle(r);
    if (res.status !== 200) return { res, ended: async () => true, cancel: async () => {} };
    const reader = res.body!.getReader();
    await reader.read(); // the first board
    let done = false;
    const reading = (async () => {
      while (!(await reader.read()).done);
      done = true;
    })().catch(() => {});
    return {
      res,
      /** True once the box has closed the stream (within a short bound). */
      ended: async () => {
        await Promise.race([reading, Bun.sleep(200)]);
        return done;
      },
      cancel: () => reader.cancel().catch(() => {}),
    };
  }

  test("one address holds at most a few streams; the rest get 429 too-many-boards", async () => {
    const s = await setup();
    const mine = [];
    for (let i = 0; i < MAX_BOARD_STREAMS_PER_ADDRESS; i++) mine.push(await openFrom(s, "10.0.0.1"));
    expect(mine.map((b) => b.res.status)).toEqual(Array(MAX_BOARD_STREAMS_PER_ADDRESS).fill(200));
    const refused = await openFrom(s, "10.0.0.1");
    const text = await refused.res.text();
    const p = expectProblem(
      { status: refused.res.status, headers: refused.res.headers, text, json: JSON.parse(text) },
      429,
      "too-many-boards",
    );
    expect(p.detail).toContain("This address");
    expect(Number(refused.res.headers.get("retry-after"))).toBeGreaterThan(0);
    // A kiosk elsewhere is served, and a closed stream frees its place.
    const elsewhere = await openFrom(s, "10.0.0.2");
    expect(elsewhere.res.status).toBe(200);
    await mine[0]!.cancel();
    expect((await openFrom(s, "10.0.0.1")).res.status).toBe(200);
    for (const b of [...mine, elsewhere]) await b.cancel();
  });

  test("at the total cap a new kiosk ends the oldest stream of the address holding the most", async () => {
    const s = await setup();
    const held: Awaited<ReturnType<typeof openFrom>>[][] = [];
    const addresses = MAX_BOARD_STREAMS / MAX_BOARD_STREAMS_PER_ADDRESS;
    for (let a = 0; a < addresses; a++) {
      const list = [];
      for (let i = 0; i < MAX_BOARD_STREAMS_PER_ADDRESS; i++) list.push(await openFrom(s, `10.1.0.${a + 1}`));
      expect(list.map((b) => b.res.status)).toEqual(Array(MAX_BOARD_STREAMS_PER_ADDRESS).fill(200));
      held.push(list);
    }
    const kiosk = await openFrom(s, "192.168.5.20");
    expect(kiosk.res.status).toBe(200);
    // The first address to take its full share lost its oldest stream, and only that one.
    expect(await held[0]![0]!.ended()).toBe(true);
    expect(await held[0]![1]!.ended()).toBe(false);
    expect(await held[1]![0]!.ended()).toBe(false);
    // A second kiosk elsewhere takes from the next address holding the most.
    const second = await openFrom(s, "192.168.5.21");
    expect(second.res.status).toBe(200);
    expect(await held[1]![0]!.ended()).toBe(true);
    // An address already holding as many as the largest share takes nothing from the others.
    expectProblem(
      await (async () => {
        const r = (await openFrom(s, "10.1.0.1")).res;
        const text = await r.text();
        return { status: r.status, headers: r.headers, text, json: JSON.parse(text) };
      })(),
      429,
      "too-many-boards",
    );
    // The kiosks keep their streams.
    expect(await kiosk.ended()).toBe(false);
    expect(await second.ended()).toBe(false);
    for (const b of [...held.flat(), kiosk, second]) await b.cancel();
  }, 30_000);
});
