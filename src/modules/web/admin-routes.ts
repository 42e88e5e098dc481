import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { CredentialError } from "../../credentials/service.ts";
import { authPlugin } from "../../http/auth.ts";
import { problems } from "../../http/problem.ts";
import { normalizePlate } from "../../plates/normalize.ts";
import { VERSION } from "../../version.ts";
import {
  IdParams,
  LookupPage,
  NewToken,
  PageQuery,
  Status,
  TicketPage,
  TicketSearchQuery,
  TokenInput,
  TokenList,
  UserEnvelope,
  UserInput,
  UserList,
} from "./model.ts";
import { eventFigures, lookupPage, searchTickets } from "./queries.ts";
import { statusFromMetrics } from "./status.ts";
import type { ZoneFeed } from "./zone-feed.ts";

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function decodeCursor<T>(cursor: string, valid: (v: unknown) => v is T): T {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (valid(v)) return v;
  } catch {}
  throw problems.badRequest("The cursor is not one this service handed out", [
    { pointer: "/cursor", message: "Expected the next_cursor of a previous page", in: "query" },
  ]);
}

const isTicketCursor = (v: unknown): v is [number, string] =>
  Array.isArray(v) && v.length === 2 && Number.isInteger(v[0]) && typeof v[1] === "string";
const isLookupCursor = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0;

function credentialProblem(e: unknown): never {
  if (!(e instanceof CredentialError)) throw e;
  if (e.message.includes("already exists"))
    throw problems.conflict("credential-exists", "Name in use", e.message);
  if (e.message.startsWith("no "))
    throw problems.notFound("credential-not-found", "No such credential", e.message);
  throw problems.badRequest(e.message);
}

function instant(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms))
    throw problems.validation(`/${name}: expected a date-time`, [
      { pointer: `/${name}`, message: "Expected a date-time with an offset", in: "query" },
    ]);
  return ms;
}

/** The operator console's API (scope admin): credentials, ticket search, lookup records, status. */
export function webAdminRoutes(ctx: AppContext, feed: ZoneFeed) {
  const admin = { scope: "admin" as const };
  return new Elysia({ name: "web-admin" })
    .use(authPlugin(ctx))
    .get(
      "/api/v1/tokens",
      () => ({
        data: ctx.credentials.listTokens().map((t) => ({
          ...t,
          createdAt: iso(t.createdAt),
          lastUsedAt: isoOrNull(t.lastUsedAt),
          expiresAt: isoOrNull(t.expiresAt),
          revokedAt: isoOrNull(t.revokedAt),
        })),
      }),
      {
        auth: admin,
        response: TokenList,
        detail: { summary: "Bearer tokens (never the tokens themselves)", tags: ["credentials"] },
      },
    )
    .post(
      "/api/v1/tokens",
      ({ body, set }) => {
        const expiresInMs =
          body.expires_in_days === undefined ? undefined : body.expires_in_days * 86_400_000;
        let made: { id: string; token: string };
        try {
          made = ctx.credentials.createToken({ name: body.name, scopes: body.scopes, expiresInMs });
        } catch (e) {
          credentialProblem(e);
        }
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return {
          data: {
            id: made.id,
            name: body.name,
            scopes: [...new Set(body.scopes)],
            expiresAt: expiresInMs === undefined ? null : iso(ctx.now() + expiresInMs),
            token: made.token,
          },
        };
      },
      {
        auth: { ...admin, strictBody: TokenInput },
        body: TokenInput,
        response: { 201: NewToken },
        detail: { summary: "Create a token; the answer shows it once", tags: ["credentials"] },
      },
    )
    .delete(
      "/api/v1/tokens/:id",
      ({ params, set }) => {
        if (!params.id.startsWith("tok_"))
          credentialProblem(new CredentialError(`no live token with id "${params.id}"`));
        try {
          ctx.credentials.revokeToken(params.id);
        } catch (e) {
          credentialProblem(e);
        }
        set.status = 204;
        return null;
      },
      {
        auth: admin,
        params: IdParams,
        detail: {
          summary: "Revoke a token: it fails from the next request on, and its browser sessions end",
          tags: ["credentials"],
        },
      },
    )
    .get(
      "/api/v1/users",
      () => ({
        data: ctx.credentials
          .listUsers()
          .map((u) => ({ ...u, createdAt: iso(u.createdAt), lastUsedAt: isoOrNull(u.lastUsedAt) })),
      }),
      {
        auth: admin,
        response: UserList,
        detail: { summary: "Basic users (terminals)", tags: ["credentials"] },
      },
    )
    .post(
      "/api/v1/users",
      async ({ body, set }) => {
        let id: string;
        try {
          ({ id } = await ctx.credentials.createUser(body));
        } catch (e) {
          credentialProblem(e);
        }
        set.status = 201;
        const u = ctx.credentials.listUsers().find((x) => x.id === id)!;
        return { data: { ...u, createdAt: iso(u.createdAt), lastUsedAt: isoOrNull(u.lastUsedAt) } };
      },
      {
        auth: { ...admin, strictBody: UserInput },
        body: UserInput,
        response: { 201: UserEnvelope },
        detail: { summary: "Create a Basic user (password at least 12 characters)", tags: ["credentials"] },
      },
    )
    .delete(
      "/api/v1/users/:id",
      ({ params, set }) => {
        if (!params.id.startsWith("usr_"))
          credentialProblem(new CredentialError(`no user with id "${params.id}"`));
        try {
          ctx.credentials.deleteUser(params.id);
        } catch (e) {
          credentialProblem(e);
        }
        set.status = 204;
        return null;
      },
      { auth: admin, params: IdParams, detail: { summary: "Delete a Basic user", tags: ["credentials"] } },
    )
    .get(
      "/api/v1/tickets",
      ({ query }) => {
        const limit = query.limit ?? 50;
        const plateNorm =
          query.registration_number === undefined || query.registration_number.trim() === ""
            ? undefined
            : normalizePlate(query.registration_number);
        const after = query.cursor ? decodeCursor(query.cursor, isTicketCursor) : undefined;
        const rows = searchTickets(ctx.store, {
          plateNorm,
          zone: query.zone,
          status: query.status,
          from: instant(query.from, "from"),
          to: instant(query.to, "to"),
          after: after && { startAt: after[0], ticketId: after[1] },
          limit: limit + 1,
        });
        const more = rows.length > limit;
        const page = more ? rows.slice(0, limit) : rows;
        const last = page[page.length - 1];
        return {
          data: page.map((r) => ({
            ticketId: r.ticketId,
            status: r.status as "running" | "stopped" | "canceled",
            zone: r.zone,
            parkingLotId: r.parkingLotId,
            licenseNumber: r.plate,
            startAt: iso(r.startAt),
            endAt: isoOrNull(r.endAt),
            updatedAt: iso(r.updatedAt),
          })),
          next_cursor: more && last ? encodeCursor([last.startAt, last.ticketId]) : null,
        };
      },
      {
        auth: admin,
        query: TicketSearchQuery,
        response: TicketPage,
        detail: {
          summary: "Search tickets, newest start first, a page at a time",
          description:
            "registration_number matches however the plate was typed (as check-tickets does); from/to keep tickets whose stay overlaps the range. limit 1-200 (50).",
          tags: ["tickets"],
        },
      },
    )
    .get(
      "/api/v1/lookups",
      ({ query }) => {
        const limit = query.limit ?? 50;
        const before = query.cursor ? decodeCursor(query.cursor, isLookupCursor) : undefined;
        const rows = lookupPage(ctx.store, before, limit + 1);
        const more = rows.length > limit;
        const page = more ? rows.slice(0, limit) : rows;
        return {
          data: page.map((r) => ({
            at: iso(r.at),
            credential: r.credential,
            by: r.by as "registration_number" | "zone" | "zone_list",
            query: r.query,
            results: r.results,
          })),
          next_cursor: more ? encodeCursor(page[page.length - 1]!.id) : null,
        };
      },
      {
        auth: admin,
        query: PageQuery,
        response: LookupPage,
        detail: {
          summary: "Who looked up what and when (the lookup records), newest first",
          description: "Records are written about once a second, so the newest second may not show yet.",
          tags: ["permits"],
        },
      },
    )
    .get(
      "/api/v1/status",
      () => {
        const now = ctx.now();
        const figures = eventFigures(ctx.store, now);
        const m = statusFromMetrics(ctx.metrics.render());
        return {
          data: {
            version: VERSION,
            uptimeSeconds:
              m.startTime === null ? 0 : Math.max(0, Math.round(Date.now() / 1000 - m.startTime)),
            storeBytes: m.storeBytes,
            residentMemoryBytes: m.rss,
            events: { lastMinute: figures.lastMinute, lastHour: figures.lastHour, sinceStart: m.events },
            terminals: figures.terminals.map((t) => ({ ...t, lastAt: iso(t.lastAt) })),
            lookupsSinceStart: m.lookups,
            requests: m.requests,
            liveFeeds: feed.subscribers,
          },
        };
      },
      {
        auth: admin,
        response: Status,
        detail: {
          summary: "The figures of /metrics a person cares about, for the console",
          tags: ["operations"],
        },
      },
    );
}
