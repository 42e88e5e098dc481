import { type Static, t } from "elysia";
import type { ProblemBody } from "../../platform/http/problem.ts";

/** RFC 9457 problem details as every error leaves the service (see src/platform/http/problem.ts). */
export const ProblemSchema = t.Object(
  {
    type: t.String({ description: "Stable URI per kind, e.g. /problems/validation" }),
    title: t.String(),
    status: t.Integer({ minimum: 400, maximum: 599 }),
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
  tickets: t.Integer(),
  ticketEvents: t.Integer(),
  permitLookups: t.Integer(),
  operatorChanges: t.Integer(),
  observations: t.Integer(),
  notices: t.Integer(),
  /** Photo files removed with their notices (a file two notices hold goes with the last). */
  noticePhotos: t.Integer(),
});
export type PurgeReport = Static<typeof PurgeReport>;
