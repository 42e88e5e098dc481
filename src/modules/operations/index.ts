import { Elysia } from "elysia";
import { logError, logLine } from "../../platform/log.ts";
import type { AppModule } from "../../platform/module.ts";
import type { OperationsDeps } from "./deps.ts";
import { healthDirect, healthRoutes } from "./health.ts";
import { scheduleRetention } from "./retention.ts";
import { operationsRoutes } from "./routes.ts";
import { statusContract } from "./status-contract.ts";
import { statusRoutes } from "./status-routes.ts";

export {
  CONDITIONS,
  type Condition,
  type ConditionId,
  type FixPlace,
  fixFor,
  type Level,
} from "./conditions.ts";
export type { OperationsDeps } from "./deps.ts";
export type { PurgeReport } from "./model.ts";
export type { RouteInfo } from "./openapi.ts";
export { PurgeIncomplete, purgeExpired, restingBesideServe } from "./retention.ts";
export { listenUrls, storeCounts } from "./summary.ts";

/** Health, readiness, the status page, /metrics, the API's own document, and hourly retention. */
export function operationsModule(deps: OperationsDeps): AppModule {
  return {
    name: "operations",
    routes: new Elysia({ name: "operations-module" })
      .use(healthRoutes(deps))
      .use(statusRoutes(deps))
      .use(operationsRoutes(deps, deps.routesOf, deps.contracts)),
    contracts: [statusContract],
    direct: [healthDirect],
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
