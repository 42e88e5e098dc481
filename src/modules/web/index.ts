import { Elysia } from "elysia";
import type { CredentialVerifier } from "../../platform/http/auth.ts";
import type { TrustedProxies } from "../../platform/http/client-address.ts";
import type { FailureLimiter } from "../../platform/http/rate-limit.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { AppModule } from "../../platform/module.ts";
import { webContract } from "./contract.ts";
import { sessionRoutes } from "./session-routes.ts";
import { type CredentialLookup, SessionStore } from "./sessions.ts";
import { staticRoutes } from "./static-routes.ts";

/**
 * The browser sessions, built before the modules: the platform's auth accepts a session cookie
 * like a Bearer token (through its CookieAuth port), and sign-in opens them.
 */
export function webSessions(deps: { credentials: CredentialLookup; now: () => number }): SessionStore {
  return new SessionStore(deps.credentials, deps.now);
}

/** What the web app's sign-in needs from the box. */
export interface WebDeps {
  credentials: CredentialVerifier;
  sessions: SessionStore;
  /** Failed sign-ins count against the address as failed API credentials do. */
  limiter: FailureLimiter;
  trustedProxies: TrustedProxies;
  metrics: Pick<Metrics, "authFailure" | "authLockout" | "authRateLimited">;
}

/** The web app: its pages at `/`, and browser sessions. */
export function webModule(deps: WebDeps): AppModule {
  return {
    name: "web",
    routes: new Elysia({ name: "web" }).use(staticRoutes()).use(sessionRoutes(deps)),
    contracts: [webContract],
  };
}
