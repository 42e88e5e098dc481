import { afterAll, describe, expect, test } from "bun:test";
import { startFrontEnd } from "../../src/platform/http/server.ts";
import { examples } from "../modules/intake/examples.ts";
import { testApp, testClock } from "../support/app.ts";
import { comparable, exchange } from "../support/direct-answers.ts";

/**
 * A ticket event answered by the front end itself (intakeDirect) is the app's answer: two boxes
 * with the same clock get the same requests in the same order, one behind a front end with the
 * direct routes and one without, and every answer must be the same bytes but its date and request
 * id, the stored events the same. Refusals found before the event is queued are declined (the app
 * answers them); those found when it is applied, and a failed disk sync, are answered directly
 * with the app's own problem.
 */

const NOW = "2026-06-15T08:05:00Z";
const INTAKE = "/api/v1/actions/tickets";

async function side(direct: boolean) {
  const s = testApp({ timezone: "Europe/Stockholm" }, testClock(NOW));
  const seen = { app: 0 };
  const front = await startFrontEnd({
    host: "127.0.0.1",
    port: 0,
    bodyLimit: 64 * 1024,
    ...(direct ? { direct: s.direct } : {}),
    handle: (request) => {
      seen.app++;
      return s.app.handle(request);
    },
    account: (entry) => s.ctx.accounting.finish(entry),
  });
  const tokens = {
    writer: s.token("tickets:write"),
    reader: s.token("permits:read"),
    basic: await s.user("terminal-1", "a long terminal password", "tickets:write"),
  };
  return { s, seen, front, tokens };
}

const withDirect = await side(true);
const appOnly = await side(false);
afterAll(async () => {
  await withDirect.front.close(100);
  await appOnly.front.close(100);
});

type Tokens = Awaited<ReturnType<typeof side>>["tokens"];

const post = (
  body: string,
  opts: { auth?: string; type?: string | null; target?: string; chunked?: boolean } = {},
) => {
  const type = opts.type === undefined ? "application/json" : opts.type;
  const framing = opts.chunked
    ? `transfer-encoding: chunked\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`
    : `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  return (
    `POST ${opts.target ?? INTAKE} HTTP/1.1\r\nhost: box.lan\r\n` +
    `${opts.auth ? `authorization: ${opts.auth}\r\n` : ""}${type === null ? "" : `content-type: ${type}\r\n`}` +
    `connection: close\r\n${framing}`
  );
};
const json = (value: unknown) => JSON.stringify(value);
const created = (ticketId: string, more: object = {}) =>
  json({ ...examples.TicketCreated, ticketId, ...more });

/** [what, the request for a side's tokens, answered directly] */
const cases: [string, (t: Tokens) => string, boolean][] = [
  ["a ticket created", (t) => post(created("T1"), { auth: `Bearer ${t.writer}` }), true],
  ["the same again (a retry)", (t) => post(created("T1"), { auth: `Bearer ${t.writer}` }), true],
  [
    "other content for the same ticket: 409 when applied",
    (t) => post(created("T1", { licenseNumber: "XYZ999" }), { auth: `Bearer ${t.writer}` }),
    true,
  ],
  [
    "an update of an unknown ticket: 404 when applied",
    (t) => post(json({ ...examples.TicketUpdated, ticketId: "nope" }), { auth: `Bearer ${t.writer}` }),
    true,
  ],
  ["chunked", (t) => post(created("T2"), { auth: `Bearer ${t.writer}`, chunked: true }), true],
  [
    "application/json; charset=utf-8",
    (t) => post(created("T3"), { auth: `Bearer ${t.writer}`, type: "application/json; charset=utf-8" }),
    true,
  ],
  ["no content type", (t) => post(created("T4"), { auth: `Bearer ${t.writer}`, type: null }), true],
  [
    "a field missing",
    (t) => post(json({ ...examples.TicketCreated, ticketId: undefined }), { auth: `Bearer ${t.writer}` }),
    false,
  ],
  [
    "an unknown event type",
    (t) =>
      post(json({ ...examples.TicketCreated, eventType: "TicketEaten" }), { auth: `Bearer ${t.writer}` }),
    false,
  ],
  ["malformed JSON", (t) => post('{"eventType":', { auth: `Bearer ${t.writer}` }), false],
  ["text/plain", (t) => post(created("T5"), { auth: `Bearer ${t.writer}`, type: "text/plain" }), false],
  [
    "latin-1",
    (t) => post(created("T6"), { auth: `Bearer ${t.writer}`, type: "application/json; charset=iso-8859-1" }),
    false,
  ],
  [
    "a query string",
    (t) => post(created("T7"), { auth: `Bearer ${t.writer}`, target: `${INTAKE}?x=1` }),
    false,
  ],
  ["Basic (a terminal)", (t) => post(created("T8"), { auth: t.basic }), false],
  ["no credentials", () => post(created("T9")), false],
  ["a token without the scope", (t) => post(created("T10"), { auth: `Bearer ${t.reader}` }), false],
  ["an unknown token", () => post(created("T11"), { auth: "Bearer pk_unknown" }), false],
  ["an empty body", (t) => post("", { auth: `Bearer ${t.writer}` }), false],
];

describe("ticket events answered directly are the app's answers", async () => {
  const answers = { direct: [] as string[], app: [] as string[] };
  const byApp: boolean[] = [];
  for (const [, requestFor] of cases) {
    const before = withDirect.seen.app;
    answers.direct.push(await exchange(withDirect.front, requestFor(withDirect.tokens)));
    byApp.push(withDirect.seen.app > before);
    answers.app.push(await exchange(appOnly.front, requestFor(appOnly.tokens)));
  }
  // The disk refuses the sync: the event may be stored, and the answer is the app's 503.
  const failing = Object.assign(new Error("EIO"), { code: "SQLITE_IOERR_FSYNC" });
  for (const { s } of [withDirect, appOnly]) s.ctx.store.synced = () => Promise.reject(failing);
  const syncFailed = {
    direct: await exchange(
      withDirect.front,
      post(created("S1"), { auth: `Bearer ${withDirect.tokens.writer}` }),
    ),
    app: await exchange(appOnly.front, post(created("S1"), { auth: `Bearer ${appOnly.tokens.writer}` })),
  };
  const stored = (s: typeof withDirect.s) =>
    s.ctx.store.sqlite
      .query("SELECT ticket_id, event_type, raw_body, outcome, canonical FROM ticket_events ORDER BY seq")
      .all()
      .map((r) => JSON.stringify(r));

  cases.forEach(([what, , direct], i) => {
    test(`${what}: ${direct ? "answered directly" : "answered by the app"}, the same answer`, () => {
      expect(byApp[i]).toBe(!direct);
      expect(comparable(answers.direct[i]!)).toBe(comparable(answers.app[i]!));
    });
  });

  test("the applied refusals are the app's problems", () => {
    expect(answers.direct[2]).toStartWith("HTTP/1.1 409 ");
    expect(answers.direct[3]).toStartWith("HTTP/1.1 404 ");
  });

  test("a failed disk sync: the app's 503, said the same way", () => {
    expect(syncFailed.direct).toStartWith("HTTP/1.1 503 ");
    expect(comparable(syncFailed.direct)).toBe(comparable(syncFailed.app));
  });

  test("the same events stored, with the bodies as sent", () => {
    expect(stored(withDirect.s).length).toBeGreaterThan(4);
    expect(stored(withDirect.s)).toEqual(stored(appOnly.s));
  });
});
