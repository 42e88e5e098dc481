import { Elysia } from "elysia";
import type { AppConfig } from "../../config.ts";
import type { ApiContract } from "../../platform/http/api-contract.ts";
import type { AuthDeps } from "../../platform/http/auth.ts";
import { logError, logLine } from "../../platform/log.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { AppModule } from "../../platform/module.ts";
import type { OpenStreams } from "../../platform/open-streams.ts";
import type { Store } from "../../platform/store/db.ts";
import { healthRoutes, type OfficeLinkState } from "./health.ts";
import type { RouteInfo } from "./openapi.ts";
import { scheduleRetention } from "./retention.ts";
import { operationsRoutes } from "./routes.ts";
import { statusContract } from "./status-contract.ts";
import { statusRoutes } from "./status-routes.ts";

/** What the technicians' side needs from the box. */
export interface OperationsDeps {
  store: Store;
  now: () => number;
  config: Pick<AppConfig, "bodyLimit" | "metricsToken" | "retentionDays">;
  metrics: Metrics;
  /** How many live feeds are open (the status page). */
  openStreams: Pick<OpenStreams, "openReaders">;
  auth: AuthDeps;
  /** The office link's state, when the box has one (`serve --central`). */
  officeLink: () => OfficeLinkState | undefined;
  /** Every route of the app and what every module says of them, for /openapi.json and /docs. */
  routesOf: () => readonly RouteInfo[];
  contracts: readonly ApiContract[];
}

/** Health, readiness, the status page, /metrics, the API's own document, and hourly retention. */
export function operationsModule(deps: OperationsDeps): AppModule {
  return {
    name: "operations",
    routes: new Elysia({ name: "operations-module" })
      .use(healthRoutes(deps))
      .use(statusRoutes(deps))
      .use(operationsRoutes(deps, deps.routesOf, deps.contracts)),
    contracts: [statusContract],
    start(hold) {
      const { store, now, metrics } = deps;
      const retentionDays = deps.config.retentionDays;
      const retention = scheduleRetention({
        store,
        now,
        retentionDays,
        onRun: (r) => {
          metrics.retentionDeletedRows("tickets", r.tickets);
          metrics.retentionDeletedRows("ticket_events", r.ticketEvents);
          metrics.retentionDeletedRows("permit_lookups", r.permitLookups);
          metrics.retentionDeletedRows("operator_changes", r.operatorChanges);
          metrics.retentionDeletedRows("observations", r.observations);
          metrics.retentionDeletedRows("notices", r.notices);
          if (
            r.tickets + r.ticketEvents + r.permitLookups + r.operatorChanges + r.observations + r.notices >
            0
          )
            logLine({ msg: "retention", retentionDays, deleted: r });
        },
        onError: (e) => logError("retention run failed; retrying at the next run", e),
      });
      hold("retention", () => retention.stop());
    },
  };
}
