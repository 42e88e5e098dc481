import { expect, test } from "bun:test";
import { call, testApp, testClock } from "../../support/app.ts";
import { examples } from "./examples.ts";

/**
 * A group is first applied without a savepoint per event; an event whose statement fails after
 * it has written something makes the service redo the group with one savepoint per event.
 */
test("an event that fails after writing its ticket is lost alone; the rest of its group commits", async () => {
  const s = testApp({ timezone: "Europe/Stockholm" }, testClock("2026-06-15T08:05:00Z"));
  const writer = s.token("tickets:write");
  const post = (body: unknown) => call(s.app, "POST", "/api/v1/actions/tickets", { token: writer, body });
  // The ticket row goes in first, then the log entry, which this trigger refuses for one ticket.
  s.ctx.store.sqlite.run(
    `CREATE TEMP TRIGGER refuse_boom BEFORE INSERT ON ticket_events WHEN NEW.ticket_id = 'boom'
     BEGIN SELECT RAISE(ABORT, 'refused by test'); END`,
  );
  const answers = await Promise.all([
    post(examples.TicketCreated),
    post({ ...examples.TicketCreated, ticketId: "boom" }),
    post({ ...examples.TicketCreated, ticketId: "after" }),
    post({ ...examples.TicketCreated, licenseNumber: "QQQ999" }),
  ]);
  expect(answers.map((a) => a.status)).toEqual([200, 500, 200, 409]);
  const ids = s.ctx.store.sqlite.query("SELECT ticket_id AS id FROM tickets ORDER BY ticket_id").all();
  expect(ids).toEqual([{ id: "100234" }, { id: "after" }]);
  const events = s.ctx.store.sqlite
    .query("SELECT ticket_id AS id, outcome FROM ticket_events ORDER BY seq")
    .all();
  expect(events).toEqual([
    { id: "100234", outcome: "applied" },
    { id: "after", outcome: "applied" },
  ]);
  expect(s.ctx.metrics.ticketEvents.get({ type: "TicketCreated" })).toBe(2);
});

test("an event is answered only once the disk holds it; a failed sync is a 503, and the retry a repeat", async () => {
  const s = testApp({ timezone: "Europe/Stockholm" }, testClock("2026-06-15T08:05:00Z"));
  const writer = s.token("tickets:write");
  const post = (body: unknown) => call(s.app, "POST", "/api/v1/actions/tickets", { token: writer, body });
  const store = s.ctx.store;
  let release: (error?: Error) => void = () => {};
  store.synced = () => new Promise<void>((resolve, reject) => (release = (e) => (e ? reject(e) : resolve())));
  let answered = false;
  const answer = post(examples.TicketCreated).then((a) => {
    answered = true;
    return a;
  });
  await Bun.sleep(20);
  // Committed (a lookup may read it), not yet answered: the disk has not said it holds it.
  expect(store.sqlite.query("SELECT count(*) AS n FROM tickets").get()).toEqual({ n: 1 });
  expect(answered).toBe(false);
  release();
  expect((await answer).status).toBe(200);

  const failing = post({ ...examples.TicketCreated, ticketId: "synced-later" });
  await Bun.sleep(20);
  release(Object.assign(new Error("EIO"), { code: "SQLITE_IOERR_FSYNC" }));
  expect((await failing).status).toBe(503);
  // The terminal sends it again: the event was committed, so the retry is answered as a repeat.
  const retry = post({ ...examples.TicketCreated, ticketId: "synced-later" });
  await Bun.sleep(20);
  release();
  expect((await retry).status).toBe(200);
  expect(
    store.sqlite.query("SELECT count(*) AS n FROM tickets WHERE ticket_id = 'synced-later'").get(),
  ).toEqual({
    n: 1,
  });
});

test("a second group commits while the first waits for the disk; each is answered once its own sync is done", async () => {
  const s = testApp({ timezone: "Europe/Stockholm" }, testClock("2026-06-15T08:05:00Z"));
  const writer = s.token("tickets:write");
  const post = (ticketId: string) =>
    call(s.app, "POST", "/api/v1/actions/tickets", {
      token: writer,
      body: { ...examples.TicketCreated, ticketId },
    });
  const store = s.ctx.store;
  const syncs: (() => void)[] = [];
  store.synced = () => new Promise<void>((resolve) => syncs.push(resolve));
  const answered: string[] = [];
  const send = (id: string) =>
    post(id).then((a) => {
      answered.push(id);
      return a;
    });
  const tickets = () => (store.sqlite.query("SELECT count(*) AS n FROM tickets").get() as { n: number }).n;

  const first = send("first");
  await Bun.sleep(20);
  const second = send("second");
  await Bun.sleep(20);
  // Both committed, each waiting for a sync of its own; a third group waits for a free place.
  expect(tickets()).toBe(2);
  expect(syncs.length).toBe(2);
  const third = send("third");
  await Bun.sleep(20);
  expect(tickets()).toBe(2);
  expect(answered).toEqual([]);

  syncs[0]!();
  expect((await first).status).toBe(200);
  await Bun.sleep(20);
  expect(answered).toEqual(["first"]);
  // The third group was committed once the first's sync freed its place.
  expect(tickets()).toBe(3);
  syncs[1]!();
  syncs[2]!();
  expect((await second).status).toBe(200);
  expect((await third).status).toBe(200);
  expect(answered).toEqual(["first", "second", "third"]);
});
