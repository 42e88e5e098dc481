import { describe, expect, spyOn, test } from "bun:test";
import { lookupServices } from "../../../src/modules/enforcement/index.ts";
import { diffLists } from "../../../src/modules/enforcement/read-model/answers.ts";
import { MAX_FEEDS_PER_CREDENTIAL, ZoneFeed } from "../../../src/modules/enforcement/zone-feed.ts";
import { SLOW_READER } from "../../../src/platform/http/connection-guard.ts";
import { setLogging } from "../../../src/platform/log.ts";
import { call, expectProblem, request, testApp, testClock } from "../../support/app.ts";
import { StreamReader } from "../../support/event-stream.ts";

const FEED = "/api/v1/tickets/zone/7/events";

function event(ticketId: string, plate: string, zone: number, type = "TicketCreated") {
  return {
    eventType: type,
    ticketId,
    zoneCode: String(zone),
    parkingLotId: null,
    startDate: "2026-06-15T11:00:00Z",
    endDate: "2026-06-15T14:00:00Z",
    licenseNumber: plate,
    ticketCost: { amountInclVat: 100, vatRate: 25, currencyCode: "SEK" },
  };
}

function setup() {
  const clock = testClock("2026-06-15T12:00:00Z");
  const s = testApp({}, clock);
  return {
    ...s,
    clock,
    reader: s.token("permits:read"),
    terminal: s.token("tickets:write"),
    admin: s.token("admin"),
  };
}

async function open(
  s: ReturnType<typeof setup>,
  headers: Record<string, string> = {},
  token = s.reader,
  path = FEED,
) {
  const res = await s.app.handle(request("GET", path, { token, headers }));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/event-stream");
  return new StreamReader(res);
}

describe("the live zone feed", () => {
  test("the list on connect, then every change from the intake and from permits", async () => {
    const s = setup();
    const feed = await open(s);
    await feed.until((t) => t.includes("event: plates"));
    expect(feed.events().map((e) => e.data)).toEqual([[]]);
    expect(feed.text).toStartWith("retry: ");
    const sent = await call(s.app, "POST", "/api/v1/actions/tickets", {
      token: s.terminal,
      body: event("T1", "ABC123", 7),
    });
    expect(sent.status).toBe(200);
    await feed.until(() => feed.events().length === 2);
    expect(feed.events()[1]!.data).toEqual(["ABC123"]);
    // Another zone's event sends nothing here.
    await call(s.app, "POST", "/api/v1/actions/tickets", {
      token: s.terminal,
      body: event("T2", "OTHER1", 8),
    });
    const permit = await call(s.app, "POST", "/api/v1/permits", {
      token: s.admin,
      body: { registration_number: "RES 001", zone: 7, start_at: "2026-06-01T00:00:00Z" },
    });
    expect(permit.status).toBe(201);
    await feed.until(() => feed.events().length === 3);
    expect(feed.events()[2]!.data).toEqual(["ABC123", "RES 001"]);
    await call(s.app, "POST", "/api/v1/actions/tickets", {
      token: s.terminal,
      body: { eventType: "TicketCanceled", ticketId: "T1" },
    });
    await feed.until(() => feed.events().length === 4);
    expect(feed.events()[3]!.data).toEqual(["RES 001"]);
    expect(new Set(feed.events().map((e) => e.id)).size).toBe(4);
    await feed.cancel();
  });

  test("the clock: a ticket that ends leaves the list without any write", async () => {
    const s = setup();
    await call(s.app, "POST", "/api/v1/actions/tickets", {
      token: s.terminal,
      body: event("T1", "ABC123", 7),
    });
    const feed = await open(s);
    await feed.until(() => feed.events().length === 1);
    expect(feed.events()[0]!.data).toEqual(["ABC123"]);
    s.clock.set("2026-06-15T14:00:01Z");
    await feed.until(() => feed.events().length === 2, 3_000);
    expect(feed.events()[1]!.data).toEqual([]);
    await feed.cancel();
  });

  test("Last-Event-ID: nothing again if unchanged since, the list if it changed", async () => {
    const s = setup();
    const first = await open(s);
    await first.until(() => first.events().length === 1);
    const id = first.events()[0]!.id;
    await first.cancel();
    const same = await open(s, { "last-event-id": id });
    await same.until((t) => t.includes("retry:"));
    await Bun.sleep(100);
    expect(same.events()).toEqual([]);
    await same.cancel();
    await call(s.app, "POST", "/api/v1/actions/tickets", {
      token: s.terminal,
      body: event("T1", "ABC123", 7),
    });
    const changed = await open(s, { "last-event-id": id });
    await changed.until(() => changed.events().length === 1);
    expect(changed.events()[0]!.data).toEqual(["ABC123"]);
    await changed.cancel();
  });

  test("?changes=1: the list on connect, then only what was added and removed, each with the new list's id", async () => {
    const s = setup();
    const post = (id: string, plate: string, type = "TicketCreated") =>
      call(s.app, "POST", "/api/v1/actions/tickets", { token: s.terminal, body: event(id, plate, 7, type) });
    await post("T1", "AAA111");
    const feed = await open(s, {}, s.reader, `${FEED}?changes=1`);
    const old = await open(s); // a client of the first protocol, beside it
    await feed.until(() => feed.events().length === 1);
    expect(feed.events()[0]!.data).toEqual(["AAA111"]);
    await post("T2", "BBB222");
    await feed.until(() => feed.changes().length === 1);
    await post("T1", "AAA111", "TicketCanceled");
    await feed.until(() => feed.changes().length === 2);
    const [first, second] = feed.changes();
    expect(first).toMatchObject({ from: feed.events()[0]!.id, added: ["BBB222"], removed: [] });
    expect(second).toMatchObject({ from: first!.id, added: [], removed: ["AAA111"] });
    // The first protocol still gets the whole list on every change.
    await old.until(() => old.events().length === 3);
    expect(old.events().map((e) => e.data)).toEqual([["AAA111"], ["AAA111", "BBB222"], ["BBB222"]]);
    expect(old.changes()).toEqual([]);
    expect(old.events()[2]!.id).toBe(second!.id);
    await feed.cancel();
    await old.cancel();
  });

  test("?changes=1: writes that come together go out as one change", async () => {
    const s = setup();
    const post = (id: string, plate: string) =>
      call(s.app, "POST", "/api/v1/actions/tickets", { token: s.terminal, body: event(id, plate, 7) });
    const feed = await open(s, {}, s.reader, `${FEED}?changes=1`);
    await feed.until(() => feed.events().length === 1);
    await Promise.all([post("T1", "AAA111"), post("T2", "BBB222"), post("T3", "CCC333")]);
    await feed.until(() => feed.changes().length >= 1);
    await Bun.sleep(150);
    expect(feed.changes()).toHaveLength(1);
    expect(feed.changes()[0]!.added).toEqual(["AAA111", "BBB222", "CCC333"]);
    await feed.cancel();
  });

  test("?changes=1 with Last-Event-ID: what changed since, as one change; an unknown version gets the list", async () => {
    const s = setup();
    const post = (id: string, plate: string, type = "TicketCreated") =>
      call(s.app, "POST", "/api/v1/actions/tickets", { token: s.terminal, body: event(id, plate, 7, type) });
    const keep = await open(s, {}, s.reader, `${FEED}?changes=1`); // keeps the zone watched
    await keep.until(() => keep.events().length === 1);
    const since = keep.events()[0]!.id;
    // One at a time: writes that come together go out as one change.
    await post("T1", "AAA111");
    await keep.until(() => keep.changes().length === 1);
    await post("T2", "BBB222");
    await keep.until(() => keep.changes().length === 2);
    await post("T1", "AAA111", "TicketCanceled");
    await keep.until(() => keep.changes().length === 3);
    const resumed = await open(s, { "last-event-id": since }, s.reader, `${FEED}?changes=1`);
    await resumed.until(() => resumed.changes().length === 1);
    // AAA111 came and went: it cancels out.
    expect(resumed.changes()[0]).toMatchObject({ from: since, added: ["BBB222"], removed: [] });
    expect(resumed.changes()[0]!.id).toBe(keep.changes()[2]!.id);
    expect(resumed.events()).toEqual([]);
    const stranger = await open(s, { "last-event-id": "not-a-version" }, s.reader, `${FEED}?changes=1`);
    await stranger.until(() => stranger.events().length === 1);
    expect(stranger.events()[0]!.data).toEqual(["BBB222"]);
    for (const r of [keep, resumed, stranger]) await r.cancel();
  });

  test("subscribers of a zone share one answer; closed feeds are forgotten", async () => {
    const s = setup();
    const feeds = [await open(s), await open(s, {}, s.admin)];
    for (const f of feeds) await f.until(() => f.events().length === 1);
    await call(s.app, "POST", "/api/v1/actions/tickets", {
      token: s.terminal,
      body: event("T1", "ABC123", 7),
    });
    for (const f of feeds) await f.until(() => f.events().length === 2);
    expect(feeds[0]!.events()[1]).toEqual(feeds[1]!.events()[1]!);
    const status = await call(s.app, "GET", "/api/v1/status", { token: s.admin });
    expect(status.json.data.live_feeds).toBe(2);
    for (const f of feeds) await f.cancel();
    expect((await call(s.app, "GET", "/api/v1/status", { token: s.admin })).json.data.live_feeds).toBe(0);
  });

  test(`at most ${MAX_FEEDS_PER_CREDENTIAL} open feeds per credential: 429 beyond`, async () => {
    const s = setup();
    const feeds: StreamReader[] = [];
    for (let i = 0; i < MAX_FEEDS_PER_CREDENTIAL; i++) feeds.push(await open(s));
    const over = await call(s.app, "GET", FEED, { token: s.reader });
    expectProblem(over, 429, "too-many-feeds");
    expect(over.headers.get("retry-after")).toBe("15");
    // Another credential is not held back by this one.
    const other = await open(s, {}, s.admin);
    await other.cancel();
    await feeds.pop()!.cancel();
    const again = await open(s);
    await again.cancel();
    for (const f of feeds) await f.cancel();
  });

  test("errors: 401, 403, 400; opening it is recorded as a zone-list lookup", async () => {
    const s = setup();
    expectProblem(await call(s.app, "GET", FEED), 401, "unauthorized");
    expectProblem(await call(s.app, "GET", FEED, { token: s.terminal }), 403, "insufficient-scope");
    expectProblem(
      await call(s.app, "GET", "/api/v1/tickets/zone/seven/events", { token: s.reader }),
      400,
      "validation",
    );
    const f = await open(s);
    await f.cancel();
    s.lookupRecorder.flush();
    const page = await call(s.app, "GET", "/api/v1/lookups", { token: s.admin });
    expect(page.json.data[0]).toMatchObject({ by: "zone_list", query: "7", results: 0 });
  });

  test("shutdown ends open feeds", async () => {
    const s = setup();
    const f = await open(s);
    await f.until(() => f.events().length === 1);
    s.ctx.openStreams.close();
    await f.until(() => false, 500).catch((e: Error) => expect(e.message).toContain("stream ended"));
  });

  test("a comment line keeps an idle feed open", async () => {
    const s = setup();
    const feed = new ZoneFeed({ ...s.ctx, ...lookupServices(s.ctx) }, 50);
    const reader = new StreamReader(feed.open(7, "token:test", null).response);
    await reader.until((t) => t.includes(": keep-alive\n\n"), 2_000);
    expect(reader.events()).toHaveLength(1);
    await reader.cancel();
    expect(feed.subscribers).toBe(0);
  });
});

describe("a feed that cannot read its zone's list", () => {
  test("logs it once with its stack, keeps its subscribers, and says when it recovered", async () => {
    const s = setup();
    const { readModel } = lookupServices(s.ctx);
    let broken = false;
    const zoneList = readModel.zoneList.bind(readModel);
    readModel.zoneList = (zone, at) => {
      if (broken) throw new TypeError("a mistake in the list's code");
      return zoneList(zone, at);
    };
    const feed = new ZoneFeed({ ...s.ctx, readModel });
    const reader = new StreamReader(feed.open(7, "token:test", null).response);
    await reader.until(() => reader.events().length === 1);
    const write = spyOn(process.stderr, "write").mockImplementation(() => true);
    setLogging(true);
    let written: string[];
    try {
      broken = true;
      // Three clock ticks failing, then one that works.
      await Bun.sleep(3_200);
      broken = false;
      await Bun.sleep(1_100);
      written = write.mock.calls.map((c) => String(c[0]));
    } finally {
      setLogging(false);
      write.mockRestore();
    }
    const lines = written
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((l) => String(l.msg).startsWith("the live zone feeds"));
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [
        "error",
        "the live zone feeds could not read a zone's list; they try again at the next write or second",
      ],
      [
        "notice",
        "the live zone feeds could not read a zone's list; they try again at the next write or second: recovered",
      ],
    ]);
    expect(lines[0]).toMatchObject({ zone: 7, error: { name: "TypeError" } });
    expect(feed.subscribers).toBe(1);
    await reader.cancel();
  });
});

describe("diffLists", () => {
  test.each([
    [[], [], [], []],
    [["A"], ["A"], [], []],
    [[], ["A", "B"], ["A", "B"], []],
    [["A", "B"], [], [], ["A", "B"]],
    [
      ["A", "C", "E"],
      ["B", "C", "D"],
      ["B", "D"],
      ["A", "E"],
    ],
    [["ABC123", "XYZ789"], ["ABC123", "XYZ789", "ÅÄÖ111"], ["ÅÄÖ111"], []],
    [["ABC123", "XYZ789", "ÅÄÖ111"], ["ABC123", "ÖÖÖ999"], ["ÖÖÖ999"], ["XYZ789", "ÅÄÖ111"]],
  ])("%j -> %j", (before, after, added, removed) => {
    expect(diffLists(before, after)).toEqual({ added, removed });
  });
});

describe("a feed whose client stopped reading", () => {
  test("is counted in parkd_dropped_total and logged at info when the front end cuts it", async () => {
    const s = setup();
    const res = await s.app.handle(request("GET", FEED, { token: s.reader }));
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel(SLOW_READER);
    expect(s.ctx.metrics.render()).toContain('parkd_dropped_total{what="zone_feeds"} 1');
    // A client that closes its feed itself is not a drop.
    const other = (await s.app.handle(request("GET", FEED, { token: s.reader }))).body!.getReader();
    await other.read();
    await other.cancel();
    expect(s.ctx.metrics.render()).toContain('parkd_dropped_total{what="zone_feeds"} 1');
  });
});
