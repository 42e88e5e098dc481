import { Elysia, t } from "elysia";
import { normalizePlate } from "../../../domain/plates.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import { wholeNumberParam } from "../../../platform/http/validation.ts";
import type { AdminDeps } from "../index.ts";
import { CursorParam, instant, iso, page, rowAfter, rowCursor } from "../paging.ts";

export const PageQuery = t.Object({
  registration_number: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 64,
      description: "A plate in any spelling: its lookups and verdicts",
    }),
  ),
  credential: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 100,
      description: "Who asked: a credential label, e.g. token:handheld-1",
    }),
  ),
  from: t.Optional(t.String({ description: "ISO 8601; records at or after it" })),
  to: t.Optional(t.String({ description: "ISO 8601; records before it" })),
  cursor: CursorParam,
  limit: t.Optional(wholeNumberParam("limit", "query", 1, 200, "Records a page (50 unless given)")),
});

export const LookupPage = t.Object({
  data: t.Array(
    t.Object({
      at: t.String({ format: "date-time" }),
      credential: t.String(),
      by: t.UnionEnum(["registration_number", "zone", "zone_list", "verdict", "observation"]),
      query: t.String({
        description: "The normalized plate or the zone number; a verdict or a mark (observation): PLATE@ZONE",
      }),
      results: t.Integer(),
      verdict: t.Union(
        [
          t.UnionEnum(["valid_here", "grace", "over_time_limit", "valid_elsewhere", "outside_hours", "none"]),
          t.Null(),
        ],
        { description: "What a verdict told the attendant; null for every other lookup" },
      ),
    }),
  ),
  next_cursor: t.Union([t.String(), t.Null()], { description: "null on the last page" }),
});

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
