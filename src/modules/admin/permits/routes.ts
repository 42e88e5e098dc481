import { Elysia } from "elysia";
import { actorOf } from "../../../platform/http/actor.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
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

const ifMatch = (request: Request) => request.headers.get("if-match");

/** A permit with the ETag of its stored version (for If-Match on the next write). */
function versioned(set: { headers: Record<string, unknown> }, v: Versioned) {
  set.headers.etag = v.etag;
  return { data: v.permit };
}

/** Operator-issued permits (scope admin). Unknown fields in writes are refused. */
export function permitAdminRoutes(ctx: AdminDeps) {
  const service = new PermitService(ctx);
  const tags = ["permits"];
  return new Elysia({ name: "permit-admin" })
    .use(authPlugin(ctx.auth))
    .post(
      "/api/v1/permits",
      ({ body, credential, set, request }) => {
        const permit = service.create(body, actorOf(credential, request));
        set.status = 201;
        set.headers.location = `/api/v1/permits/${permit.id}`;
        return { data: permit };
      },
      {
        auth: { scope: "admin", strictBody: PermitInput },
        body: PermitInput,
        response: { 201: PermitEnvelope },
        detail: { summary: "Issue a permit", tags },
      },
    )
    .get("/api/v1/permits", ({ query }) => service.list(query), {
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
    .get("/api/v1/permits/:id", ({ params, set }) => versioned(set, service.get(params.id)), {
      auth: { scope: "admin" },
      params: PermitIdParams,
      response: PermitEnvelope,
      detail: { summary: "One permit", tags },
    })
    .put(
      "/api/v1/permits/:id",
      ({ credential, params, body, request, set }) =>
        versioned(set, service.replace(params.id, body, actorOf(credential, request), ifMatch(request))),
      {
        auth: { scope: "admin", strictBody: PermitInput },
        params: PermitIdParams,
        body: PermitInput,
        response: PermitEnvelope,
        detail: { summary: "Replace a permit (fields left out take their defaults)", tags },
      },
    )
    .patch(
      "/api/v1/permits/:id",
      ({ credential, params, body, request, set }) =>
        versioned(set, service.update(params.id, body, actorOf(credential, request), ifMatch(request))),
      {
        auth: { scope: "admin", strictBody: PermitPatch },
        params: PermitIdParams,
        body: PermitPatch,
        response: PermitEnvelope,
        detail: { summary: "Change some fields of a permit", tags },
      },
    )
    .delete(
      "/api/v1/permits/:id",
      ({ credential, params, request, set }) => {
        service.remove(params.id, actorOf(credential, request), ifMatch(request));
        set.status = 204;
        return null;
      },
      {
        auth: { scope: "admin" },
        params: PermitIdParams,
        detail: { summary: "Delete a permit (to end it early, set end_at instead)", tags },
      },
    );
}
