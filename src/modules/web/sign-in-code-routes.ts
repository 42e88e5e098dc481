import { Elysia } from "elysia";
import { CREDENTIAL_REFUSALS, credentialLabel } from "../../domain/credentials.ts";
import { refuse } from "../../domain/errors.ts";
import { formatMicros } from "../../domain/time/zoned.ts";
import { authPlugin } from "../../platform/http/auth.ts";
import { log } from "../../platform/log.ts";
import type { WebContext } from "./index.ts";
import { NewSignInCode, SignInCodeEnvelope } from "./model.ts";
import { consoleOrigin, handheldBase } from "./sign-in-codes.ts";

/** One-time sign-in codes for a token's handheld (scope admin): what the console's QR code holds. */
export function signInCodeRoutes(ctx: WebContext) {
  return new Elysia({ name: "web-sign-in-codes" }).use(authPlugin(ctx.auth)).post(
    "/api/v1/session/codes",
    ({ body, request, set, credential }) => {
      if (ctx.credentials.current("token", body.token_id) === null)
        throw refuse(CREDENTIAL_REFUSALS, "credential-not-found", `no live token with id "${body.token_id}"`);
      const { code, expiresAt } = ctx.codes.issue(body.token_id);
      const { base, reachable } = handheldBase(ctx.config.publicUrl, ctx.listening(), consoleOrigin(request));
      log("notice", "sign-in code issued", { token: body.token_id, by: credentialLabel(credential) });
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
      auth: { scope: "admin", strictBody: NewSignInCode },
      body: NewSignInCode,
      response: { 201: SignInCodeEnvelope },
      detail: {
        summary: "A one-time sign-in code for a token's handheld, and the address to put in its QR code",
        description:
          "The handheld opens `sign_in_url` and exchanges the code for a browser session of the token (POST /api/v1/session with `{code}`); the token itself never appears in a URL. A code works once, for 10 minutes, and is kept only as a hash, in memory (a restart voids it). The address is --public-url, else the first LAN address the box listens on; `reachable` is false when only a loopback address is known.",
        tags: ["web app"],
      },
    },
  );
}
