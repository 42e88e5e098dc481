import { afterAll, describe, expect, test } from "bun:test";
import { type FrontEnd, startFrontEnd } from "../../src/platform/http/server.ts";
import { permitLookups } from "../../src/platform/store/schema/index.ts";
import { testApp, testClock } from "../support/app.ts";
import { comparable, exchange } from "../support/direct-answers.ts";
import { seedTicket } from "../support/seed.ts";

/**
 * The routes the front end answers itself (src/platform/http/direct.ts) say only the app's yes:
 * every request below goes to two front ends over the same box, one with the direct routes and
 * one without, and each answer must be the same bytes but its date and request id. The app is
 * counted, so the plain requests are seen to be answered directly and the rest by the app.
 */

const NOW = "2026-06-15T12:00:00Z";
const CHECK = "/api/v1/attendants/check-tickets";
const ZONE_LIST = "/api/v1/tickets/zone/";

const clock = testClock(NOW);
// A bucket of 100 requests at once, which the table below stays within, and the last test exceeds.
const BURST = 100;
const s = testApp({ rateLimitPerSecond: 1, rateLimitBurst: BURST }, clock);
seedTicket(s.ctx, { ticketId: "T1", plate: "ABC123", zone: 1234, start: Date.parse(NOW) - 3_600_000 });
seedTicket(s.ctx, { ticketId: "T2", plate: "ÅÄÖ 77", zone: 1234, start: Date.parse(NOW) - 7_200_000 });
// A busy zone: its answers are large enough to go compressed.
for (let i = 0; i < 200; i++)
  seedTicket(s.ctx, {
    ticketId: `B${i}`,
    plate: `BSY${100 + i}`,
    zone: 4321,
    start: Date.parse(NOW) - 600_000,
  });

let appCalls = 0;
const handle = (request: Request) => {
  appCalls++;
  return s.app.handle(request);
};
const account = (entry: { route: string }) => s.ctx.accounting.finish({ ...entry } as never);
const withDirect = await startFrontEnd({
  host: "127.0.0.1",
  port: 0,
  bodyLimit: 64 * 1024,
  direct: s.direct,
  handle,
  account,
});
const appOnly = await startFrontEnd({ host: "127.0.0.1", port: 0, bodyLimit: 64 * 1024, handle, account });
afterAll(async () => {
  await withDirect.close(100);
  await appOnly.close(100);
});

const get = (target: string, headers: string[] = [], body = "") =>
  `GET ${target} HTTP/1.1\r\nhost: box.lan\r\n${headers.map((h) => `${h}\r\n`).join("")}` +
  `${body ? `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` : ""}` +
  `connection: close\r\n\r\n${body}`;

const reader = (token: string) => [`authorization: Bearer ${token}`];
let revoked = 0;
/** A token used (its row cached), then revoked. */
function revokedToken(): string {
  const { id, token } = s.credentials.createToken({ name: `revoked-${++revoked}`, scopes: ["permits:read"] });
  s.credentials.verifyBearer(token);
  s.credentials.revokeToken(id);
  return token;
}

/** [what, the request for a token, answered directly] */
const cases: [string, (token: string) => string, boolean][] = [
  ["healthz", () => get("/healthz"), true],
  ["healthz with a query the route does not read", () => get("/healthz?x=1"), false],
  ["HEAD healthz", () => get("/healthz").replace(/^GET/, "HEAD"), false],
  ["a plate", (t) => get(`${CHECK}?registration_number=ABC123`, reader(t)), true],
  ["a plate typed loosely", (t) => get(`${CHECK}?registration_number=abc-123`, reader(t)), true],
  ["a plate with no permit", (t) => get(`${CHECK}?registration_number=ZZZ999`, reader(t)), true],
  ["a zone", (t) => get(`${CHECK}?zone=1234`, reader(t)), true],
  ["a zone with no permit", (t) => get(`${CHECK}?zone=7`, reader(t)), true],
  [
    "a plate in UTF-8, escaped",
    (t) => get(`${CHECK}?registration_number=%C3%85%C3%84%C3%96%2077`, reader(t)),
    false,
  ],
  ["a plate with a plus", (t) => get(`${CHECK}?registration_number=ABC+123`, reader(t)), false],
  ["both targets", (t) => get(`${CHECK}?registration_number=ABC123&zone=1234`, reader(t)), false],
  ["no target", (t) => get(CHECK, reader(t)), false],
  ["an empty plate", (t) => get(`${CHECK}?registration_number=`, reader(t)), false],
  ["a plate of punctuation", (t) => get(`${CHECK}?registration_number=---`, reader(t)), false],
  ["a zone out of range", (t) => get(`${CHECK}?zone=99999999999`, reader(t)), false],
  ["a zone not a number", (t) => get(`${CHECK}?zone=12a`, reader(t)), false],
  ["a name given twice", (t) => get(`${CHECK}?zone=1&zone=2`, reader(t)), false],
  ["an unknown name", (t) => get(`${CHECK}?zone=1234&page=2`, reader(t)), false],
  ["a token in the query", (t) => get(`${CHECK}?zone=1234&access_token=${t}`), false],
  ["the target in a JSON body", (t) => get(CHECK, reader(t), '{"zone":"1234"}'), false],
  ["a trailing slash", (t) => get(`${CHECK}/?zone=1234`, reader(t)), false],
  ["no credentials", () => get(`${CHECK}?zone=1234`), false],
  ["an unknown token", () => get(`${CHECK}?zone=1234`, reader("pk_unknown")), false],
  [
    "the token twice (the first counts)",
    (t) => get(`${CHECK}?zone=1234`, [...reader(t), ...reader(t)]),
    true,
  ],
  [
    "an unknown token, then the token",
    (t) => get(`${CHECK}?zone=1234`, [...reader("pk_unknown"), ...reader(t)]),
    false,
  ],
  ["the scheme in capitals", (t) => get(`${CHECK}?zone=1234`, [`authorization: BEARER ${t}`]), true],
  ["Basic", () => get(`${CHECK}?zone=1234`, ["authorization: Basic YTpi"]), false],
  ["healthz with an empty query", () => get("/healthz?"), true],
  ["healthz, absolute-form", () => get("http://box.lan/healthz"), true],
  ["healthz, content-length 0", () => get("/healthz", ["content-length: 0"]), true],
  ["healthz, content-length 00", () => get("/healthz", ["content-length: 00"]), true],
  [
    "healthz, chunked and empty",
    () => get("/healthz", ["transfer-encoding: chunked"]).concat("0\r\n\r\n"),
    false,
  ],
  [
    "healthz, expecting 100-continue",
    () => get("/healthz", ["expect: 100-continue", "content-length: 0"]),
    true,
  ],
  ["a zone with leading zeros", (t) => get(`${CHECK}?zone=0001234`, reader(t)), true],
  ["zone 0", (t) => get(`${CHECK}?zone=0`, reader(t)), true],
  ["a zone escaped +1", (t) => get(`${CHECK}?zone=%2B1`, reader(t)), false],
  ["a zone -1", (t) => get(`${CHECK}?zone=-1`, reader(t)), false],
  ["a zone 1.0", (t) => get(`${CHECK}?zone=1.0`, reader(t)), false],
  ["a plate with dots and tildes", (t) => get(`${CHECK}?registration_number=a.b~c_1`, reader(t)), true],
  ["a very long plate", (t) => get(`${CHECK}?registration_number=${"A".repeat(40)}`, reader(t)), false],
  ["a plate of 32", (t) => get(`${CHECK}?registration_number=${"A".repeat(32)}`, reader(t)), true],
  ["a name with no value", (t) => get(`${CHECK}?zone`, reader(t)), false],
  ["an empty pair", (t) => get(`${CHECK}?zone=1234&`, reader(t)), false],
  ["a fragment", (t) => get(`${CHECK}?zone=1234#x`, reader(t)), false],
  ["a zone and an empty plate", (t) => get(`${CHECK}?zone=1234&registration_number=`, reader(t)), false],
  [
    "a content type and no body",
    (t) => get(`${CHECK}?zone=1234`, [...reader(t), "content-type: text/plain", "content-length: 0"]),
    true,
  ],
  [
    "a cookie beside the token",
    (t) => get(`${CHECK}?zone=1234`, [...reader(t), "cookie: parkd_session=x"]),
    true,
  ],
  ["a cookie alone", () => get(`${CHECK}?zone=1234`, ["cookie: parkd_session=x"]), false],
  ["x-forwarded-for", (t) => get(`${CHECK}?zone=1234`, [...reader(t), "x-forwarded-for: 10.0.0.9"]), true],
  [
    "the token with spaces around",
    (t) => get(`${CHECK}?zone=1234`, [`authorization:   Bearer   ${t}  `]),
    true,
  ],
  ["the token after a tab", (t) => get(`${CHECK}?zone=1234`, [`authorization: Bearer\t${t}`]), false],
  ["Bearer with no token", () => get(`${CHECK}?zone=1234`, ["authorization: Bearer"]), false],
  ["a token without the scope", () => get(`${CHECK}?zone=1234`, reader(s.token("tickets:write"))), false],
  ["HTTP/1.0 lookup", (t) => `GET ${CHECK}?zone=1234 HTTP/1.0\r\nauthorization: Bearer ${t}\r\n\r\n`, true],
  ["a request id", () => get("/healthz", ["x-request-id: abc-1"]), true],
  ["a token just revoked", () => get(`${CHECK}?zone=1234`, reader(revokedToken())), false],
  ["HTTP/1.0", () => "GET /healthz HTTP/1.0\r\n\r\n", true],
  [
    "HTTP/1.0, kept alive, then another request",
    () => `GET /healthz HTTP/1.0\r\nconnection: keep-alive\r\n\r\n${get("/healthz")}`,
    true,
  ],
  ["a zone list", (t) => get(`${ZONE_LIST}1234`, reader(t)), true],
  ["an empty zone list", (t) => get(`${ZONE_LIST}7`, reader(t)), true],
  ["a zone list with leading zeros", (t) => get(`${ZONE_LIST}01234`, reader(t)), true],
  ["a zone list, conditional", (t) => get(`${ZONE_LIST}1234`, [...reader(t), 'if-none-match: "x"']), false],
  [
    "a zone list, conditional on *",
    (t) => get(`${ZONE_LIST}1234`, [...reader(t), "if-none-match: *"]),
    false,
  ],
  ["a zone list with a query", (t) => get(`${ZONE_LIST}1234?x=1`, reader(t)), false],
  ["a zone list with an empty query", (t) => get(`${ZONE_LIST}1234?`, reader(t)), true],
  ["a zone list out of range", (t) => get(`${ZONE_LIST}99999999999`, reader(t)), false],
  ["a zone list not a number", (t) => get(`${ZONE_LIST}12a`, reader(t)), false],
  ["a zone list of -1", (t) => get(`${ZONE_LIST}-1`, reader(t)), false],
  ["a zone list escaped", (t) => get(`${ZONE_LIST}%31234`, reader(t)), false],
  ["a zone list with a trailing slash", (t) => get(`${ZONE_LIST}1234/`, reader(t)), false],
  ["a zone list of no zone", (t) => get(ZONE_LIST, reader(t)), false],
  ["a zone's saved list (another route)", (t) => get(`${ZONE_LIST}1234/permits`, reader(t)), false],
  ["a zone list with no token", () => get(`${ZONE_LIST}1234`), false],
  [
    "a zone list, the token without the scope",
    () => get(`${ZONE_LIST}1234`, reader(s.token("tickets:write"))),
    false,
  ],
  ["a zone list, HEAD", (t) => get(`${ZONE_LIST}1234`, reader(t)).replace(/^GET/, "HEAD"), false],
  ["a zone list, absolute-form", (t) => get(`http://box.lan${ZONE_LIST}1234`, reader(t)), true],
  ["a busy zone", (t) => get(`${CHECK}?zone=4321`, reader(t)), true],
  [
    "a busy zone, br or gzip",
    (t) => get(`${CHECK}?zone=4321`, [...reader(t), "accept-encoding: gzip, deflate, br"]),
    true,
  ],
  [
    "a busy zone, gzip alone",
    (t) => get(`${CHECK}?zone=4321`, [...reader(t), "accept-encoding: gzip"]),
    true,
  ],
  [
    "a busy zone, br refused",
    (t) => get(`${CHECK}?zone=4321`, [...reader(t), "accept-encoding: br;q=0, gzip;q=0.5"]),
    true,
  ],
  [
    "a busy zone, nothing it has",
    (t) => get(`${CHECK}?zone=4321`, [...reader(t), "accept-encoding: zstd"]),
    true,
  ],
  [
    "a zone list of a busy zone, br",
    (t) => get(`${ZONE_LIST}4321`, [...reader(t), "accept-encoding: br"]),
    true,
  ],
  [
    "a zone list of a busy zone, HEAD, br",
    (t) => get(`${ZONE_LIST}4321`, [...reader(t), "accept-encoding: br"]).replace(/^GET/, "HEAD"),
    false,
  ],
  ["healthz, br (too small to compress)", () => get("/healthz", ["accept-encoding: br"]), true],
];

describe("direct routes answer as the app does, or leave the request to it", async () => {
  const tokens = { direct: s.token("permits:read"), app: s.token("permits:read") };
  const answers: Record<"direct" | "app", string[]> = { direct: [], app: [] };
  const answeredByApp: boolean[] = [];
  for (const [, requestFor] of cases) {
    const before = appCalls;
    answers.direct.push(await exchange(withDirect, requestFor(tokens.direct)));
    answeredByApp.push(appCalls > before);
    answers.app.push(await exchange(appOnly, requestFor(tokens.app)));
  }
  s.lookupRecorder.flush();
  const rows = s.ctx.store.db.select().from(permitLookups).all();
  const recordsOf = (token: string) => {
    const label = `token:${s.credentials.verifyBearer(token)!.name}`;
    return rows.filter((r) => r.credential === label).map((r) => `${r.by} ${r.query} ${r.results}`);
  };
  const requests = s.ctx.metrics.snapshot().find((f) => f.name === "parkd_http_requests_total")!;
  const counted = (route: string, status: string) =>
    requests.samples
      .filter((x) => x.labels?.route === route && x.labels?.status === status)
      .reduce((n, x) => n + x.value, 0);
  const healthz200 = counted("/healthz", "200");
  const lookups200 = counted(CHECK, "200");
  const zoneLists200 = counted(`${ZONE_LIST}:zone`, "200");

  // Past the bucket: declined directly, and the app's 429.
  const overOf = async (front: FrontEnd, token: string) => {
    for (let i = 0; i < BURST; i++) {
      const answer = await exchange(front, get(`${CHECK}?zone=1234`, reader(token)));
      if (!answer.startsWith("HTTP/1.1 200 ")) return answer;
    }
    return "";
  };
  const overBefore = appCalls;
  const overDirect = await overOf(withDirect, tokens.direct);
  const overByApp = appCalls > overBefore;
  const overApp = await overOf(appOnly, tokens.app);

  cases.forEach(([what, , direct], i) => {
    test(`${what}: ${direct ? "answered directly" : "answered by the app"}, the same answer`, () => {
      expect(answeredByApp[i]).toBe(!direct);
      expect(comparable(answers.direct[i]!)).toBe(comparable(answers.app[i]!));
      expect(answers.direct[i]).toMatch(/^HTTP\/1\.1 \d{3} /);
    });
  });

  test("a credential over its rate: the app's 429", () => {
    expect(overByApp).toBe(true);
    expect(overDirect).toStartWith("HTTP/1.1 429 ");
    expect(comparable(overDirect)).toBe(comparable(overApp));
  });

  test("a direct lookup is recorded as the app's is, under its credential", () => {
    expect(recordsOf(tokens.direct).slice(0, 6)).toEqual([
      "registration_number ABC123 1",
      "registration_number ABC123 1",
      "registration_number ZZZ999 0",
      "zone 1234 2",
      "zone 7 0",
      "registration_number ÅÄÖ77 1",
    ]);
    expect(recordsOf(tokens.direct)).toEqual(recordsOf(tokens.app));
    // Every zone list the service answered (200 or 304, directly or by the app), in order: the
    // three plain ones first; a zone out of range, not a number, no token or no scope, none.
    const zoneLists = recordsOf(tokens.direct).filter((r) => r.startsWith("zone_list "));
    expect(zoneLists.slice(0, 3)).toEqual(["zone_list 1234 2", "zone_list 7 0", "zone_list 1234 2"]);
    expect(zoneLists.length).toBe(14);
  });

  test("each direct answer is accounted under its route, as the app's", () => {
    // Every 200 either front end wrote for the route is counted once, direct or not.
    const written = (path: string) =>
      cases.reduce((n, [, requestFor], i) => {
        const target = requestFor("t")
          .split(" ")[1]!
          .replace(/^https?:\/\/[^/]+/, "");
        // The app routes a trailing slash to the route without it.
        if (target.split("?")[0]!.replace(/(.)\/$/, "$1") !== path) return n;
        return n + 2 * (answers.direct[i]!.match(/HTTP\/1\.1 200 /g)?.length ?? 0);
      }, 0);
    expect(healthz200).toBe(written("/healthz"));
    expect(lookups200).toBe(written(CHECK));
    expect(lookups200).toBeGreaterThan(2 * 8);
    const zoneLists = cases.reduce(
      (n, [what], i) =>
        n +
        (what.includes("zone list") ? 2 * (answers.direct[i]!.match(/HTTP\/1\.1 200 /g)?.length ?? 0) : 0),
      0,
    );
    expect(zoneLists200).toBe(zoneLists);
    expect(zoneLists).toBeGreaterThan(2 * 4);
  });
});

test("pipelined, direct and app answers go out in the order asked", async () => {
  const token = s.token("permits:read");
  const keep = (raw: string) => raw.replace("connection: close\r\n", "");
  const pipelined = [
    keep(get(`${CHECK}?registration_number=ABC123`, reader(token))),
    keep(get(`${CHECK}?zone=1234`)),
    keep(get("/healthz")),
    keep(get(CHECK, reader(token), '{"zone":"7"}')),
    get("/healthz"),
  ].join("");
  const answer = await exchange(withDirect, pipelined);
  const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]);
  expect(statuses).toEqual(["200", "401", "200", "200", "200"]);
  expect(answer.indexOf("ABC123")).toBeLessThan(answer.indexOf("/problems/unauthorized"));
  expect(answer.indexOf("/problems/unauthorized")).toBeLessThan(answer.indexOf('{"status":"ok"}'));
  expect(answer.endsWith('{"status":"ok"}')).toBe(true);
});
