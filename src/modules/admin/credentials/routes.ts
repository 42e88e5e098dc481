import { Elysia } from "elysia";
import { authPlugin } from "../../../platform/http/auth.ts";
import { routeDeclaration } from "../../../platform/http/route-declaration.ts";
import { adminOperations } from "../contract.ts";
import type { AdminDeps } from "../deps.ts";
import { WhoAmI } from "./model.ts";

/** Lets a terminal vendor check a credential and its scopes before going live. */
export function credentialRoutes(ctx: AdminDeps) {
  return new Elysia({ name: "credentials" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .get(
      "/api/v1/whoami",
      ({ credential }) => ({ kind: credential.kind, name: credential.name, scopes: [...credential.scopes] }),
      {
        operation: adminOperations.whoAmI,
        auth: { basic: true },
        response: WhoAmI,
        detail: { summary: "The credential that made this request, and its scopes", tags: ["credentials"] },
      },
    );
}
