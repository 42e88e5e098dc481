import { Elysia } from "elysia";
import type { Credential } from "../../domain/credentials.ts";
import { invalid, refuse } from "../../domain/errors.ts";
import { passwordFailureKeys } from "../../platform/http/auth.ts";
import { isSameOrigin, refuseCrossOrigin, requireJson } from "../../platform/http/origin.ts";
import { problems } from "../../platform/http/problem.ts";
import { rateLimitOption } from "../../platform/http/rate-limit.ts";
import { metaOf } from "../../platform/http/request-meta.ts";
import { routeDeclaration } from "../../platform/http/route-declaration.ts";
import { log } from "../../platform/log.ts";
import { webOperations } from "./contract.ts";
import type { WebContext } from "./deps.ts";
import { SessionEnvelope, SignIn } from "./model.ts";
import { CSRF_HEADER, cookieValue, csrfRefused, SESSION_COOKIE, sessionCookie } from "./session-cookie.ts";
import type { LostReason } from "./sessions.ts";

const tags = ["web"];

/** What GET /api/v1/session says when the browser's session is gone, by `reason`. */
const LOST_TEXT: Record<LostReason | "none", string> = {
  none: "No live session",
  revoked: "The session ended because its token was revoked",
  deleted: "The session ended because its user was deleted",
  expired: "The session expired (12 hours unused, or 7 days old); sign in again",
  ended: "The session was ended; sign in again",
};
const CHALLENGE = 'Bearer realm="parking"';

/** "40 s", "3 min": how long a lockout still lasts, for the person at the sign-in page. */
function waitText(seconds: number): string {
  return seconds < 90 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

/** The credential a one-time code was made for, if the code is good and the credential still stands. */
function codeCredential(ctx: WebContext, code: string): Credential | null {
  const made = ctx.codes.redeem(code);
  return made === null ? null : ctx.credentials.current(made.kind, made.id);
}

function answer(credential: Credential, csrf: string, timeZone: string) {
  return {
    data: {
      kind: credential.kind,
      name: credential.name,
      scopes: [...credential.scopes],
      csrf,
      time_zone: timeZone,
    },
  };
}

/**
 * Sign-in for the web app: a token or a Basic user's name and password become an HttpOnly
 * session cookie. Failures count against the address like failed API credentials do.
 */
export function sessionRoutes(ctx: WebContext) {
  // The site's zone as a browser names it ("europe/stockholm" typed at the command line is
  // Europe/Stockholm): read once, as the setting does not change while the box runs.
  const timeZone = new Intl.DateTimeFormat("en", { timeZone: ctx.config.timezone }).resolvedOptions()
    .timeZone;
  return new Elysia({ name: "web-session" })
    .use(routeDeclaration)
    .use(rateLimitOption)
    .post(
      "/api/v1/session",
      async ({ body, request, set }) => {
        const meta = metaOf(request);
        // Counted as the API counts them: per address for tokens; per address and name, and per
        // address across names, for users (the same keys as Basic, so the two add up).
        const client = ctx.trustedProxies.client(meta.ip, request.headers.get("x-forwarded-for"));
        const keys: [string, number][] =
          "username" in body
            ? Object.values(passwordFailureKeys(ctx.limiter, client, body.username))
            : [[`bearer ${client}`, ctx.limiter.limit]];
        const refuseIfLocked = (which = keys) => {
          const wait = Math.max(0, ...which.map(([key, max]) => ctx.limiter.blockedFor(key, max)));
          if (wait <= 0) return;
          ctx.metrics.authRateLimited();
          throw problems.tooManyRequests(
            wait,
            `Too many failed sign-ins from this address; try again in ${waitText(wait)}`,
          );
        };
        // A valid token is never refused (as for the API's Bearer): a page elsewhere that makes
        // its visitors fail sign-ins must not lock them out. A password can be guessed, a token
        // cannot: a locked name and address is refused before the password is checked; an
        // address locked across names is still served a name and password verified before, and
        // refused any other without a password hash being spent on it.
        let addressLocked = false;
        if ("username" in body) {
          refuseIfLocked(keys.slice(0, 1));
          addressLocked = ctx.limiter.blockedFor(...keys[1]!) > 0;
        }
        const credential =
          "token" in body
            ? ctx.credentials.verifyBearer(body.token.trim())
            : "code" in body
              ? codeCredential(ctx, body.code.trim())
              : await ctx.credentials.verifyBasic(body.username, body.password, client, addressLocked);
        if (!credential) {
          refuseIfLocked();
          // Counted and logged like a refused API credential: the same alerts watch both.
          ctx.metrics.authFailure("browser sign-in");
          log("warning", "authentication failed", {
            client,
            route: meta.route,
            reason: "browser sign-in",
            requestId: meta.id,
          });
          for (const [key, max] of keys) if (ctx.limiter.fail(key, max)) ctx.metrics.authLockout();
          throw problems.unauthorized(
            "The token, code, or name and password are unknown, used, expired or revoked",
            CHALLENGE,
          );
        }
        const { id, csrf, lifeMs } = ctx.sessions.open(credential);
        set.headers["set-cookie"] = sessionCookie(request, id, lifeMs);
        set.headers["cache-control"] = "no-store";
        return answer(credential, csrf, timeZone);
      },
      {
        operation: webOperations.signIn,
        // Elysia strips unknown fields before validating; a body mixing the two forms or
        // carrying a typo is refused instead.
        transform({ body, request }) {
          // Sign-in sets a cookie: only the app's own page may ask for it, and only as JSON
          // (a form or a body without a type can be sent from any page without a preflight).
          refuseCrossOrigin(request);
          requireJson(request);
          const keys = body && typeof body === "object" ? Object.keys(body) : [];
          const unknown = keys.filter((k) => !["token", "code", "username", "password"].includes(k));
          const single = keys.includes("token") || keys.includes("code");
          if (unknown.length || (single && keys.length > 1))
            throw invalid(
              [
                ...unknown.map((k) => ({ pointer: `/${k}`, message: "Unknown field" })),
                ...(unknown.length
                  ? []
                  : [{ pointer: "", message: "Either token, code, or username and password" }]),
              ],
              "Send either token, code, or username and password",
            );
        },
        rateLimit: "address",
        body: SignIn,
        response: { 200: SessionEnvelope },
        detail: {
          summary: "Sign in a browser: sets the HttpOnly cookie parkd_session",
          description:
            "The cookie then authenticates API requests like the Bearer token would, with the same scopes. Writes made through it need the header X-CSRF-Token with the `csrf` value. Sessions end after 12 hours unused, after 7 days, on sign-out, and when the token is revoked or the user deleted; they are kept in the store, so a restart or an upgrade of the box ends none.",
          tags,
        },
      },
    )
    .get(
      "/api/v1/session",
      ({ request, set }) => {
        const view = ctx.sessions.view(request);
        if (!view) {
          const reason = ctx.sessions.lostReason(request);
          throw refuse("unauthorized", LOST_TEXT[reason ?? "none"], {
            headers: { "www-authenticate": CHALLENGE },
            ...(reason ? { reason } : {}),
          });
        }
        set.headers["cache-control"] = "no-store";
        // The cookie's end moves with the session's: closing the browser signs no one out.
        const id = cookieValue(request, SESSION_COOKIE);
        if (id) set.headers["set-cookie"] = sessionCookie(request, id, view.lifeMs);
        return answer(view.credential, view.csrf, timeZone);
      },
      {
        operation: webOperations.getSession,
        rateLimit: "address",
        response: { 200: SessionEnvelope },
        detail: {
          summary: "The browser's session: who it is and its csrf value (401 when signed out)",
          description:
            "A 401 for a cookie whose session is gone carries `reason`: `revoked` (its token), `deleted` (its user), `expired`, or `ended` (signed out, pushed out past a cap, or ended before the box last started), so the page can say why it asks to sign in again.",
          tags,
        },
      },
    )
    .delete(
      "/api/v1/session",
      ({ request, set }) => {
        // The app's own page may sign out without the csrf value (after an offline start it
        // never read it); anything else needs it.
        const view = ctx.sessions.view(request);
        if (view && request.headers.get(CSRF_HEADER) !== view.csrf && !isSameOrigin(request))
          throw csrfRefused();
        ctx.sessions.end(request);
        set.status = 204;
        set.headers["set-cookie"] = sessionCookie(request, "");
        return null;
      },
      {
        operation: webOperations.signOut,
        rateLimit: "address",
        detail: {
          summary: `Sign out: ends the session and clears the ${SESSION_COOKIE} cookie (X-CSRF-Token needed)`,
          tags,
        },
      },
    );
}
