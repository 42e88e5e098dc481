import { Elysia, type Static } from "elysia";
import { normalizePlate } from "../../../domain/plates.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import { routeDeclaration } from "../../../platform/http/route-declaration.ts";
import type { LookupKind } from "../../../platform/store/lookup-kinds.ts";
import type { LookupFilter, LookupRecord } from "../../../platform/store/lookups.ts";
import { adminConsoleOperations } from "../console-contract.ts";
import type { AdminDeps } from "../deps.ts";
import { instant, iso, rowPage } from "../paging.ts";
import { LookupPage, PageQuery } from "./model.ts";

function filterOf(query: Static<typeof PageQuery>, timezone: string): LookupFilter {
  return {
    plate: query.registration_number === undefined ? undefined : normalizePlate(query.registration_number),
    credential: query.credential,
    kinds: query.by === undefined ? undefined : ([...new Set(query.by.split(","))].sort() as LookupKind[]),
    from: instant(query.from, "from", timezone),
    to: instant(query.to, "to", timezone),
  };
}

const lookupView = (r: LookupRecord) => ({
  at: iso(r.at),
  credential: r.credential,
  by: r.by,
  query: r.query,
  results: r.results,
  verdict: r.verdict,
  camera_read: r.cameraRead,
});

/** Who looked up what and when: the lookup records, for the operator's audit page (scope admin). */
export function lookupRecordRoutes(ctx: AdminDeps) {
  return new Elysia({ name: "lookup-records" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .get(
      "/api/v1/lookups",
      ({ query }) => {
        const filter = filterOf(query, ctx.config.timezone);
        return rowPage("lookups", query, ctx.store.lookups, filter, lookupView);
      },
      {
        operation: adminConsoleOperations.listLookups,
        auth: { scope: "admin" },
        query: PageQuery,
        response: LookupPage,
        detail: {
          summary:
            "Who looked up what and when (the lookup records), newest first; by plate, credential, kind and time",
          description: "Records are written about once a second, so the newest second may not show yet.",
          tags: ["permits"],
        },
      },
    );
}
