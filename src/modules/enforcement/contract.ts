import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { ZONE_DIGITS, ZONE_MAX } from "../../domain/zones.ts";
import {
  type ApiContract,
  IF_NONE_MATCH,
  NOT_MODIFIED,
  type OperationContract,
} from "../../platform/http/api-contract.ts";
import {
  ExtendedInformation,
  KnownZones,
  PlateChecks,
  Verdict,
  ZonePermitChanges,
  ZonePermits,
  ZonePlates,
} from "./model.ts";
import { verdictExamples } from "./verdict-examples.ts";

const CheckPlate = t.String({
  minLength: 1,
  description: "Registration number (any spacing or case)",
  examples: ["ABC123"],
});
const CheckZone = t.Union(
  [Type.Integer({ minimum: 0, maximum: ZONE_MAX }), t.String({ pattern: ZONE_DIGITS })],
  { description: "Zone number, as a number or a string of digits", examples: ["1234"] },
);

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
    ZonePermits: {
      schema: ZonePermits,
      example: {
        zone: 1002,
        taken_at: "2026-06-15T10:42:00.000000Z",
        timezone: "Europe/Stockholm",
        grace_minutes: 10,
        recent_hours: 24,
        plates: ["ABC123"],
        permits: [
          {
            kind: "ticket",
            id: "4711",
            registration_number: "ABC 123",
            plate_norm: "ABC123",
            zone: 1002,
            start_at: "2026-06-15T08:00:00.000000Z",
            end_at: "2026-06-15T12:00:00.000000Z",
            ticket_status: "running",
            parking_lot_id: 7,
            lot_name: "Central",
            note: "",
            windows: null,
          },
          {
            kind: "permit",
            id: "12",
            registration_number: "ABC123",
            plate_norm: "ABC123",
            zone: 1001,
            start_at: "2026-01-01T00:00:00.000000Z",
            end_at: null,
            ticket_status: null,
            parking_lot_id: null,
            lot_name: null,
            note: "resident",
            windows: [{ weekday: 1, start_time: "18:00:00", end_time: "08:00:00" }],
          },
        ],
        observations: [
          {
            registration_number: "ABC 123",
            plate_norm: "ABC123",
            zone: 1002,
            first_seen_at: "2026-06-15T08:02:00.000000Z",
            limit_seconds: 7200,
            note: "valves 2 and 7",
          },
        ],
      },
    },
    ZonePermitChanges: {
      schema: ZonePermitChanges,
      example: {
        zone: 1002,
        since: '"1x9k2m"',
        taken_at: "2026-06-15T10:43:00.000000Z",
        timezone: "Europe/Stockholm",
        grace_minutes: 10,
        recent_hours: 24,
        removed: ["XYZ789"],
        plates: ["ABC124"],
        permits: [
          {
            kind: "ticket",
            id: "4712",
            registration_number: "ABC 124",
            plate_norm: "ABC124",
            zone: 1002,
            start_at: "2026-06-15T10:42:30.000000Z",
            end_at: "2026-06-15T11:42:30.000000Z",
            ticket_status: "running",
            parking_lot_id: 7,
            lot_name: "Central",
            note: "",
            windows: null,
          },
        ],
        observations: [],
      },
    },
    SavedListAnswer: {
      schema: t.Union([ZonePermits, ZonePermitChanges], {
        description:
          "The whole saved list, or (with `since`, when the box still knows that version) the changes from it: the latter has `since`",
      }),
    },
    PlateChecks: {
      schema: PlateChecks,
      example: {
        data: [
          {
            at: "2026-06-15T10:42:00.000000Z",
            zone: 1002,
            credential: "token:handheld-2",
            verdict: "none",
            offline: false,
          },
          {
            at: "2026-06-15T08:05:00.000000Z",
            zone: 1002,
            credential: "token:handheld-1",
            verdict: "valid_here",
            offline: true,
          },
          {
            at: "2026-06-15T07:58:00.000000Z",
            zone: null,
            credential: "token:handheld-1",
            verdict: null,
            offline: false,
          },
        ],
      },
    },
    KnownZones: {
      schema: KnownZones,
      example: {
        data: [
          {
            zone: 1001,
            lots: [{ id: 7, name: "Central", locations: [{ latitude: 59.3293, longitude: 18.0686 }] }],
            recent: true,
            time_limit_seconds: 7200,
          },
          { zone: 1002, lots: [], recent: true, time_limit_seconds: null },
        ],
        complete: true,
      },
    },
    CheckTicketsBody: {
      // Exactly one of the two: a JSON body with both, or with neither, is refused (400).
      schema: t.Unsafe({
        description:
          "The body form of check-tickets (the interface's own example sends it on the GET): exactly one of registration_number or zone",
        oneOf: [
          t.Object({ registration_number: CheckPlate }, { additionalProperties: true }),
          t.Object({ zone: CheckZone }, { additionalProperties: true }),
        ].map((branch, i) => ({
          ...branch,
          not: { required: [i === 0 ? "zone" : "registration_number"] },
        })),
      }),
      example: { zone: "1234" },
    },
  },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const enforcementOperations = {
  checkTickets: {
    operationId: "checkTickets",
    problems: [
      "malformed-json",
      "invalid-encoding",
      "unsupported-media-type",
      "lookup-parameters",
      "bad-request",
    ],
    tag: "attendant lookups",
    // The GET may carry a JSON body, read like any other.
    description:
      "Exactly one of `registration_number` or `zone` in the query string (both, or neither: 400 lookup-parameters). The interface's own example sends the same parameters as a JSON body on the GET (`curl -X GET ... -d '{\"zone\":\"1234\"}'`, the `CheckTicketsBody` schema); the box reads that too, but fetch and most HTTP clients cannot send a body on a GET, so the query string is the form to generate. Lists what is active now and what ended within the site's recent-hours window, newest first.",
  },
  getVerdict: {
    operationId: "getVerdict",
    tag: "attendant lookups",
    description:
      "Beside check-tickets (which stays as the interface has it): the answer for one car where the attendant stands. `state` is one of `valid_here`, `grace` (a permit for this zone ended less than `--grace-minutes` ago; 0 turns it off), `over_time_limit` (the car was marked in this zone today, `POST /api/v1/attendants/observations`, and has stood there longer than the zone's time limit since; `observation` says when it was first seen and the limit), `valid_elsewhere` (`zones` lists where), `outside_hours` (a permit for this zone with weekly windows, none open now; `next_opening`) or `none`, in that order of precedence. `valid_until` is the end of the unbroken stretch of validity that holds now: a weekly window's end, joined with any permit that follows without a gap, not just a permit's end date. `permits` lists the tickets and permits behind it, each with its own state and fields (ticket status, lot, note, windows) for the handheld to word in its own language. `observation` is the car's mark in this zone today, under the limit or over it, whatever the state. Recorded like a lookup (`by: verdict`, query `PLATE@ZONE`).",
    ok: {
      200: {
        description: "The verdict",
        schema: "Verdict",
        examples: verdictExamples,
      },
    },
  },
  listPlateChecks: {
    operationId: "listPlateChecks",
    problems: ["bad-request"],
    tag: "attendant lookups",
    description:
      "The car's checks today (since midnight, site time) at this site, newest first, from the lookup records: each verdict with its zone and state, and each check-tickets by plate. What a handheld shows beside a verdict, so an attendant can tell a returning car from a new one. Any `permits:read` credential may read any plate's checks; each read is itself recorded as a lookup of the car (`by: checks`), so the audit shows who read a car's history, and it is never listed among the car's own checks.",
    ok: { 200: { description: "Today's checks of the plate", schema: "PlateChecks" } },
  },
  listKnownZones: {
    operationId: "listKnownZones",
    tag: "attendant lookups",
    description:
      "The zones a handheld offers in its zone field: every lot's zone (with the lots' names and map points, so the phone can order them by distance) and every zone with a ticket or permit that ended within the last 30 days or runs on. A zone that is none of these is likely a typo: the handheld asks before judging a car there.",
    ok: { 200: { description: "The site's zones", schema: "KnownZones" } },
  },
  getZonePermits: {
    operationId: "getZonePermits",
    tag: "attendant lookups",
    description:
      "What a handheld keeps to answer as the verdict does when the box does not answer: the zone's plates (a ticket or permit in the zone ended within the verdict's look-back, runs, or starts within a day) and each such plate's tickets and permits in every zone, and the cars marked in the zone this day (their plates are among the zone's plates), with the site's time zone, grace and recent hours. The handheld judges with the same function the box runs for `/api/v1/attendants/verdict`. Recorded like a zone list. One version is made per change of the zone (at most once a minute without one) and sent to every handheld from the same bytes; `taken_at` is when it was made. With `?since=ETAG` (the version the handheld holds) the answer is, while the box still knows that version, only the changes from it (`ZonePermitChanges`: the plates removed, and each plate added or changed with its whole part), which the handheld applies with the same code the box tests them with (`src/domain/permits/saved-list-changes.ts`); else the whole list.",
    ok: {
      200: {
        description: "The zone's saved list, or the changes from the version named by `since`",
        schema: "SavedListAnswer",
        headers: ["ETag"],
      },
      304: NOT_MODIFIED,
    },
    headers: IF_NONE_MATCH,
  },
  getZonePlates: {
    operationId: "getZonePlates",
    tag: "attendant lookups",
    ok: {
      200: { description: "Each plate once, sorted", schema: "ZonePlates", headers: ["ETag"] },
      304: NOT_MODIFIED,
    },
    headers: IF_NONE_MATCH,
  },
} satisfies Record<string, OperationContract>;
