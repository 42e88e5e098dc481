import { Type } from "@sinclair/typebox";
import { type Static, t } from "elysia";
import { PATROL_PAST_MS, PATROL_REASONS, PATROL_SOON_MS } from "../../domain/permits/patrol.ts";
import { ZONE_MAX } from "../../domain/zones.ts";
import { integerText } from "../../platform/http/validation.ts";

/**
 * check-tickets parameters as the query string carries them. A JSON body on the GET may carry the
 * same two, with the zone as a number or a string of digits (the interface's example sends
 * `"1234"`); both forms are read by lookupTarget, which gives the precise errors.
 */
export const LookupParams = t.Object({
  registration_number: t.Optional(
    t.String({ description: "Registration number, matched after normalization" }),
  ),
  zone: t.Optional(t.String({ description: "Zone number (digits)", ...integerText(0, ZONE_MAX) })),
});

export const ExtendedInformation = t.Object({
  registration_number: t.String({ description: "The plate as it was sent" }),
  zone: Type.Integer(),
  active: t.Boolean({ description: "Active at the time of the request" }),
  start_at: t.String({
    format: "date-time",
    description: "UTC, six fractional digits, e.g. 2026-06-15T08:00:00.000000Z",
  }),
  end_at: t.Union([t.String({ format: "date-time" }), t.Null()], { description: "null: open-ended" }),
  note: t.String(),
});
export type ExtendedInformation = Static<typeof ExtendedInformation>;

export const ExtendedInformationList = t.Array(ExtendedInformation);

/** Path numbers are read by pathNumber (clear messages); the schema documents them. */
export const ZoneParams = t.Object({
  zone: t.String({ description: "Zone number", ...integerText(0, ZONE_MAX) }),
});

export const FeedQuery = t.Object({
  changes: t.Optional(
    t.Union([t.Literal("1"), t.Literal("true")], {
      description:
        'After the first list, send only what changed: `event: changes`, `data: {"from": "<previous id>", "added": [...], "removed": [...]}`',
    }),
  ),
});

export const ZonePlates = t.Object({
  data: t.Array(t.String(), { description: "Registration numbers with an active permit, each once, sorted" }),
});

export const VerdictParams = t.Object({
  registration_number: t.String({ description: "Registration number, matched after normalization" }),
  zone: t.String({ description: "The zone the attendant stands in (digits)", ...integerText(0, ZONE_MAX) }),
  camera_read: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 32,
      description:
        "The plate as the handheld's camera read it, when the camera filled the plate field (the attendant may have corrected it since): kept in the lookup record, so the audit shows reads taken as read and reads corrected. Left out when the plate was typed",
    }),
  ),
});

const instant = () => t.String({ format: "date-time" });
const instantOrNull = (description: string) => t.Union([instant(), t.Null()], { description });
const windowsOrNull = t.Union(
  [t.Array(t.Object({ weekday: Type.Integer(), start_time: t.String(), end_time: t.String() })), t.Null()],
  { description: "A permit's weekly windows in the site time zone; null: at all hours" },
);

export const VerdictPermit = t.Object({
  kind: t.UnionEnum(["ticket", "permit"], { description: "A terminal's ticket, or an operator's permit" }),
  id: t.String({ description: "The ticket id, or the permit id (office permits: `o` and the office's id)" }),
  registration_number: t.String({ description: "The plate as it was sent" }),
  zone: Type.Integer(),
  state: t.UnionEnum(["valid", "grace", "outside_hours", "ended", "upcoming"], {
    description:
      "valid now; ended less than the grace period ago; in its period but outside its weekly windows; ended; not started",
  }),
  start_at: instant(),
  end_at: instantOrNull("The end of its period; null: open-ended"),
  valid_until: instantOrNull(
    "valid: until when without a break (a weekly window's end counts); null: open-ended",
  ),
  ended_at: instantOrNull("grace: when it stopped being valid"),
  next_opening: instantOrNull("outside_hours, upcoming: when it is next valid; null: not again"),
  ticket_status: t.Union([t.UnionEnum(["running", "stopped"]), t.Null()], { description: "Tickets only" }),
  parking_lot_id: t.Union([Type.Integer(), t.Null()]),
  lot_name: t.Union([t.String(), t.Null()]),
  note: t.String({ description: "The operator's note on a permit, as typed; empty for tickets" }),
  windows: windowsOrNull,
});

/** The verdict's states, in their order of precedence. */
export const VERDICT_STATES = [
  "valid_here",
  "grace",
  "over_time_limit",
  "valid_elsewhere",
  "outside_hours",
  "none",
] as const;

export const VerdictObservation = t.Object({
  first_seen_at: t.String({ description: "When the car was marked in this zone today" }),
  limit_seconds: Type.Integer({ description: "The zone's time limit when it was marked" }),
  over_limit_at: t.String({ description: "From when it is over the limit" }),
  seen_seconds_ago: Type.Integer({ description: "Whole seconds between the mark and the instant judged" }),
  note: t.String({ description: "What the attendant noted (valve positions)" }),
});

export const VerdictPatrol = t.Object({
  reason: t.UnionEnum(PATROL_REASONS, {
    description: `Most urgent first: over_limit (marked here, past the zone's limit, nothing valid here); grace_over (its ticket or permit here ended, and the grace after it, less than ${PATROL_PAST_MS / 60_000} min ago); outside_hours (a permit for this zone outside its weekly hours); in_grace; limit_soon (marked, passes the limit within ${PATROL_SOON_MS / 60_000} min); ending_soon (valid here until an instant within ${PATROL_SOON_MS / 60_000} min)`,
  }),
  at: instantOrNull(
    "over_limit, limit_soon: when the limit is passed; grace_over, in_grace: when the grace ends; outside_hours: the next opening (null: none); ending_soon: when it stops being valid here",
  ),
});

export const Verdict = t.Object({
  registration_number: t.String({ description: "The plate asked for, normalized" }),
  zone: Type.Integer({ description: "The zone asked for" }),
  state: t.UnionEnum(VERDICT_STATES, {
    description:
      "In this order of precedence: valid in this zone; a permit for this zone ended less than grace_minutes ago; marked in this zone today and there longer than its time limit (`observation`); valid only in other zones (`zones`); a permit for this zone outside its weekly hours (`next_opening`); nothing",
  }),
  checked_at: t.String({ description: "The instant judged" }),
  valid_until: instantOrNull(
    "valid_here: until when, without a break, over every permit for this zone; valid_elsewhere: the latest of those zones; grace: when the grace ends; null otherwise or open-ended",
  ),
  ended_at: instantOrNull("grace: when the permit for this zone stopped being valid"),
  next_opening: instantOrNull("outside_hours: the earliest next opening of a permit for this zone"),
  zones: t.Array(Type.Integer(), { description: "valid_elsewhere: the zones where it is valid now" }),
  grace_minutes: Type.Integer({ description: "The site's grace period (serve --grace-minutes; 0: off)" }),
  permits: t.Array(VerdictPermit, { description: "The tickets and permits behind it, latest start first" }),
  observation: t.Union([VerdictObservation, t.Null()], {
    description:
      "The car's observation in this zone today (a mark), whatever the state; null: not marked here today",
  }),
  patrol: t.Union([VerdictPatrol, t.Null()], {
    description:
      "Why the car is on the zone's patrol list at the instant judged; null: nothing about it needs the attendant",
  }),
});
export type Verdict = Static<typeof Verdict>;

export const ZonePermit = t.Object({
  kind: t.UnionEnum(["ticket", "permit"]),
  id: t.String({ description: "The ticket id, or the permit id (office permits: `o` and the office's id)" }),
  registration_number: t.String({ description: "The plate as it was sent" }),
  plate_norm: t.String({ description: "The plate as lookups match it (normalized)" }),
  zone: Type.Integer({ description: "The zone it is for (a plate's permits in other zones are listed too)" }),
  start_at: instant(),
  end_at: instantOrNull("Where it stops counting (a stopped ticket: its stop); null: open-ended"),
  ticket_status: t.Union([t.UnionEnum(["running", "stopped"]), t.Null()], { description: "Tickets only" }),
  parking_lot_id: t.Union([Type.Integer(), t.Null()]),
  lot_name: t.Union([t.String(), t.Null()]),
  note: t.String(),
  windows: windowsOrNull,
});

export const ZoneObservation = t.Object({
  registration_number: t.String({ description: "The plate as it was marked" }),
  plate_norm: t.String({ description: "The plate as lookups match it (normalized)" }),
  zone: Type.Integer(),
  first_seen_at: t.String(),
  limit_seconds: Type.Integer({ description: "The zone's time limit when it was marked" }),
  note: t.String(),
});

export const ZonePermits = t.Object({
  zone: Type.Integer(),
  taken_at: t.String({ description: "The instant the list was taken" }),
  timezone: t.String({ description: "The site time zone (IANA), in which weekly windows are read" }),
  grace_minutes: Type.Integer({ description: "The site's grace period (0: off)" }),
  recent_hours: Type.Integer({ description: "How far back lookups list ended permits" }),
  plates: t.Array(t.String(), {
    description:
      "The plates (normalized) with a ticket or permit in this zone, or marked in it on the list's day, that the list answers for",
  }),
  permits: t.Array(ZonePermit, {
    description:
      "Every ticket and permit of those plates, in any zone, that ended within the verdict's look-back, runs, or starts within a day",
  }),
  observations: t.Array(ZoneObservation, {
    description: "The cars marked in this zone on the list's day (their plates are among `plates`)",
  }),
});
export type ZonePermits = Static<typeof ZonePermits>;

export const ZonePermitChanges = t.Object({
  zone: Type.Integer(),
  since: t.String({
    description: "The ETag of the version these changes start from (the one the handheld holds)",
  }),
  taken_at: t.String({ description: "The instant the new version was made" }),
  timezone: t.String({ description: "The site time zone (IANA), in which weekly windows are read" }),
  grace_minutes: Type.Integer({ description: "The site's grace period (0: off)" }),
  recent_hours: Type.Integer({ description: "How far back lookups list ended permits" }),
  removed: t.Array(t.String(), { description: "Plates (normalized) no longer in the list" }),
  plates: t.Array(t.String(), {
    description:
      "Plates (normalized) added or changed: each one's entries and mark below are its whole part now",
  }),
  permits: t.Array(ZonePermit, { description: "Every ticket and permit of the plates added or changed" }),
  observations: t.Array(ZoneObservation, {
    description: "The marks in this zone today of the plates added or changed",
  }),
});
export type ZonePermitChanges = Static<typeof ZonePermitChanges>;

export const SavedListParams = t.Object({
  since: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 64,
      examples: ['"1x9k2m"'],
      description:
        "The ETag of the version the handheld holds: when the box still knows it, the answer is the changes from it (ZonePermitChanges) instead of the whole list",
    }),
  ),
});

export const KnownZones = t.Object({
  data: t.Array(
    t.Object({
      zone: Type.Integer(),
      lots: t.Array(
        t.Object({
          id: Type.Integer(),
          name: t.String(),
          locations: t.Array(t.Object({ latitude: t.Number(), longitude: t.Number() })),
        }),
        { description: "The lots in this zone (empty: a zone with parking but no lot)" },
      ),
      recent: t.Boolean({ description: "A ticket or permit in this zone ended within 30 days or runs on" }),
      time_limit_seconds: t.Union([Type.Integer({ minimum: 1 }), t.Null()], {
        description:
          "How long a car may stand in this zone (the shortest max_time of its active lots that set one); null: no limit, so no car is marked here",
      }),
    }),
    { description: "By zone number" },
  ),
  complete: t.Boolean({
    description:
      "false: more than 1,000 zones had tickets or permits in the last 30 days and not all are listed, so a zone missing here is not necessarily unknown",
  }),
});
export type KnownZones = Static<typeof KnownZones>;

export const ChecksParams = t.Object({
  registration_number: t.String({ description: "Registration number, matched after normalization" }),
});

export const PlateChecks = t.Object({
  data: t.Array(
    t.Object({
      at: t.String({ description: "When (UTC, six fractional digits)" }),
      zone: t.Union([Type.Integer(), t.Null()], {
        description: "The zone of a verdict; null: a lookup by plate alone",
      }),
      credential: t.String({ description: "Who checked: the handheld's credential" }),
      verdict: t.Union([t.UnionEnum(VERDICT_STATES), t.Null()], {
        description:
          "The verdict's state; null: a lookup by plate alone, a plate not in a handheld's saved list (offline), or a verdict recorded before states were",
      }),
      offline: t.Boolean({
        description:
          "Answered by the handheld from its saved list while the box did not answer, and sent later",
      }),
    }),
    { description: "Newest first (by when the car was checked)" },
  ),
});
export type PlateChecks = Static<typeof PlateChecks>;
