import { Elysia, type Static } from "elysia";
import type { ChangeSubject } from "../../../domain/changes.ts";
import { invalid } from "../../../domain/errors.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import { routeDeclaration } from "../../../platform/http/route-declaration.ts";
import type { ChangeFilter, StoredChange } from "../../../platform/store/changes.ts";
import { adminConsoleOperations } from "../console-contract.ts";
import type { AdminDeps } from "../deps.ts";
import { instant, iso, rowPage } from "../paging.ts";
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

const changeView = (c: StoredChange) => ({
  id: c.id,
  at: iso(c.at),
  actor: c.actor,
  via: c.via,
  subject: c.subject,
  subject_id: c.subjectId,
  action: c.action,
  before: c.before,
  after: c.after,
});

/** The change history of operator writes (scope admin): per record, per actor, by date. */
export function changeRoutes(ctx: AdminDeps) {
  return new Elysia({ name: "operator-changes" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .get(
      "/api/v1/changes",
      ({ query }) => {
        const filter = filterOf(query, ctx.config.timezone);
        return rowPage("changes", query, ctx.store.changes, filter, changeView);
      },
      {
        operation: adminConsoleOperations.listChanges,
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
