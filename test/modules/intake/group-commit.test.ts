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
