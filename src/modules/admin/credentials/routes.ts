import { Elysia, t } from "elysia";
import { SCOPES } from "../../../domain/credentials.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import type { AdminDeps } from "../deps.ts";

export const WhoAmI = t.Object({
  kind: t.Union([t.Literal("token"), t.Literal("user")]),
  name: t.String(),
  scopes: t.Array(t.UnionEnum(SCOPES)),
});

/** Lets a terminal vendor check a credential and its scopes before going live. */
export function credentialRoutes(ctx: AdminDeps) {
  return new Elysia({ name: "credentials" })
    .use(authPlugin(ctx.auth))
    .get(
      "/api/v1/whoami",
      ({ credential }) => ({ kind: credential.kind, name: credential.name, scopes: [...credential.scopes] }),
      {
        auth: { basic: true },
        response: WhoAmI,
        detail: { summary: "The credential that made this request, and its scopes", tags: ["credentials"] },
      },
    );
}
