import type { AppConfig } from "../../config.ts";
import type { AuthDeps } from "../../platform/http/auth.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { Store } from "../../platform/store/db.ts";
import type { CredentialService } from "./credentials/service.ts";

/** What the operators' side needs from the box. */
export interface AdminDeps {
  store: Store;
  now: () => number;
  config: Pick<AppConfig, "timezone" | "currency" | "holidays">;
  /** Per-lot occupancy gauges are added to it. */
  metrics: Pick<Metrics, "addGauges">;
  auth: AuthDeps;
  credentials: CredentialService;
}
