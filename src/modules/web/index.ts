import { Elysia } from "elysia";
import type { AppConfig } from "../../config.ts";
import type { AuthDeps, CredentialVerifier } from "../../platform/http/auth.ts";
import type { TrustedProxies } from "../../platform/http/client-address.ts";
import type { FailureLimiter } from "../../platform/http/rate-limit.ts";
import type { TlsMaterial } from "../../platform/http/tls.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Store } from "../../platform/store/db.ts";
import { webContract } from "./contract.ts";
import { handheldSetupRoutes } from "./handheld-setup-routes.ts";
import { sessionRoutes } from "./session-routes.ts";
import { type CredentialLookup, SessionStore } from "./sessions.ts";
import { signInCodeRoutes } from "./sign-in-code-routes.ts";
import { SignInCodes } from "./sign-in-codes.ts";
import { staticRoutes } from "./static-routes.ts";

/**
 * The browser sessions, built before the modules: the platform's auth accepts a session cookie
 * like a Bearer token (through its CookieAuth port), and sign-in opens them.
 */
export function webSessions(deps: {
  store: Store;
  credentials: CredentialLookup;
  now: () => number;
}): SessionStore {
  return new SessionStore(deps.store, deps.credentials, deps.now);
}

/** What the web app's sign-in needs from the box. */
export interface WebDeps {
  now: () => number;
  config: Pick<AppConfig, "publicUrl">;
  /** The URLs the box listens on, once it does (for sign-in QR codes). */
  listening: () => readonly string[];
  credentials: CredentialVerifier & CredentialLookup;
  sessions: SessionStore;
  auth: AuthDeps;
  /** Failed sign-ins count against the address as failed API credentials do. */
  limiter: FailureLimiter;
  trustedProxies: TrustedProxies;
  metrics: Pick<Metrics, "authFailure" | "authLockout" | "authRateLimited">;
  /** The certificate served over HTTPS and the local CA behind it (none on plain HTTP). */
  certificate: () => TlsMaterial | undefined;
}

/** Inside the module: its dependencies and the services it built for itself. */
export interface WebContext extends WebDeps {
  codes: SignInCodes;
}

/** The web app: its pages at `/`, browser sessions and one-time sign-in codes. */
export function webModule(deps: WebDeps): AppModule {
  const ctx: WebContext = { ...deps, codes: new SignInCodes(deps.now) };
  return {
    name: "web",
    routes: new Elysia({ name: "web" })
      .use(staticRoutes())
      .use(sessionRoutes(ctx))
      .use(signInCodeRoutes(ctx))
      .use(handheldSetupRoutes(ctx)),
    contracts: [webContract],
    start(hold) {
      hold("browser sessions", deps.sessions.start());
    },
  };
}
