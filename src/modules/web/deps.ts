import type { AppConfig } from "../../config.ts";
import type { AuthDeps, CredentialVerifier } from "../../platform/http/auth.ts";
import type { TrustedProxies } from "../../platform/http/client-address.ts";
import type { FailureLimiter } from "../../platform/http/rate-limit.ts";
import type { TlsMaterial } from "../../platform/http/tls.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { CredentialLookup, SessionStore } from "./sessions.ts";
import type { SignInCodes } from "./sign-in-codes.ts";

/** What the web app's sign-in needs from the box. */
export interface WebDeps {
  now: () => number;
  /** The site's time zone goes to the page with the session: it shows every time in it. */
  config: Pick<AppConfig, "publicUrl" | "timezone">;
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
