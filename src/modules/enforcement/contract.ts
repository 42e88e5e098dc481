import { t } from "elysia";
import { type ApiContract, IF_NONE_MATCH, NOT_MODIFIED } from "../../platform/http/api-contract.ts";
import { ExtendedInformation, ZonePlates } from "./model.ts";

/** What the OpenAPI document says of the attendants' lookups (see src/platform/http/api-contract.ts). */
export const enforcementContract: ApiContract = {
  named: {
    ExtendedInformation: {
      schema: ExtendedInformation,
      example: {
        registration_number: "ABC123",
        zone: 1234,
        active: true,
        start_at: "2026-06-15T08:00:00.000000Z",
        end_at: "2026-06-15T10:00:00.000000Z",
        note: "",
      },
    },
    ZonePlates: { schema: ZonePlates, example: { data: ["ABC123", "XYZ789"] } },
    CheckTicketsBody: {
      schema: t.Object({
        registration_number: t.Optional(
          t.String({ description: "Registration number (any spacing or case)" }),
        ),
        zone: t.Optional(
          t.Union([t.Integer({ minimum: 0 }), t.String({ pattern: "^[0-9]+$" })], {
            description: "Zone number, as a number or a string of digits",
          }),
        ),
      }),
      example: { zone: "1234" },
    },
  },
  problems: {
    "lookup-parameters": {
      status: 400,
      title: "Exactly one of registration_number or zone",
      detail: "Give registration_number or zone, in the query string or in a JSON body",
    },
    "bad-request": {
      status: 400,
      title: "Bad request",
      detail: "zone is given in both the query string and the body, with different values",
    },
  },
  operations: {
    "GET /api/v1/attendants/check-tickets": {
      tag: "attendant lookups",
      // The GET may carry a JSON body, read like any other.
      problems: {
        400: ["lookup-parameters", "bad-request", "malformed-json", "invalid-encoding"],
        415: ["unsupported-media-type"],
      },
      description:
        'Exactly one of `registration_number` or `zone`, in the query string or, as the interface shows, in a JSON body on the GET (`curl -X GET ... -d \'{"zone":"1234"}\'`). Lists what is active now and what ended within the site\'s recent-hours window, newest first.',
      requestBody: {
        required: false,
        description: "The same parameters as a JSON body (the query string is the alternative).",
        content: { "application/json": { schema: { $ref: "#/components/schemas/CheckTicketsBody" } } },
      },
    },
    "GET /api/v1/tickets/zone/:zone": {
      tag: "attendant lookups",
      ok: {
        200: { description: "Each plate once, sorted", schema: "ZonePlates", headers: ["ETag"] },
        304: NOT_MODIFIED,
      },
      headers: IF_NONE_MATCH,
    },
  },
};
