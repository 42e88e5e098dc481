import type { AppConfig } from "../../config.ts";
import type { AuthDeps } from "../../platform/http/auth.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { Store } from "../../platform/store/db.ts";

/** What the ticket intake needs from the box. */
export interface IntakeDeps {
  store: Store;
  now: () => number;
  config: Pick<AppConfig, "timezone" | "currency">;
  metrics: Pick<Metrics, "ticketEvent">;
  auth: AuthDeps;
}
