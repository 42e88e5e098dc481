import type { AppConfig } from "../../config.ts";
import type { AuthDeps } from "../../platform/http/auth.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { OpenStreams } from "../../platform/open-streams.ts";
import type { Store } from "../../platform/store/db.ts";
import type { CredentialState } from "./credential-watch.ts";

/**
 * What lookups read (and the read model's notes of writes), the lookup records, and the notices
 * attendants issue with their photos.
 */
export type EnforcementStore = Pick<
  Store,
  | "tickets"
  | "permits"
  | "lots"
  | "lookups"
  | "changes"
  | "notices"
  | "observations"
  | "photos"
  | "written"
  | "inTransaction"
  | "transaction"
>;

/** What the attendants' lookups need from the box. */
export interface EnforcementDeps {
  store: EnforcementStore;
  now: () => number;
  config: Pick<AppConfig, "timezone" | "recentHours" | "graceMinutes" | "currency" | "retentionDays">;
  metrics: Metrics;
  /** Where open feeds register, so that a shutdown ends them at once. */
  openStreams: Pick<OpenStreams, "onClose">;
  auth: AuthDeps;
  /** Whether a credential holding a live feed still stands (the admin module's credentials). */
  credentialState: CredentialState;
}
