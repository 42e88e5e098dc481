import { Elysia, type Static } from "elysia";
import { mbOf, roomForRecords } from "../../domain/disk-room.ts";
import { formatMicros } from "../../domain/time/zoned.ts";
import { directAnswer, jsonValueAnswer } from "../../platform/http/direct.ts";
import { problems } from "../../platform/http/problem.ts";
import { rateLimitOption } from "../../platform/http/rate-limit.ts";
import { routeDeclaration } from "../../platform/http/route-declaration.ts";
import { type ConditionId, type ReportedProblem, reported } from "./conditions.ts";
import { operationsOperations } from "./contract.ts";
import type { OfficeLinkState, OperationsDeps } from "./deps.ts";
import type { DiskWatch, RoomReading } from "./disk-watch.ts";
import { HealthStatus, ReadyStatus } from "./model.ts";

/** More than this between the box's clock and the office's is listed (doctor warns from the same). */
export const CLOCK_OFF_MS = 2_000;

const iso = (ms: number | null) => (ms === null ? null : formatMicros(ms));

const FAULT_CONDITION = {
  "role-not-site": "office-role-not-site",
  "site-claimed": "office-site-claimed",
  schema: "office-schema",
  unreachable: "office-unreachable",
} as const satisfies Record<NonNullable<OfficeLinkState["lastFault"]>, ConditionId>;

/** What /readyz lists of the office link: a plaintext link, and why it fails while it does. */
export function officeLinkProblems(s: OfficeLinkState | undefined): ReportedProblem[] {
  if (!s) return [];
  const out: ReportedProblem[] = [];
  if (!s.encrypted) out.push(reported("office-plaintext", `${s.central}: sslmode=disable`));
  // The office's clock is the site's reference: a box off it judges tickets at the wrong time.
  if (s.clockSkewMs !== null && Math.abs(s.clockSkewMs) > CLOCK_OFF_MS)
    out.push(
      reported(
        "office-clock-skew",
        `this box's clock is ${(Math.abs(s.clockSkewMs) / 1000).toFixed(1)} s ${s.clockSkewMs >= 0 ? "ahead of" : "behind"} the office's`,
      ),
    );
  if (!s.reachable && s.lastFault && s.lastError)
    out.push(reported(FAULT_CONDITION[s.lastFault], s.lastError, { site: s.site }));
  return out;
}

/** The office link's state as /readyz and the console's status show it; undefined without --central. */
export function syncReadiness(ctx: Pick<OperationsDeps, "officeLink">) {
  const s = ctx.officeLink();
  if (!s) return undefined;
  return {
    site: s.site,
    central: s.central,
    encrypted: s.encrypted,
    reachable: s.reachable,
    pending_events: s.pendingEvents,
    oldest_pending_age_seconds: s.oldestPendingAgeSeconds,
    last_push_at: iso(s.lastPushAt),
    last_pull_at: iso(s.lastPullAt),
    last_error: s.lastError,
    last_error_at: iso(s.lastErrorAt),
    errors: s.errors,
    central_permits: s.centralPermits,
    clock_skew_seconds: s.clockSkewMs === null ? null : s.clockSkewMs / 1000,
  };
}

const HEALTHY = { status: "ok" } as const satisfies Static<typeof HealthStatus>;

/** /healthz as the front end answers it itself: the framework's answer to the route below. */
const HEALTHY_ANSWER = jsonValueAnswer(HEALTHY);

/** What /readyz lists of the disk: near the reserve kept for ticket events, or at it. */
export function diskProblems(r: RoomReading | null): ReportedProblem[] {
  if (!r || r.state === "ample") return [];
  const left = `${mbOf(roomForRecords(r.room))} MB left for records (free on the disk and reusable in the store), ${mbOf(r.reserveBytes)} MB kept for ticket events`;
  return [reported(r.state === "at" ? "disk-at-reserve" : "disk-near-reserve", left)];
}

export function healthRoutes(ctx: OperationsDeps, watch: DiskWatch) {
  return new Elysia({ name: "health" })
    .use(routeDeclaration)
    .use(rateLimitOption)
    .get("/healthz", () => HEALTHY, {
      operation: operationsOperations.getHealth,
      direct: directAnswer({ read: () => undefined, answer: () => HEALTHY_ANSWER }),
      response: HealthStatus,
      detail: { summary: "The process is up", tags: ["operations"] },
    })
    .get(
      "/readyz",
      () => {
        const store = ctx.store;
        store.recoverWrites(ctx.now());
        // A real commit, so a full or read-only disk shows here before a terminal finds it. A
        // small one can still fit on a full disk (SQLite reuses its WAL's space) while every
        // event is refused; so once a write has failed, the probe is as large as the largest
        // request body, and readiness returns only when a write of that size commits again.
        try {
          if (store.writesFailing) {
            store.probe.commitLarge(ctx.now(), ctx.config.bodyLimit);
            store.noteWrite(true);
          } else store.probe.commit(ctx.now());
        } catch {
          throw problems.storeUnavailable(
            store.writesFailing
              ? `The store refused the latest write and cannot commit ${ctx.config.bodyLimit} bytes (disk full or read-only?)`
              : "The store cannot commit a write (disk full or read-only?)",
          );
        }
        const sync = syncReadiness(ctx);
        const faults = [...diskProblems(watch.read()), ...officeLinkProblems(ctx.officeLink())];
        return {
          status: "ok" as const,
          ...(sync ? { sync } : {}),
          ...(faults.length ? { problems: faults } : {}),
        };
      },
      {
        operation: operationsOperations.getReadiness,
        rateLimit: "address",
        response: ReadyStatus,
        detail: {
          summary: "The store accepts writes; with --central, the office link's lag and errors",
          tags: ["operations"],
        },
      },
    );
}
