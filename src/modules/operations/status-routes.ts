import { Elysia, t } from "elysia";
import type { AppContext } from "../../context.ts";
import { authPlugin } from "../../platform/http/auth.ts";
import { VERSION } from "../../version.ts";
import { statusFromMetrics } from "./status-figures.ts";

const Counts = t.Record(t.String(), t.Number());
const Status = t.Object({
  data: t.Object({
    version: t.String(),
    uptimeSeconds: t.Number(),
    storeBytes: t.Union([t.Number(), t.Null()]),
    residentMemoryBytes: t.Union([t.Number(), t.Null()]),
    events: t.Object({ lastMinute: t.Integer(), lastHour: t.Integer(), sinceStart: Counts }),
    terminals: t.Array(
      t.Object({ credential: t.String(), lastAt: t.String({ format: "date-time" }), events: t.Integer() }),
    ),
    lookupsSinceStart: Counts,
    requests: t.Object({ total: t.Number(), clientErrors: t.Number(), serverErrors: t.Number() }),
    liveFeeds: t.Integer(),
  }),
});

/** The figures of /metrics a person cares about, for the console's status page (scope admin). */
export function statusRoutes(ctx: AppContext) {
  return new Elysia({ name: "status" }).use(authPlugin(ctx)).get(
    "/api/v1/status",
    () => {
      const now = ctx.now();
      const events = ctx.store.tickets.eventFigures([now - 60_000, now - 3_600_000], now - 7 * 86_400_000);
      const m = statusFromMetrics(ctx.metrics.render());
      return {
        data: {
          version: VERSION,
          uptimeSeconds: m.startTime === null ? 0 : Math.max(0, Math.round(Date.now() / 1000 - m.startTime)),
          storeBytes: m.storeBytes,
          residentMemoryBytes: m.rss,
          events: { lastMinute: events.counts[0]!, lastHour: events.counts[1]!, sinceStart: m.events },
          terminals: events.senders.map((s) => ({ ...s, lastAt: new Date(s.lastAt).toISOString() })),
          lookupsSinceStart: m.lookups,
          requests: m.requests,
          liveFeeds: ctx.zoneChanges.openReaders,
        },
      };
    },
    {
      auth: { scope: "admin" },
      response: Status,
      detail: {
        summary: "The figures of /metrics a person cares about, for the console",
        description:
          "Events per minute and hour and the last event of each sender (from the event log), store size, memory, refused and failed requests, open zone feeds.",
        tags: ["operations"],
      },
    },
  );
}
