import type { AppConfig } from "../../config.ts";
import type { AuthDeps } from "../../platform/http/auth.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { Store } from "../../platform/store/db.ts";
import type { CredentialService } from "./credentials/service.ts";

/** The operators see and change nearly everything the box keeps. */
export type AdminStore = Pick<
  Store,
  | "credentials"
  | "changes"
  | "browserSessions"
  | "lots"
  | "permits"
  | "tickets"
  | "ticketSearch"
  | "reports"
  | "lookups"
  | "notices"
  | "photos"
  | "transaction"
>;

/** What the operators' side needs from the box. */
export interface AdminDeps {
  store: AdminStore;
  now: () => number;
  config: Pick<AppConfig, "timezone" | "currency" | "holidays">;
  /** Per-lot occupancy gauges are added to it. */
  metrics: Pick<Metrics, "addGauges">;
  auth: AuthDeps;
  credentials: CredentialService;
}
