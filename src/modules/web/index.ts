import { Elysia } from "elysia";
import type { AppModule } from "../../platform/module.ts";
import type { Store } from "../../platform/store/db.ts";
import { webContract } from "./contract.ts";
import type { WebContext, WebDeps } from "./deps.ts";
import { handheldSetupRoutes } from "./handheld-setup-routes.ts";
import { plateReaderRoutes } from "./plate-reader-routes.ts";
import { sessionRoutes } from "./session-routes.ts";
import { type CredentialLookup, SessionStore } from "./sessions.ts";
import { signInCodeRoutes } from "./sign-in-code-routes.ts";
import { SignInCodes } from "./sign-in-codes.ts";
import { staticRoutes } from "./static-routes.ts";

export type { WebDeps } from "./deps.ts";

/**
 * The browser sessions, built before the modules: the platform's auth accepts a session cookie
 * like a Bearer token (through its CookieAuth port), and sign-in opens them.
 */
export function webSessions(deps: {
  store: Pick<Store, "browserSessions">;
  credentials: CredentialLookup;
  now: () => number;
}): SessionStore {
  return new SessionStore(deps.store, deps.credentials, deps.now);
}

/** The web app: its pages at `/`, the handheld's plate reader, browser sessions and one-time sign-in codes. */
export function webModule(deps: WebDeps): AppModule {
  const ctx: WebContext = { ...deps, codes: new SignInCodes(deps.now) };
  return {
    name: "web",
    routes: new Elysia({ name: "web" })
      .use(staticRoutes())
      .use(plateReaderRoutes())
      .use(sessionRoutes(ctx))
      .use(signInCodeRoutes(ctx))
      .use(handheldSetupRoutes(ctx)),
    contracts: [webContract],
    start(hold) {
      hold("browser sessions", deps.sessions.start());
    },
  };
}
