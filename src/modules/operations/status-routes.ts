import { Elysia, t } from "elysia";
import { formatMicros } from "../../domain/time/zoned.ts";
import { authPlugin } from "../../platform/http/auth.ts";
import { VERSION } from "../../version.ts";
import { SyncReadiness, syncReadiness } from "./health.ts";
import type { OperationsDeps } from "./index.ts";
import { statusFromMetrics } from "./status-figures.ts";

const Counts = t.Record(t.String(), t.Number());
const Maybe = t.Union([t.Number(), t.Null()]);
export const Status = t.Object({
  data: t.Object({
    version: t.String(),
    uptimeSeconds: t.Number(),
    storeBytes: Maybe,
    diskFreeBytes: Maybe,
    storeWritable: t.Union([t.Boolean(), t.Null()]),
    residentMemoryBytes: Maybe,
    activeTickets: Maybe,
    activePermits: Maybe,
    events: t.Object({ lastMinute: t.Integer(), lastHour: t.Integer(), sinceStart: Counts }),
    terminals: t.Array(t.Object({ credential: t.String(), lastAt: t.String({ format: "date-time" }) }), {
      description: "The last accepted ticket event of each credential, newest first",
    }),
    lookupsSinceStart: Counts,
    authFailuresSinceStart: t.Number(),
    requests: t.Object({ total: t.Number(), clientErrors: t.Number(), serverErrors: t.Number() }),
    liveFeeds: t.Integer(),
    office: t.Union([SyncReadiness, t.Null()], {
      description: "The office link (serve --central); null without one",
    }),
  }),
});

/** The figures of /metrics a person cares about, for the console's status page (scope admin). */
export function statusRoutes(ctx: OperationsDeps) {
  return new Elysia({ name: "status" }).use(authPlugin(ctx.auth)).get(
    "/api/v1/status",
    () => {
      const now = ctx.now();
      const m = statusFromMetrics(ctx.metrics.snapshot());
      const search = ctx.store.ticketSearch;
      return {
        data: {
          version: VERSION,
          uptimeSeconds: m.startTime === null ? 0 : Math.max(0, Math.round(Date.now() / 1000 - m.startTime)),
          storeBytes: m.storeBytes,
          diskFreeBytes: m.diskFreeBytes,
          storeWritable: m.storeWritable,
          residentMemoryBytes: m.rss,
          activeTickets: m.activeTickets,
          activePermits: m.activePermits,
          events: {
            lastMinute: search.eventsSince(now - 60_000),
            lastHour: search.eventsSince(now - 3_600_000),
            sinceStart: m.events,
          },
          terminals: Object.entries(m.lastEvent)
            .sort((a, b) => b[1] - a[1])
            .map(([credential, seconds]) => ({ credential, lastAt: formatMicros(seconds * 1000) })),
          lookupsSinceStart: m.lookups,
          authFailuresSinceStart: m.authFailures,
          requests: m.requests,
          liveFeeds: ctx.openStreams.openReaders,
          office: syncReadiness(ctx) ?? null,
        },
      };
    },
    {
      auth: { scope: "admin" },
      response: Status,
      detail: {
        summary: "The figures of /metrics a person cares about, for the console",
        description:
          "Read from the same registry /metrics renders (last event per terminal, active tickets and permits, store and disk, refused and failed requests, authentication failures), plus events in the last minute and hour from the event log and the open zone feeds.",
        tags: ["operations"],
      },
    },
  );
}
