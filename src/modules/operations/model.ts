import { Type } from "@sinclair/typebox";
import { type Static, t } from "elysia";
import type { ProblemBody } from "../../platform/http/problem.ts";
import { CONDITIONS } from "./conditions.ts";

/** RFC 9457 problem details as every error leaves the service (see src/platform/http/problem.ts). */
export const ProblemSchema = t.Object(
  {
    type: t.String({ description: "Stable URI per kind, e.g. /problems/validation" }),
    title: t.String(),
    status: Type.Integer({ minimum: 400, maximum: 599 }),
    detail: t.String(),
    instance: t.Optional(t.String({ description: "The path of the request" })),
    errors: t.Optional(
      t.Array(
        t.Object({
          pointer: t.String({ description: "JSON pointer into the body, or the parameter name" }),
          message: t.String(),
          in: t.Optional(t.UnionEnum(["body", "query", "params", "headers"])),
        }),
      ),
    ),
  },
  { title: "Problem" },
);

// The schema and the type the code builds must describe one shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const problemShapeMatches: Same<Static<typeof ProblemSchema>, ProblemBody> = true;

export const PurgeReport = t.Object({
  tickets: Type.Integer(),
  ticketEvents: Type.Integer(),
  permitLookups: Type.Integer(),
  operatorChanges: Type.Integer(),
  observations: Type.Integer(),
  notices: Type.Integer(),
  /** Photo files removed with their notices (a file two notices hold goes with the last). */
  noticePhotos: Type.Integer(),
});
export type PurgeReport = Static<typeof PurgeReport>;

export const HealthStatus = t.Object({ status: t.Literal("ok") });

const InstantOrNull = t.Union([t.String({ description: "ISO 8601, UTC" }), t.Null()]);

/** The office link's state; the box is ready without it, so it never turns /readyz red. */
export const SyncReadiness = t.Object({
  site: t.String(),
  central: t.String({ description: "The office's PostgreSQL, without credentials" }),
  encrypted: t.Boolean({ description: "false only where --central says sslmode=disable" }),
  reachable: t.Boolean({ description: "The last push and pull reached the office" }),
  pending_events: Type.Integer({ description: "Ticket events the office does not have yet" }),
  oldest_pending_age_seconds: t.Number(),
  last_push_at: InstantOrNull,
  last_pull_at: InstantOrNull,
  last_error: t.Union([t.String(), t.Null()]),
  last_error_at: InstantOrNull,
  errors: t.Object({ push: Type.Integer(), pull: Type.Integer() }),
  central_permits: Type.Integer({ description: "Office permits held for this site" }),
  clock_skew_seconds: t.Union([t.Number(), t.Null()], {
    description:
      "This box's clock minus the office's at the last pull (positive: ahead); null until a pull has read it. Over 2 s is listed under problems as office-clock-skew",
  }),
});

/** A condition the box works under only in part (doctor's list, docs/operations.md). */
export const ReadyProblem = t.Object({
  condition: t.String({
    description: `The condition's id, as parkd doctor names it: ${Object.keys(CONDITIONS).join(", ")}`,
  }),
  summary: t.String(),
  fix: t.String(),
});

export const ReadyStatus = t.Object({
  status: t.Literal("ok"),
  sync: t.Optional(SyncReadiness),
  problems: t.Optional(
    t.Array(ReadyProblem, {
      description:
        "What the box is ready despite (a disk near or at the reserve kept for ticket events, the office link's faults); absent when there is none",
    }),
  ),
});

// The console's status page (GET /api/v1/status).
const Counts = t.Record(t.String(), t.Number());
const Maybe = t.Union([t.Number(), t.Null()]);
export const Status = t.Object({
  data: t.Object({
    version: t.String(),
    uptime_seconds: t.Number(),
    store_bytes: Maybe,
    disk_free_bytes: Maybe,
    store_writable: t.Union([t.Boolean(), t.Null()]),
    resident_memory_bytes: Maybe,
    active_tickets: Maybe,
    active_permits: Maybe,
    events: t.Object({ last_minute: Type.Integer(), last_hour: Type.Integer(), since_start: Counts }),
    terminals: t.Array(t.Object({ credential: t.String(), last_at: t.String({ format: "date-time" }) }), {
      description: "The last accepted ticket event of each credential, newest first",
    }),
    lookups_since_start: Counts,
    auth_failures_since_start: t.Number(),
    requests: t.Object({ total: t.Number(), client_errors: t.Number(), server_errors: t.Number() }),
    live_feeds: Type.Integer(),
    office: t.Union([SyncReadiness, t.Null()], {
      description: "The office link (serve --central); null without one",
    }),
  }),
});
