import { Elysia } from "elysia";
import { RepeatedFault } from "../../platform/fault-log.ts";
import { log, logLine } from "../../platform/log.ts";
import type { AppModule } from "../../platform/module.ts";
import { isStoreUnavailable } from "../../platform/store/connection.ts";
import type { OperationsDeps } from "./deps.ts";
import { DiskWatch } from "./disk-watch.ts";
import { healthRoutes } from "./health.ts";
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
  const watch = new DiskWatch(deps.store, {
    retentionDays: deps.config.retentionDays,
    minDays: Math.min(deps.config.retentionMinDays, deps.config.retentionDays),
  });
  return {
    name: "operations",
    routes: new Elysia({ name: "operations-module" })
      .use(healthRoutes(deps, watch))
      .use(statusRoutes(deps))
      .use(operationsRoutes(deps, deps.routesOf, deps.contracts)),
    contracts: [statusContract],
    start(hold) {
      const { store, now, metrics } = deps;
      const retentionDays = deps.config.retentionDays;
      metrics.addGauges(() => ({
        name: "parkd_disk_reserve_bytes",
        help: "What the disk holding the store keeps free for ticket events: photos are refused before they would take it.",
        samples: [{ value: deps.store.reserveBytes }],
      }));
      metrics.addGauges(() => ({
        name: "parkd_store_reusable_bytes",
        help: "Pages the store has freed (deleted records) and fills before it grows on the disk.",
        samples: [{ value: watch.latest?.room.reusableBytes ?? 0 }],
      }));
      metrics.addGauges(() => ({
        name: "parkd_retention_kept_seconds",
        help: "How long retention keeps records now: --retention-days, or fewer days while the disk is at its reserve.",
        samples: [{ value: watch.daysKept * 86_400 }],
      }));
      // Said once while the disk stays at its reserve (retention checks it every minute).
      let saidShort = false;
      // A run that fails on a full disk fails again a minute later: one line, then a summary.
      const retentionFault = new RepeatedFault("retention run failed; retrying at the next run");
      const retention = scheduleRetention({
        store,
        now,
        retentionDays,
        watch,
        onRun: (r, daysKept) => {
          retentionFault.recovered();
          if (watch.latest?.state !== "at") saidShort = false;
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
            logLine({ msg: "retention", retentionDays, daysKept, deleted: r });
        },
        onShort: (daysKept) => {
          if (saidShort) return;
          saidShort = true;
          log(
            "error",
            `the disk is still at the reserve kept for ticket events with retention down to its minimum of ${daysKept} days: free space on the disk or move the data folder to a larger one`,
            { daysKept },
          );
        },
        onError: (e) => retentionFault.failed(e, isStoreUnavailable(e)),
      });
      hold("retention", () => retention.stop());
    },
  };
}
