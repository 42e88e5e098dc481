import { describe, expect, test } from "bun:test";
import type { Scope } from "../../src/domain/credentials.ts";
import { attachMeta } from "../../src/platform/http/request-meta.ts";
import { request, testApp, testClock } from "../support/app.ts";

/**
 * Every route × every kind of caller → the status the contract's scope table implies.
 * The table is written from the contract, not read from the code, and every route the app
 * registers must appear in it: a new route without a decision fails here.
 */
/** "session": answers only a browser session cookie, so every caller here gets 401. */
type Access = "public" | "any" | "session" | { scope: Scope; basic: boolean };
const admin = { scope: "admin", basic: false } as const;
const notices = { scope: "notices:write", basic: false } as const;

const ROUTES: [method: string, template: string, sample: string, access: Access][] = [
  ["GET", "/healthz", "/healthz", "public"],
  ["GET", "/readyz", "/readyz", "public"],
  ["GET", "/openapi.json", "/openapi.json", "public"],
  ["GET", "/docs", "/docs", "public"],
  ["GET", "/metrics", "/metrics", { scope: "admin", basic: false }],
  ["GET", "/api/v1/whoami", "/api/v1/whoami", "any"],
  ["POST", "/api/v1/actions/tickets", "/api/v1/actions/tickets", { scope: "tickets:write", basic: true }],
  ["GET", "/api/v1/tickets/:ticketId", "/api/v1/tickets/T-1", { scope: "admin", basic: false }],
  ["GET", "/api/v1/ticket", "/api/v1/ticket?ticket_id=T-1", { scope: "admin", basic: false }],
  [
    "GET",
    "/api/v1/attendants/check-tickets",
    "/api/v1/attendants/check-tickets?zone=1",
    { scope: "permits:read", basic: false },
  ],
  [
    "GET",
    "/api/v1/attendants/verdict",
    "/api/v1/attendants/verdict?registration_number=ABC123&zone=1",
    { scope: "permits:read", basic: false },
  ],
  ["GET", "/api/v1/tickets/zone/:zone", "/api/v1/tickets/zone/1", { scope: "permits:read", basic: false }],
  [
    "GET",
    "/api/v1/tickets/zone/:zone/permits",
    "/api/v1/tickets/zone/1/permits",
    { scope: "permits:read", basic: false },
  ],
  ["GET", "/api/v1/attendants/zones", "/api/v1/attendants/zones", { scope: "permits:read", basic: false }],
  [
    "GET",
    "/api/v1/attendants/checks",
    "/api/v1/attendants/checks?registration_number=ABC123",
    { scope: "permits:read", basic: false },
  ],
  [
    "POST",
    "/api/v1/attendants/offline-checks",
    "/api/v1/attendants/offline-checks",
    { scope: "permits:read", basic: false },
  ],
  ["GET", "/api/v1/permits", "/api/v1/permits", { scope: "admin", basic: false }],
  ["POST", "/api/v1/permits", "/api/v1/permits", { scope: "admin", basic: false }],
  ["GET", "/api/v1/permits/:id", "/api/v1/permits/1", { scope: "admin", basic: false }],
  ["PUT", "/api/v1/permits/:id", "/api/v1/permits/1", { scope: "admin", basic: false }],
  ["PATCH", "/api/v1/permits/:id", "/api/v1/permits/1", { scope: "admin", basic: false }],
  ["DELETE", "/api/v1/permits/:id", "/api/v1/permits/1", { scope: "admin", basic: false }],
  ["GET", "/api/v1/parkings", "/api/v1/parkings", "public"],
  ["GET", "/api/v1/parkings/:id", "/api/v1/parkings/1", "public"],
  [
    "GET",
    "/api/v1/parkings/:id/quote",
    "/api/v1/parkings/1/quote?start=2026-06-15T10:00:00Z&end=2026-06-15T11:00:00Z",
    "public",
  ],
  ["POST", "/api/v1/parkings", "/api/v1/parkings", { scope: "admin", basic: false }],
  [
    "POST",
    "/api/v1/parkings/import",
    "/api/v1/parkings/import?dry_run=true",
    { scope: "admin", basic: false },
  ],
  ["PUT", "/api/v1/parkings/:id", "/api/v1/parkings/1", { scope: "admin", basic: false }],
  ["PATCH", "/api/v1/parkings/:id", "/api/v1/parkings/1", { scope: "admin", basic: false }],
  ["DELETE", "/api/v1/parkings/:id", "/api/v1/parkings/1", { scope: "admin", basic: false }],
  [
    "GET",
    "/api/v1/tickets/zone/:zone/events",
    "/api/v1/tickets/zone/1/events",
    { scope: "permits:read", basic: false },
  ],
  ["GET", "/api/v1/tickets", "/api/v1/tickets", admin],
  ["GET", "/api/v1/tickets.csv", "/api/v1/tickets.csv", admin],
  ["GET", "/api/v1/lookups", "/api/v1/lookups", admin],
  ["GET", "/api/v1/changes", "/api/v1/changes", admin],
  ["GET", "/api/v1/tokens", "/api/v1/tokens", admin],
  ["POST", "/api/v1/tokens", "/api/v1/tokens", admin],
  ["DELETE", "/api/v1/tokens/:id", "/api/v1/tokens/tok_000000000000", admin],
  ["GET", "/api/v1/users", "/api/v1/users", admin],
  ["POST", "/api/v1/users", "/api/v1/users", admin],
  ["DELETE", "/api/v1/users/:id", "/api/v1/users/usr_000000000000", admin],
  ["GET", "/api/v1/status", "/api/v1/status", admin],
  ["GET", "/api/v1/occupancy", "/api/v1/occupancy", admin],
  ["GET", "/api/v1/occupancy/history", "/api/v1/occupancy/history?from=2026-06-15&to=2026-06-16", admin],
  ["GET", "/api/v1/reports/revenue", "/api/v1/reports/revenue?from=2026-06-15&to=2026-06-15", admin],
  ["GET", "/api/v1/reports/revenue.csv", "/api/v1/reports/revenue.csv?from=2026-06-15&to=2026-06-15", admin],
  ["POST", "/api/v1/session", "/api/v1/session", "public"],
  ["GET", "/api/v1/session", "/api/v1/session", "session"],
  ["DELETE", "/api/v1/session", "/api/v1/session", "public"],
  ["POST", "/api/v1/session/codes", "/api/v1/session/codes", { scope: "admin", basic: false }],
  ["GET", "/api/v1/handheld-setup", "/api/v1/handheld-setup", "public"],
  ["GET", "/handheld/parkd-ca.crt", "/handheld/parkd-ca.crt", "public"],
  ["GET", "/handheld/parkd-ca.mobileconfig", "/handheld/parkd-ca.mobileconfig", "public"],
  ["GET", "/", "/", "public"],
  ["GET", "/app.js", "/app.js", "public"],
  ["GET", "/app.css", "/app.css", "public"],
  ["GET", "/sw.js", "/sw.js", "public"],
  ["GET", "/manifest.webmanifest", "/manifest.webmanifest", "public"],
  ["GET", "/icon.svg", "/icon.svg", "public"],
  ["GET", "/board", "/board", "public"],
  // The handheld's plate reader engine: served to anyone, as the app's own files are.
  ["GET", "/plate-reader/:tag/:name", "/plate-reader/any/worker.min.js", "public"],
  ["GET", "/board.js", "/board.js", "public"],
  ["GET", "/board.css", "/board.css", "public"],
  ["GET", "/api/v1/board", "/api/v1/board", "public"],
  ["GET", "/api/v1/board/events", "/api/v1/board/events", "public"],
  ["GET", "/api/v1/attendants/notice-reasons", "/api/v1/attendants/notice-reasons", notices],
  ["POST", "/api/v1/attendants/notices", "/api/v1/attendants/notices", notices],
  ["POST", "/api/v1/attendants/notices/:id/photos", "/api/v1/attendants/notices/abcdefgh/photos", notices],
  ["POST", "/api/v1/attendants/observations", "/api/v1/attendants/observations", notices],
  ["GET", "/api/v1/notices", "/api/v1/notices", admin],
  ["GET", "/api/v1/notices.csv", "/api/v1/notices.csv", admin],
  ["GET", "/api/v1/notices/:number", "/api/v1/notices/1", admin],
  ["GET", "/api/v1/notices/:number/photos/:hash", `/api/v1/notices/1/photos/${"0".repeat(64)}`, admin],
  ["POST", "/api/v1/notices/:number/void", "/api/v1/notices/1/void", admin],
  ["GET", "/api/v1/notice-reasons", "/api/v1/notice-reasons", admin],
  ["POST", "/api/v1/notice-reasons", "/api/v1/notice-reasons", admin],
  ["PATCH", "/api/v1/notice-reasons/:code", "/api/v1/notice-reasons/no-permit", admin],
];

const PASSWORD = "a long enough password";

describe("authorisation matrix", async () => {
  const clock = testClock();
  const s = testApp({}, clock);
  const creds = s.credentials;
  const bearer = (scopes: Scope[], name: string, expiresInMs?: number) =>
    `Bearer ${creds.createToken({ name, scopes, expiresInMs }).token}`;
  const expired = bearer(["admin"], "expired", 1000);
  const revoked = bearer(["admin"], "revoked");
  creds.revokeToken("revoked");
  clock.advance(2000);
  const basic = async (name: string, scopes: Scope[]) => {
    await creds.createUser({ name, scopes, password: PASSWORD });
    return `Basic ${Buffer.from(`${name}:${PASSWORD}`).toString("base64")}`;
  };

  type Caller = { name: string; authorization?: string; scopes: Scope[] | null; basic: boolean };
  const callers: Caller[] = [
    { name: "no credential", scopes: null, basic: false },
    { name: "wrong token", authorization: "Bearer pk_not-a-real-token", scopes: null, basic: false },
    { name: "malformed header", authorization: "Token abc", scopes: null, basic: false },
    { name: "expired token", authorization: expired, scopes: null, basic: false },
    { name: "revoked token", authorization: revoked, scopes: null, basic: false },
    {
      name: "wrong Basic password",
      authorization: `Basic ${Buffer.from("nobody:nope").toString("base64")}`,
      scopes: null,
      basic: true,
    },
  ];
  for (const scope of ["tickets:write", "permits:read", "notices:write", "admin"] as Scope[]) {
    callers.push({
      name: `token ${scope}`,
      authorization: bearer([scope], `t-${scope.replace(":", "-")}`),
      scopes: [scope],
      basic: false,
    });
    callers.push({
      name: `Basic ${scope}`,
      authorization: await basic(`u-${scope.replace(":", "-")}`, [scope]),
      scopes: [scope],
      basic: true,
    });
  }

  function expected(access: Access, caller: Caller): "ok" | 401 | 403 {
    if (access === "public") return "ok";
    if (access === "session") return 401;
    if (caller.scopes === null) return 401;
    if (access === "any") return "ok";
    if (caller.basic && !access.basic) return 401;
    return caller.scopes.includes("admin") || caller.scopes.includes(access.scope) ? "ok" : 403;
  }

  let peer = 0;
  for (const [method, template, sample, access] of ROUTES) {
    test(`${method} ${template}`, async () => {
      for (const caller of callers) {
        const body = method === "POST" || method === "PUT" || method === "PATCH" ? {} : undefined;
        const req = request(method, sample, { authorization: caller.authorization, body });
        // A fresh peer address per call keeps the failed-authentication limiter out of the way.
        attachMeta(req, { id: "matrix", ip: `10.9.${Math.floor(++peer / 250)}.${peer % 250}` });
        const res = await s.app.handle(req);
        const want = expected(access, caller);
        const got = res.status;
        await res.body?.cancel(); // an event stream would stay open
        const label = `${method} ${sample} as ${caller.name}: got ${got}, want ${want}`;
        if (want === "ok") expect([401, 403, 429, 500], label).not.toContain(got);
        else {
          expect(got, label).toBe(want);
          expect(res.headers.get("content-type"), label).toStartWith("application/problem+json");
          if (want === 401)
            expect(res.headers.get("www-authenticate"), label).toContain('Bearer realm="parking"');
        }
      }
    });
  }

  test("every route the app serves is in the matrix", () => {
    const known = new Set(ROUTES.map(([m, t]) => `${m} ${t}`));
    const served = s.app.routes.map((r) => `${r.method} ${r.path}`).filter((k) => !k.startsWith("ALL "));
    const missing = served.filter((k) => !known.has(k));
    expect(missing).toEqual([]);
    const stale = [...known].filter((k) => !served.includes(k));
    expect(stale).toEqual([]);
  });
});
