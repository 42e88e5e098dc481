import { t } from "elysia";
import {
  type ApiContract,
  IF_NONE_MATCH,
  NOT_MODIFIED,
  problemInfos,
} from "../../platform/http/api-contract.ts";
import { ExtendedInformation, Verdict, ZonePlates } from "./model.ts";
import { ENFORCEMENT_REFUSALS } from "./refusals.ts";
import { verdictExamples } from "./verdict-examples.ts";

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
    Verdict: { schema: Verdict, example: verdictExamples.valid_elsewhere.value },
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
  problems: problemInfos(ENFORCEMENT_REFUSALS),
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
    "GET /api/v1/attendants/verdict": {
      tag: "attendant lookups",
      description:
        "Beside check-tickets (which stays as the interface has it): the answer for one car where the attendant stands. `state` is one of `valid_here`, `grace` (a permit for this zone ended less than `--grace-minutes` ago; 0 turns it off), `valid_elsewhere` (`zones` lists where), `outside_hours` (a permit for this zone with weekly windows, none open now; `next_opening`) or `none`, in that order of precedence. `valid_until` is the end of the unbroken stretch of validity that holds now: a weekly window's end, joined with any permit that follows without a gap, not just a permit's end date. `permits` lists the tickets and permits behind it, each with its own state and fields (ticket status, lot, note, windows) for the handheld to word in its own language. Recorded like a lookup (`by: verdict`, query `PLATE@ZONE`).",
      ok: {
        200: {
          description: "The verdict",
          schema: "Verdict",
          examples: verdictExamples,
        },
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
