import { Elysia } from "elysia";
import { actorOf } from "../../../platform/http/actor.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import { routeDeclaration } from "../../../platform/http/route-declaration.ts";
import { created, ifMatch, versioned } from "../answers.ts";
import { adminOperations } from "../contract.ts";
import type { AdminDeps } from "../deps.ts";
import {
  PermitEnvelope,
  PermitIdParams,
  PermitInput,
  PermitList,
  PermitListQuery,
  PermitPatch,
} from "./model.ts";
import { PermitService, type Versioned } from "./service.ts";

/** A permit with the ETag of its stored version. */
const stored = (set: { headers: Record<string, unknown> }, v: Versioned) => versioned(set, v.etag, v.permit);

/** Operator-issued permits (scope admin). Unknown fields in writes are refused. */
export function permitAdminRoutes(ctx: AdminDeps) {
  const service = new PermitService(ctx);
  const tags = ["permits"];
  /** A write to one permit, its fields checked strictly, answered with the permit as stored. */
  const byId = <B extends typeof PermitInput | typeof PermitPatch>(body: B, summary: string) => ({
    auth: { scope: "admin" as const, strictBody: body },
    params: PermitIdParams,
    body,
    response: PermitEnvelope,
    detail: { summary, tags },
  });
  return new Elysia({ name: "permit-admin" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .post(
      "/api/v1/permits",
      ({ body, credential, set, request }) => {
        const permit = service.create(body, actorOf(credential, request));
        return created(set, `/api/v1/permits/${permit.id}`, permit);
      },
      {
        operation: adminOperations.createPermit,
        auth: { scope: "admin", strictBody: PermitInput },
        body: PermitInput,
        response: { 201: PermitEnvelope },
        detail: { summary: "Issue a permit", tags },
      },
    )
    .get("/api/v1/permits", ({ query }) => service.list(query), {
      operation: adminOperations.listPermits,
      auth: { scope: "admin" },
      query: PermitListQuery,
      response: PermitList,
      detail: {
        summary:
          "Operator-issued permits, by id unless sorted otherwise; filter by registration_number or zone",
        description:
          "sort names a column, descending with a leading '-'; zone sorts a zone's permits by end; open-ended permits sort first ascending by end, last descending. All permits at once unless limit is given; then a page at a time, next_cursor continuing the same sort.",
        tags,
      },
    })
    .get("/api/v1/permits/:id", ({ params, set }) => stored(set, service.get(params.id)), {
      operation: adminOperations.getPermit,
      auth: { scope: "admin" },
      params: PermitIdParams,
      response: PermitEnvelope,
      detail: { summary: "One permit", tags },
    })
    .put(
      "/api/v1/permits/:id",
      ({ credential, params, body, request, set }) =>
        stored(set, service.replace(params.id, body, actorOf(credential, request), ifMatch(request))),
      {
        ...byId(PermitInput, "Replace a permit (fields left out take their defaults)"),
        operation: adminOperations.replacePermit,
      },
    )
    .patch(
      "/api/v1/permits/:id",
      ({ credential, params, body, request, set }) =>
        stored(set, service.update(params.id, body, actorOf(credential, request), ifMatch(request))),
      { ...byId(PermitPatch, "Change some fields of a permit"), operation: adminOperations.updatePermit },
    )
    .delete(
      "/api/v1/permits/:id",
      ({ credential, params, request, set }) => {
        service.remove(params.id, actorOf(credential, request), ifMatch(request));
        set.status = 204;
        return null;
      },
      {
        operation: adminOperations.deletePermit,
        auth: { scope: "admin" },
        params: PermitIdParams,
        detail: { summary: "Delete a permit (to end it early, set end_at instead)", tags },
      },
    );
}
