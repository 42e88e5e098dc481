import { Elysia, type Static } from "elysia";
import type { ChangeSubject } from "../../../domain/changes.ts";
import { invalid } from "../../../domain/errors.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import type { ChangeFilter } from "../../../platform/store/changes.ts";
import type { AdminDeps } from "../deps.ts";
import { instant, iso, page, rowAfter, rowCursor } from "../paging.ts";
import { ChangePage, ChangeQuery } from "./model.ts";

function filterOf(query: Static<typeof ChangeQuery>, timezone: string): ChangeFilter {
  if (query.subject_id !== undefined && query.subject === undefined)
    throw invalid([
      { pointer: "/subject_id", message: "Name the subject too (lot, permit, token, user)", in: "query" },
    ]);
  return {
    subject: query.subject as ChangeSubject | undefined,
    subjectId: query.subject_id,
    actor: query.actor,
    from: instant(query.from, "from", timezone),
    to: instant(query.to, "to", timezone),
  };
}

/** The change history of operator writes (scope admin): per record, per actor, by date. */
export function changeRoutes(ctx: AdminDeps) {
  return new Elysia({ name: "operator-changes" }).use(authPlugin(ctx.auth)).get(
    "/api/v1/changes",
    ({ query }) => {
      const limit = query.limit ?? 50;
      const filter = filterOf(query, ctx.config.timezone);
      const before = query.cursor ? rowAfter(query.cursor, "changes") : undefined;
      const p = page(ctx.store.changes.page(filter, before, limit + 1), limit);
      return {
        data: p.rows.map((c) => ({
          id: c.id,
          at: iso(c.at),
          actor: c.actor,
          via: c.via,
          subject: c.subject,
          subject_id: c.subjectId,
          action: c.action,
          before: c.before,
          after: c.after,
        })),
        next_cursor: p.more && p.last ? rowCursor("changes", p.last.id) : null,
      };
    },
    {
      auth: { scope: "admin" },
      query: ChangeQuery,
      response: ChangePage,
      detail: {
        summary: "Who changed which lot, permit, token or user, when, and how; newest first",
        tags: ["changes"],
      },
    },
  );
}
