import type { AppConfig } from "../../config.ts";
import type { AuthDeps } from "../../platform/http/auth.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { Store } from "../../platform/store/db.ts";

/** The repositories the intake writes through: tickets and their log, the revenue book, the lots it checks. */
export type IntakeStore = Pick<Store, "tickets" | "reports" | "lots" | "transaction" | "unsynced" | "synced">;

/** What the ticket intake needs from the box. */
export interface IntakeDeps {
  store: IntakeStore;
  now: () => number;
  config: Pick<AppConfig, "timezone" | "currency">;
  metrics: Pick<Metrics, "ticketEvent">;
  auth: AuthDeps;
}
