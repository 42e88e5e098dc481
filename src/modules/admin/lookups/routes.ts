import { Elysia } from "elysia";
import { normalizePlate } from "../../../domain/plates.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import type { AdminDeps } from "../deps.ts";
import { instant, iso, page, rowAfter, rowCursor } from "../paging.ts";
import { LookupPage, PageQuery } from "./model.ts";

/** Who looked up what and when: the lookup records, for the operator's audit page (scope admin). */
export function lookupRecordRoutes(ctx: AdminDeps) {
  return new Elysia({ name: "lookup-records" }).use(authPlugin(ctx.auth)).get(
    "/api/v1/lookups",
    ({ query }) => {
      const limit = query.limit ?? 50;
      const before = query.cursor ? rowAfter(query.cursor, "lookups") : undefined;
      const filter = {
        plate:
          query.registration_number === undefined ? undefined : normalizePlate(query.registration_number),
        credential: query.credential,
        from: instant(query.from, "from", ctx.config.timezone),
        to: instant(query.to, "to", ctx.config.timezone),
      };
      const p = page(ctx.store.lookups.page(filter, before, limit + 1), limit);
      return {
        data: p.rows.map((r) => ({
          at: iso(r.at),
          credential: r.credential,
          by: r.by,
          query: r.query,
          results: r.results,
          verdict: r.verdict,
        })),
        next_cursor: p.more && p.last ? rowCursor("lookups", p.last.id) : null,
      };
    },
    {
      auth: { scope: "admin" },
      query: PageQuery,
      response: LookupPage,
      detail: {
        summary:
          "Who looked up what and when (the lookup records), newest first; by plate, credential and time",
        description: "Records are written about once a second, so the newest second may not show yet.",
        tags: ["permits"],
      },
    },
  );
}
