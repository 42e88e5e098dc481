import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { credentialLabel } from "../../domain/credentials.ts";
import { authPlugin } from "../../platform/http/auth.ts";
import { withEtag } from "../../platform/http/conditional.ts";
import { readJsonBody } from "../../platform/http/json-body.ts";
import { PermitService } from "../admin/permits/service.ts";
import { lookupTarget, pathNumber } from "./lookup-params.ts";
import { lookupRecorder } from "./lookup-recorder.ts";
import { PermitLookups } from "./lookups.ts";
import {
  ExtendedInformationList,
  LookupParams,
  PermitEnvelope,
  PermitIdParams,
  PermitInput,
  PermitList,
  PermitListQuery,
  PermitPatch,
  ZoneParams,
  ZonePlates,
} from "./model.ts";

const JSON_HEADERS = { "content-type": "application/json" };

const id = (value: string) => pathNumber(value, "id", 1);

/** What attendants' handhelds ask: check-tickets and the zone list (scope permits:read, Bearer only). */
export function lookupRoutes(ctx: AppContext) {
  const lookups = new PermitLookups(ctx);
  const records = lookupRecorder(ctx);
  return new Elysia({ name: "permit-lookups" })
    .use(authPlugin(ctx))
    .get(
      "/api/v1/attendants/check-tickets",
      async ({ request, query, credential }) => {
        const target = lookupTarget(query, await readJsonBody(request));
        const at = ctx.now();
        let body: string;
        let results: number;
        if (target.by === "zone") ({ body, results } = lookups.byZoneJson(target.zone, at));
        else {
          const found = lookups.byPlate(target.plateNorm, at);
          body = JSON.stringify(found);
          results = found.length;
        }
        records.record({
          at,
          credential: credentialLabel(credential),
          by: target.by,
          query: target.by === "zone" ? String(target.zone) : target.plateNorm,
          results,
        });
        // Serialized here: the answer is built from typed rows, and checking it again against the
        // response schema would cost the hottest route a third of its time.
        return new Response(body, { headers: JSON_HEADERS });
      },
      {
        auth: { scope: "permits:read" },
        query: LookupParams,
        response: { 200: ExtendedInformationList },
        detail: {
          summary: "Permits for a registration number or a zone: active now, or ended recently; newest first",
          description:
            "Exactly one of registration_number or zone, in the query string or in a JSON body on the GET.",
          tags: ["permits"],
        },
      },
    )
    .get(
      "/api/v1/tickets/zone/:zone",
      ({ params, request, credential }) => {
        const at = ctx.now();
        const zone = pathNumber(params.zone, "zone", 0);
        const { body, results, etag } = lookups.activePlatesJson(zone, at);
        records.record({
          at,
          credential: credentialLabel(credential),
          by: "zone_list",
          query: String(zone),
          results,
        });
        return withEtag(request, etag, body);
      },
      {
        auth: { scope: "permits:read" },
        params: ZoneParams,
        detail: {
          summary: "Registration numbers with an active permit in the zone (ETag, If-None-Match → 304)",
          tags: ["permits"],
          responses: {
            200: {
              description: "Each plate once, sorted",
              content: { "application/json": { schema: ZonePlates } },
            },
            304: { description: "Unchanged since the ETag sent in If-None-Match" },
          },
        },
      },
    );
}

/** Operator-issued permits (scope admin). Unknown fields in writes are refused. */
export function permitAdminRoutes(ctx: AppContext) {
  const service = new PermitService(ctx);
  const tags = ["permits"];
  return new Elysia({ name: "permit-admin" })
    .use(authPlugin(ctx))
    .post(
      "/api/v1/permits",
      ({ body, credential, set }) => {
        const permit = service.create(body, credentialLabel(credential));
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
    .get("/api/v1/permits", ({ query }) => ({ data: service.list(query) }), {
      auth: { scope: "admin" },
      query: PermitListQuery,
      response: PermitList,
      detail: { summary: "Operator-issued permits, by id; filter by registration_number or zone", tags },
    })
    .get("/api/v1/permits/:id", ({ params }) => ({ data: service.get(id(params.id)) }), {
      auth: { scope: "admin" },
      params: PermitIdParams,
      response: PermitEnvelope,
      detail: { summary: "One permit", tags },
    })
    .put("/api/v1/permits/:id", ({ params, body }) => ({ data: service.replace(id(params.id), body) }), {
      auth: { scope: "admin", strictBody: PermitInput },
      params: PermitIdParams,
      body: PermitInput,
      response: PermitEnvelope,
      detail: { summary: "Replace a permit (fields left out take their defaults)", tags },
    })
    .patch("/api/v1/permits/:id", ({ params, body }) => ({ data: service.update(id(params.id), body) }), {
      auth: { scope: "admin", strictBody: PermitPatch },
      params: PermitIdParams,
      body: PermitPatch,
      response: PermitEnvelope,
      detail: { summary: "Change some fields of a permit", tags },
    })
    .delete(
      "/api/v1/permits/:id",
      ({ params, set }) => {
        service.remove(id(params.id));
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

export function permitRoutes(ctx: AppContext) {
  return new Elysia({ name: "permits" }).use(lookupRoutes(ctx)).use(permitAdminRoutes(ctx));
}
