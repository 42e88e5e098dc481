import { Elysia } from "elysia";
import { formatMicros } from "../../domain/time/zoned.ts";
import { authPlugin } from "../../platform/http/auth.ts";
import { routeDeclaration } from "../../platform/http/route-declaration.ts";
import { VERSION } from "../../version.ts";
import type { OperationsDeps } from "./deps.ts";
import { syncReadiness } from "./health.ts";
import { Status } from "./model.ts";
import { statusOperations } from "./status-contract.ts";
import { statusFromMetrics } from "./status-figures.ts";

/** The figures of /metrics a person cares about, for the console's status page (scope admin). */
export function statusRoutes(ctx: OperationsDeps) {
  return new Elysia({ name: "status" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .get(
      "/api/v1/status",
      () => {
        const now = ctx.now();
        const m = statusFromMetrics(ctx.metrics.snapshot());
        const search = ctx.store.ticketSearch;
        return {
          data: {
            version: VERSION,
            uptime_seconds:
              m.startTime === null ? 0 : Math.max(0, Math.round(Date.now() / 1000 - m.startTime)),
            store_bytes: m.storeBytes,
            disk_free_bytes: m.diskFreeBytes,
            store_writable: m.storeWritable,
            resident_memory_bytes: m.rss,
            active_tickets: m.activeTickets,
            active_permits: m.activePermits,
            events: {
              last_minute: search.eventsSince(now - 60_000),
              last_hour: search.eventsSince(now - 3_600_000),
              since_start: m.events,
            },
            terminals: Object.entries(m.lastEvent)
              .sort((a, b) => b[1] - a[1])
              .map(([credential, seconds]) => ({ credential, last_at: formatMicros(seconds * 1000) })),
            lookups_since_start: m.lookups,
            auth_failures_since_start: m.authFailures,
            requests: {
              total: m.requests.total,
              client_errors: m.requests.clientErrors,
              server_errors: m.requests.serverErrors,
            },
            live_feeds: ctx.openStreams.openReaders,
            office: syncReadiness(ctx) ?? null,
          },
        };
      },
      {
        operation: statusOperations.getStatus,
        auth: { scope: "admin" },
        response: Status,
        detail: {
          // This module's own contract does not reach the document it builds; the name comes from here.
          operationId: "getStatus",
          summary: "The figures of /metrics a person cares about, for the console",
          description:
            "Read from the same registry /metrics renders (last event per terminal, active tickets and permits, store and disk, refused and failed requests, authentication failures), plus events in the last minute and hour from the event log and the open zone feeds.",
          tags: ["operations"],
        },
      },
    );
}
