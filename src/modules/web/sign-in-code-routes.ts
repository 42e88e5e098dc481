import { Elysia } from "elysia";
import { credentialLabel } from "../../domain/credentials.ts";
import { refuse } from "../../domain/errors.ts";
import { formatMicros } from "../../domain/time/zoned.ts";
import { authPlugin } from "../../platform/http/auth.ts";
import { routeDeclaration } from "../../platform/http/route-declaration.ts";
import { log } from "../../platform/log.ts";
import { webOperations } from "./contract.ts";
import type { WebContext } from "./deps.ts";
import { NewSignInCode, SignInCodeEnvelope } from "./model.ts";
import { type CodeFor, consoleOrigin, handheldBase } from "./sign-in-codes.ts";

/**
 * One-time sign-in codes for a handheld (scope admin): what the console's QR code holds, made
 * when a token is created or later, for a live token or a user, as often as the operator asks.
 */
export function signInCodeRoutes(ctx: WebContext) {
  return new Elysia({ name: "web-sign-in-codes" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .post(
      "/api/v1/session/codes",
      ({ body, request, set, credential }) => {
        const wanted: CodeFor =
          body.token_id !== undefined
            ? { kind: "token", id: body.token_id }
            : { kind: "user", id: body.user_id! };
        const target = ctx.credentials.current(wanted.kind, wanted.id);
        if (target === null)
          throw refuse(
            "credential-not-found",
            wanted.kind === "token"
              ? `no live token with id "${wanted.id}"`
              : `no user with id "${wanted.id}"`,
          );
        const { code, expiresAt } = ctx.codes.issue(wanted);
        const { base, reachable } = handheldBase(
          ctx.config.publicUrl,
          ctx.listening(),
          consoleOrigin(request),
        );
        log("notice", "sign-in code issued", {
          for: credentialLabel(target),
          by: credentialLabel(credential),
        });
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return {
          data: {
            code,
            expires_at: formatMicros(expiresAt),
            sign_in_url: `${base}/#code=${code}`,
            reachable,
          },
        };
      },
      {
        operation: webOperations.createSignInCode,
        auth: { scope: "admin", strictBody: NewSignInCode },
        body: NewSignInCode,
        response: { 201: SignInCodeEnvelope },
        detail: {
          summary:
            "A one-time sign-in code for a live token or a user, and the address to put in its QR code",
          description:
            "For a new handheld or one that was signed out: the handheld opens `sign_in_url` and exchanges the code for a browser session of that token or user (POST /api/v1/session with `{code}`); the token itself never appears in a URL. Each call makes a new code; earlier ones stay good until used or expired. A code works once, for 10 minutes, and is kept only as a hash, in memory (a restart voids it). The address is --public-url, else the first LAN address the box listens on; `reachable` is false when only a loopback address is known.",
          tags: ["web app"],
        },
      },
    );
}
