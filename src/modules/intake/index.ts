import type { AppConfig } from "../../config.ts";
import type { AuthDeps } from "../../platform/http/auth.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Store } from "../../platform/store/db.ts";
import { intakeContract } from "./contract.ts";
import { intakeRoutes } from "./routes.ts";

/** What the ticket intake needs from the box. */
export interface IntakeDeps {
  store: Store;
  now: () => number;
  config: Pick<AppConfig, "timezone" | "currency">;
  metrics: Pick<Metrics, "ticketEvent">;
  auth: AuthDeps;
}

/** Ticket event intake for terminals and parking apps. */
export function intakeModule(deps: IntakeDeps): AppModule {
  return { name: "intake", routes: intakeRoutes(deps), contracts: [intakeContract] };
}
