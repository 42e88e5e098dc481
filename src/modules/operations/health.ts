import { Elysia, t } from "elysia";
import type { AppContext } from "../../context.ts";
import { problems } from "../../platform/http/problem.ts";

export const HealthStatus = t.Object({ status: t.Literal("ok") });

const Instant = t.Union([t.String({ description: "ISO 8601, UTC" }), t.Null()]);

/** The office link's state; the box is ready without it, so it never turns /readyz red. */
export const SyncReadiness = t.Object({
  site: t.String(),
  central: t.String({ description: "The office's PostgreSQL, without credentials" }),
  reachable: t.Boolean({ description: "The last push and pull reached the office" }),
  pending_events: t.Integer({ description: "Ticket events the office does not have yet" }),
  oldest_pending_age_seconds: t.Number(),
  last_push_at: Instant,
  last_pull_at: Instant,
  last_error: t.Union([t.String(), t.Null()]),
  last_error_at: Instant,
  errors: t.Object({ push: t.Integer(), pull: t.Integer() }),
  central_permits: t.Integer({ description: "Office permits held for this site" }),
});

export const ReadyStatus = t.Object({ status: t.Literal("ok"), sync: t.Optional(SyncReadiness) });

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function syncReadiness(ctx: AppContext) {
  if (!ctx.sync) return undefined;
  const s = ctx.sync.status();
  return {
    site: s.site,
    central: s.central,
    reachable: s.reachable,
    pending_events: s.pendingEvents,
    oldest_pending_age_seconds: s.oldestPendingAgeSeconds,
    last_push_at: iso(s.lastPushAt),
    last_pull_at: iso(s.lastPullAt),
    last_error: s.lastError,
    last_error_at: iso(s.lastErrorAt),
    errors: s.errors,
    central_permits: s.centralPermits,
  };
}

export function healthRoutes(ctx: AppContext) {
  return new Elysia({ name: "health" })
    .get("/healthz", () => ({ status: "ok" as const }), {
      response: HealthStatus,
      detail: { summary: "The process is up", tags: ["operations"] },
    })
    .get(
      "/readyz",
      () => {
        // A real commit, so a full or read-only disk shows here before a terminal finds it.
        try {
          ctx.store.probe.commit(ctx.now());
        } catch {
          throw problems.storeUnavailable("The store cannot commit a write");
        }
        const sync = syncReadiness(ctx);
        return sync ? { status: "ok" as const, sync } : { status: "ok" as const };
      },
      {
        response: ReadyStatus,
        detail: {
          summary: "The store accepts writes; with --central, the office link's lag and errors",
          tags: ["operations"],
        },
      },
    );
}
