import { Elysia } from "elysia";
import type { ParkingLot } from "../../../domain/lots/lot.ts";
import { ParkingLotInput, ParkingLotPatch } from "../../../domain/lots/schema.ts";
import { actorOf } from "../../../platform/http/actor.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import { routeDeclaration } from "../../../platform/http/route-declaration.ts";
import { created, ifMatch, versioned } from "../answers.ts";
import { adminOperations } from "../contract.ts";
import type { AdminDeps } from "../deps.ts";
import { importRefusal } from "./import.ts";
import { ImportAnswer, ImportFile, ImportQuery, LotId } from "./model.ts";
import { LotCatalog } from "./service.ts";

const TAGS = ["parking lots"];

/** A written lot with the ETag its GET now answers. */
const stored = (set: { headers: Record<string, unknown> }, lot: ParkingLot) =>
  versioned(set, LotCatalog.etag(lot), lot);

/** A write to one lot, its fields checked strictly. */
const byId = <B extends typeof ParkingLotInput | typeof ParkingLotPatch>(body: B, summary: string) => ({
  auth: { scope: "admin" as const, strictBody: body },
  params: LotId,
  body,
  detail: { summary, tags: TAGS },
});

/** The operators' writes to parking lots (scope admin); the reads and quotes are the public module's. */
export function lotRoutes(ctx: AdminDeps) {
  const catalog = new LotCatalog(ctx.store, ctx.now);
  return new Elysia({ name: "lots" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .post(
      "/api/v1/parkings",
      ({ credential, body, set, request }) => {
        const lot = catalog.create(body, actorOf(credential, request));
        return created(set, `/api/v1/parkings/${lot.id}`, lot);
      },
      {
        operation: adminOperations.createParkingLot,
        auth: { scope: "admin", strictBody: ParkingLotInput },
        body: ParkingLotInput,
        detail: { summary: "Create a parking lot (admin)", tags: TAGS },
      },
    )
    .post(
      "/api/v1/parkings/import",
      ({ credential, body, query, request }) => {
        const report = catalog.importFile(body, actorOf(credential, request), query.dry_run === true);
        // A body that is no lot file is refused, dry run or not (what a client may send is a
        // LotFile); on a dry run refused lots are what the report is for.
        if (report.file_errors.length > 0 || (!report.dry_run && !report.applied))
          throw importRefusal(report);
        return { data: report };
      },
      {
        operation: adminOperations.importParkingLots,
        auth: { scope: "admin" },
        query: ImportQuery,
        body: ImportFile,
        response: ImportAnswer,
        detail: {
          summary:
            "Create or replace lots from an export file, all or nothing; ?dry_run=true reports what would change (admin)",
          tags: TAGS,
        },
      },
    )
    .put(
      "/api/v1/parkings/:id",
      ({ credential, params, body, request, set }) =>
        stored(set, catalog.replace(params.id, body, actorOf(credential, request), ifMatch(request))),
      {
        ...byId(ParkingLotInput, "Replace a parking lot (admin)"),
        operation: adminOperations.replaceParkingLot,
      },
    )
    .patch(
      "/api/v1/parkings/:id",
      ({ credential, params, body, request, set }) =>
        stored(set, catalog.patch(params.id, body, actorOf(credential, request), ifMatch(request))),
      {
        ...byId(ParkingLotPatch, "Change some fields of a parking lot (admin); arrays are replaced whole"),
        operation: adminOperations.updateParkingLot,
      },
    )
    .delete(
      "/api/v1/parkings/:id",
      ({ credential, params, request }) => {
        catalog.remove(params.id, actorOf(credential, request), ifMatch(request));
        return new Response(null, { status: 204 });
      },
      {
        operation: adminOperations.deleteParkingLot,
        auth: { scope: "admin" },
        params: LotId,
        detail: { summary: "Delete a parking lot (admin)", tags: TAGS },
      },
    );
}
