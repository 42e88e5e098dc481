import { Elysia } from "elysia";
import { credentialLabel } from "../../domain/credentials.ts";
import { ZONE_MAX } from "../../domain/zones.ts";
import { authPlugin } from "../../platform/http/auth.ts";
import { ETAGGED_JSON, etagHeaders, withEtag } from "../../platform/http/conditional.ts";
import { directAnswer } from "../../platform/http/direct.ts";
import { readJsonBody } from "../../platform/http/request-body.ts";
import { routeDeclaration } from "../../platform/http/route-declaration.ts";
import { bodyResponse } from "../../platform/http/shared-body.ts";
import { pathNumber } from "../../platform/http/validation.ts";
import { enforcementOperations } from "./contract.ts";
import { checksTarget, lookupTarget, verdictTarget } from "./lookup-params.ts";
import {
  ChecksParams,
  ExtendedInformationList,
  KnownZones,
  LookupParams,
  PlateChecks,
  SavedListParams,
  Verdict,
  VerdictParams,
  ZoneParams,
  ZonePlates,
} from "./model.ts";
import type { EnforcementContext } from "./module-context.ts";
import type { Enforcement } from "./service.ts";

const JSON_HEADERS = { "content-type": "application/json" };
const CHECK_TICKETS = "/api/v1/attendants/check-tickets";
const ZONE_LIST = "/api/v1/tickets/zone/:zone";
const PERMITS_READ = { scope: "permits:read" } as const;

/** What attendants' handhelds ask: check-tickets and the zone list (scope permits:read, Bearer only). */
export function enforcementRoutes(ctx: EnforcementContext, enforcement: Enforcement) {
  return new Elysia({ name: "enforcement" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .get(
      CHECK_TICKETS,
      async ({ request, query, credential }) => {
        const target = lookupTarget(query, await readJsonBody(request));
        const { body } = enforcement.checkTickets(target, credentialLabel(credential));
        // A busy zone's answer is kept as its bytes: every connection is written from them.
        return bodyResponse(body, JSON_HEADERS);
      },
      {
        operation: enforcementOperations.checkTickets,
        auth: PERMITS_READ,
        query: LookupParams,
        // The plain case (a valid token, the target in a plain query string) is answered by the
        // front end itself: the same target, the same answer and lookup record as the handler.
        direct: directAnswer({
          read: (query) => lookupTarget(query, undefined),
          answer: (target, credential) => ({
            contentType: JSON_HEADERS["content-type"],
            body: enforcement.checkTickets(target, credentialLabel(credential!)).body,
          }),
        }),
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
      "/api/v1/attendants/verdict",
      ({ query, credential }) => {
        const { plateNorm, zone, cameraRead } = verdictTarget(query);
        return enforcement.verdict(plateNorm, zone, credentialLabel(credential), cameraRead);
      },
      {
        operation: enforcementOperations.getVerdict,
        auth: { scope: "permits:read" },
        query: VerdictParams,
        response: { 200: Verdict },
        detail: {
          summary: "May this car stand in this zone now, and until when: the verdict for a handheld",
          tags: ["permits"],
        },
      },
    )
    .get(
      "/api/v1/attendants/checks",
      ({ query, credential }) => enforcement.checksToday(checksTarget(query), credentialLabel(credential)),
      {
        operation: enforcementOperations.listPlateChecks,
        auth: { scope: "permits:read" },
        query: ChecksParams,
        response: { 200: PlateChecks },
        detail: {
          summary: "A car's checks today at this site (verdicts and plate lookups), newest first",
          description:
            "Any permits:read credential may read any plate's checks, as it may ask any plate's verdict; each read is itself recorded in the lookup records (by: checks), so the audit shows who read a car's history and when.",
          tags: ["permits"],
        },
      },
    )
    .get("/api/v1/attendants/zones", () => enforcement.knownZones(), {
      operation: enforcementOperations.listKnownZones,
      auth: { scope: "permits:read" },
      response: { 200: KnownZones },
      detail: {
        summary: "The site's zones: lots' zones, and zones with a ticket or permit in the last 30 days",
        tags: ["permits"],
      },
    })
    .get(
      "/api/v1/tickets/zone/:zone/permits",
      ({ params, query, request, credential }) => {
        const zone = pathNumber(params.zone, "zone", 0, ZONE_MAX);
        const { body, etag } = enforcement.zonePermits(zone, credentialLabel(credential), query.since);
        return withEtag(request, etag, body);
      },
      {
        operation: enforcementOperations.getZonePermits,
        auth: { scope: "permits:read" },
        params: ZoneParams,
        query: SavedListParams,
        detail: {
          summary: "What a handheld saves to judge a zone's cars offline, as the verdict does (ETag, 304)",
          tags: ["permits"],
        },
      },
    )
    .get(
      ZONE_LIST,
      ({ params, request, credential }) => {
        const zone = pathNumber(params.zone, "zone", 0, ZONE_MAX);
        const { body, etag } = enforcement.zoneList(zone, credentialLabel(credential));
        return withEtag(request, etag, body);
      },
      {
        operation: enforcementOperations.getZonePlates,
        auth: PERMITS_READ,
        params: ZoneParams,
        // A conditional GET (the handheld's poll with its ETag) is the app's: its 304 has no body.
        direct: directAnswer({
          unless: ["if-none-match"],
          read: (_query, _body, params) => pathNumber(params.zone!, "zone", 0, ZONE_MAX),
          answer: (zone, credential) => {
            const { body, etag } = enforcement.zoneList(zone, credentialLabel(credential!));
            return { contentType: ETAGGED_JSON, body, headers: etagHeaders(etag) };
          },
        }),
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
