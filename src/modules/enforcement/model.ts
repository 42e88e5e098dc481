import { type Static, t } from "elysia";

/**
 * check-tickets parameters as the query string carries them. A JSON body on the GET may carry the
 * same two, with the zone as a number or a string of digits (the interface's example sends
 * `"1234"`); both forms are read by lookupTarget, which gives the precise errors.
 */
export const LookupParams = t.Object({
  registration_number: t.Optional(
    t.String({ description: "Registration number, matched after normalization" }),
  ),
  zone: t.Optional(t.String({ description: "Zone number (digits)" })),
});

export const ExtendedInformation = t.Object({
  registration_number: t.String({ description: "The plate as it was sent" }),
  zone: t.Integer(),
  active: t.Boolean({ description: "Active at the time of the request" }),
  start_at: t.String({ description: "UTC, six fractional digits, e.g. 2026-06-15T08:00:00.000000Z" }),
  end_at: t.Union([t.String(), t.Null()], { description: "null: open-ended" }),
  note: t.String(),
});
export type ExtendedInformation = Static<typeof ExtendedInformation>;

export const ExtendedInformationList = t.Array(ExtendedInformation);

/** Path numbers are read by pathNumber (clear messages); the schema documents them. */
export const ZoneParams = t.Object({ zone: t.String({ description: "Zone number" }) });

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
