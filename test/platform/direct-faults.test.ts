import { afterAll, expect, test } from "bun:test";
import { startFrontEnd } from "../../src/platform/http/server.ts";
import { testApp, testClock } from "../support/app.ts";
import { comparable, exchange } from "../support/direct-answers.ts";
import { seedTicket } from "../support/seed.ts";

/**
 * A direct route that fails on its way to a yes (the store unreadable while it checks the token
 * or reads the lookup's rows) says nothing itself: the request is left to the app, whose answer
 * (503 store-unavailable, the connection kept) is the one given, and the credential's bucket is
 * drawn on once, as by the app alone. Each request goes to a front end with the direct routes and
 * to one without, over the same box.
 */

const NOW = "2026-06-15T12:00:00Z";
const CHECK = "/api/v1/attendants/check-tickets";
const BURST = 3;
// A bucket that does not refill while the test runs: its fourth request is 429.
const s = testApp({ rateLimitPerSecond: 0.0001, rateLimitBurst: BURST }, testClock(NOW));
seedTicket(s.ctx, { ticketId: "T1", plate: "ABC123", zone: 1234, start: Date.parse(NOW) - 3_600_000 });

const account = (entry: { route: string }) => s.ctx.accounting.finish({ ...entry } as never);
const start = (direct: boolean) =>
  startFrontEnd({
    host: "127.0.0.1",
    port: 0,
    bodyLimit: 64 * 1024,
    ...(direct ? { direct: s.direct } : {}),
    handle: s.app.handle,
    account,
  });
const fronts = { direct: await start(true), app: await start(false) };
afterAll(async () => {
  await fronts.direct.close(100);
  await fronts.app.close(100);
});

/** Two requests on one connection: the first must leave it open for the second. */
const twice = (token: string) => {
  const one = `GET ${CHECK}?zone=1234 HTTP/1.1\r\nhost: box.lan\r\nauthorization: Bearer ${token}\r\n`;
  return `${one}\r\n${one}connection: close\r\n\r\n`;
};

const statuses = (answer: string) => [...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]);

/** Requests counted for check-tickets with this status, by either front end. */
const counted = (status: string) =>
  s.ctx.metrics
    .snapshot()
    .find((f) => f.name === "parkd_http_requests_total")!
    .samples.filter((x) => x.labels?.route === CHECK && x.labels?.status === status)
    .reduce((n, x) => n + x.value, 0);

const storeError = () => Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR" });

/** While `fault` holds, each front end is asked the same; their answers, with a token each. */
async function during(fault: () => () => void): Promise<Record<"direct" | "app", string[]>> {
  const tokens = { direct: s.token("permits:read"), app: s.token("permits:read") };
  const out: Record<"direct" | "app", string[]> = { direct: [], app: [] };
  for (const side of ["direct", "app"] as const) {
    const heal = fault();
    try {
      out[side].push(await exchange(fronts[side], twice(tokens[side])));
    } finally {
      heal();
    }
    // The fault over: the bucket left has room for one more, then 429.
    out[side].push(await exchange(fronts[side], twice(tokens[side])));
  }
  return out;
}

test("the store unreadable while a lookup reads its rows: the app's 503, the bucket drawn on once", async () => {
  const written = s.ctx.store.written;
  const before = { "503": counted("503"), "500": counted("500") };
  const answers = await during(() => {
    const others = written.others;
    written.others = () => {
      throw storeError();
    };
    return () => {
      written.others = others;
    };
  });
  expect(statuses(answers.app[0]!)).toEqual(["503", "503"]);
  expect(statuses(answers.app[1]!)).toEqual(["200", "429"]);
  expect(answers.direct.map(comparable)).toEqual(answers.app.map(comparable));
  // Each 503 accounted once, as the app accounts it, by either front end; no 500 of its own.
  expect(counted("503") - before["503"]).toBe(4);
  expect(counted("500") - before["500"]).toBe(0);
});

test("the store unreadable while the token is checked: the app's 503", async () => {
  const credentials = s.ctx.store.credentials;
  const answers = await during(() => {
    const tokenForHash = credentials.tokenForHash;
    credentials.tokenForHash = () => {
      throw storeError();
    };
    return () => {
      credentials.tokenForHash = tokenForHash;
    };
  });
  expect(statuses(answers.app[0]!)).toEqual(["503", "503"]);
  expect(answers.direct.map(comparable)).toEqual(answers.app.map(comparable));
});
