import { Elysia, type Static, t } from "elysia";
import { SCOPES } from "../../../domain/credentials.ts";
import { actorOf } from "../../../platform/http/actor.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import type { AdminDeps } from "../deps.ts";
import { iso, isoOrNull } from "../paging.ts";
import { CredentialError, type TokenInfo as TokenRecord, type UserInfo as UserRecord } from "./service.ts";

const Scopes = t.Array(t.UnionEnum(SCOPES), { minItems: 1, uniqueItems: true });
const ScopeList = t.Array(t.UnionEnum(SCOPES));
const Name = t.String({
  pattern: "^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$",
  description: "1-64 letters, digits, . _ @ -",
});
const Instant = t.String({ format: "date-time" });
const When = t.Union([Instant, t.Null()]);

export const TokenInput = t.Object(
  { name: Name, scopes: Scopes, expires_in_days: t.Optional(t.Integer({ minimum: 1, maximum: 3650 })) },
  { additionalProperties: false },
);
export const TokenInfo = t.Object({
  id: t.String(),
  name: t.String(),
  scopes: ScopeList,
  created_at: Instant,
  last_used_at: When,
  expires_at: When,
  revoked_at: When,
});
export const NewToken = t.Object({
  data: t.Object({
    id: t.String(),
    name: t.String(),
    scopes: ScopeList,
    expires_at: When,
    token: t.String({ description: "Shown this once; only its SHA-256 is kept" }),
  }),
});
export const UserInput = t.Object(
  { name: Name, scopes: Scopes, password: t.String({ minLength: 12, maxLength: 1024 }) },
  { additionalProperties: false },
);
export const UserInfo = t.Object({
  id: t.String(),
  name: t.String(),
  scopes: ScopeList,
  created_at: Instant,
  last_used_at: When,
});
export const TokenList = t.Object({ data: t.Array(TokenInfo) });
export const UserList = t.Object({ data: t.Array(UserInfo) });
export const UserEnvelope = t.Object({ data: UserInfo });
const IdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 80 }) });

/** A token as the API and `parkd token list --json` show it: snake_case, instants in UTC. */
export function tokenView(x: TokenRecord): Static<typeof TokenInfo> {
  return {
    id: x.id,
    name: x.name,
    scopes: x.scopes,
    created_at: iso(x.createdAt),
    last_used_at: isoOrNull(x.lastUsedAt),
    expires_at: isoOrNull(x.expiresAt),
    revoked_at: isoOrNull(x.revokedAt),
  };
}

/** A Basic user as the API and `parkd user list --json` show it. */
export function userView(u: UserRecord): Static<typeof UserInfo> {
  return {
    id: u.id,
    name: u.name,
    scopes: u.scopes,
    created_at: iso(u.createdAt),
    last_used_at: isoOrNull(u.lastUsedAt),
  };
}

/** Revokes or deletes by id only (by name is the CLI's convenience). */
function byId(id: string, prefix: string, missing: string, change: (id: string) => unknown): void {
  if (!id.startsWith(prefix)) throw new CredentialError("not-found", `${missing} "${id}"`);
  change(id);
}

const tags = ["credentials"];

/** Tokens and Basic users over the API (scope admin), for the console; the CLI does the same. */
export function credentialApiRoutes(ctx: AdminDeps) {
  const admin = { scope: "admin" as const };
  const user = (id: string) => userView(ctx.credentials.listUsers().find((x) => x.id === id)!);
  return new Elysia({ name: "credential-api" })
    .use(authPlugin(ctx.auth))
    .get(
      "/api/v1/tokens",
      () => ({
        data: ctx.credentials.listTokens().map(tokenView),
      }),
      {
        auth: admin,
        response: TokenList,
        detail: { summary: "Bearer tokens (never the tokens themselves)", tags },
      },
    )
    .post(
      "/api/v1/tokens",
      ({ body, set, credential, request }) => {
        const expiresInMs =
          body.expires_in_days === undefined ? undefined : body.expires_in_days * 86_400_000;
        const made = ctx.credentials.createToken(
          { name: body.name, scopes: body.scopes, expiresInMs },
          actorOf(credential, request),
        );
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        const expires_at = expiresInMs === undefined ? null : iso(ctx.now() + expiresInMs);
        return { data: { id: made.id, name: body.name, scopes: body.scopes, expires_at, token: made.token } };
      },
      {
        auth: { ...admin, strictBody: TokenInput },
        body: TokenInput,
        response: { 201: NewToken },
        detail: { summary: "Create a token; the answer shows it once", tags },
      },
    )
    .delete(
      "/api/v1/tokens/:id",
      ({ params, set, credential, request }) => {
        byId(params.id, "tok_", "no live token with id", (id) =>
          ctx.credentials.revokeToken(id, actorOf(credential, request)),
        );
        set.status = 204;
        return null;
      },
      {
        auth: admin,
        params: IdParams,
        detail: {
          summary: "Revoke a token: it fails from the next request on, and its browser sessions end",
          tags,
        },
      },
    )
    .get("/api/v1/users", () => ({ data: ctx.credentials.listUsers().map((u) => user(u.id)) }), {
      auth: admin,
      response: UserList,
      detail: { summary: "Basic users (terminals)", tags },
    })
    .post(
      "/api/v1/users",
      async ({ body, set, credential, request }) => {
        const { id } = await ctx.credentials.createUser(body, actorOf(credential, request));
        set.status = 201;
        return { data: user(id) };
      },
      {
        auth: { ...admin, strictBody: UserInput },
        body: UserInput,
        response: { 201: UserEnvelope },
        detail: { summary: "Create a Basic user (password at least 12 characters)", tags },
      },
    )
    .delete(
      "/api/v1/users/:id",
      ({ params, set, credential, request }) => {
        byId(params.id, "usr_", "no user with id", (id) =>
          ctx.credentials.deleteUser(id, actorOf(credential, request)),
        );
        set.status = 204;
        return null;
      },
      {
        auth: admin,
        params: IdParams,
        detail: { summary: "Delete a Basic user: its browser sessions end", tags },
      },
    );
}
