import { Elysia } from "elysia";
import { refuse } from "../../../domain/errors.ts";
import { actorOf } from "../../../platform/http/actor.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import { routeDeclaration } from "../../../platform/http/route-declaration.ts";
import { adminConsoleOperations } from "../console-contract.ts";
import type { AdminDeps } from "../deps.ts";
import { iso } from "../paging.ts";
import { IdParams, NewToken, TokenInput, TokenList, UserEnvelope, UserInput, UserList } from "./model.ts";
import { tokenView, userView } from "./views.ts";

/** Revokes or deletes by id only (by name is the CLI's convenience). */
function byId(id: string, prefix: string, missing: string, change: (id: string) => unknown): void {
  if (!id.startsWith(prefix)) throw refuse("credential-not-found", `${missing} "${id}"`);
  change(id);
}

const tags = ["credentials"];

/** Tokens and Basic users over the API (scope admin), for the console; the CLI does the same. */
export function credentialApiRoutes(ctx: AdminDeps) {
  const admin = { scope: "admin" as const };
  const user = (id: string) => userView(ctx.credentials.listUsers().find((x) => x.id === id)!);
  return new Elysia({ name: "credential-api" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .get(
      "/api/v1/tokens",
      () => ({
        data: ctx.credentials.listTokens().map(tokenView),
      }),
      {
        operation: adminConsoleOperations.listTokens,
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
        operation: adminConsoleOperations.createToken,
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
        operation: adminConsoleOperations.revokeToken,
        auth: admin,
        params: IdParams,
        detail: {
          summary: "Revoke a token: it fails from the next request on, and its browser sessions end",
          tags,
        },
      },
    )
    .get("/api/v1/users", () => ({ data: ctx.credentials.listUsers().map((u) => user(u.id)) }), {
      operation: adminConsoleOperations.listUsers,
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
        operation: adminConsoleOperations.createUser,
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
        operation: adminConsoleOperations.deleteUser,
        auth: admin,
        params: IdParams,
        detail: { summary: "Delete a Basic user: its browser sessions end", tags },
      },
    );
}
