/** Examples of the verdict, one per state, for /openapi.json (times as the interface writes them). */

const ticket = (over: Record<string, unknown>) => ({
  kind: "ticket",
  id: "4711",
  registration_number: "ABC 123",
  zone: 1002,
  state: "valid",
  start_at: "2026-06-15T10:00:00.000000Z",
  end_at: "2026-06-15T12:30:00.000000Z",
  valid_until: "2026-06-15T12:30:00.000000Z",
  ended_at: null,
  next_opening: null,
  ticket_status: "running",
  parking_lot_id: 7,
  lot_name: "Torget",
  note: "",
  windows: null,
  ...over,
});

const evenings = {
  kind: "permit",
  id: "12",
  registration_number: "ABC123",
  zone: 1002,
  state: "valid",
  start_at: "2026-01-01T00:00:00.000000Z",
  end_at: "2027-06-30T00:00:00.000000Z",
  valid_until: "2026-06-15T22:00:00.000000Z",
  ended_at: null,
  next_opening: null,
  ticket_status: null,
  parking_lot_id: null,
  lot_name: null,
  note: "resident, Storgatan 4",
  windows: [{ weekday: 1, start_time: "21:00:00", end_time: "24:00:00" }],
};

const verdict = (over: Record<string, unknown>) => ({
  registration_number: "ABC123",
  zone: 1002,
  state: "none",
  checked_at: "2026-06-15T11:10:00.000000Z",
  valid_until: null,
  ended_at: null,
  next_opening: null,
  zones: [],
  grace_minutes: 5,
  permits: [],
  observation: null,
  patrol: null,
  ...over,
});

export const verdictExamples = {
  valid_here: {
    summary: "A Monday 21:00-24:00 permit at 22:00 site time: valid until midnight, not its end date",
    value: verdict({
      state: "valid_here",
      checked_at: "2026-06-15T20:00:00.000000Z",
      valid_until: "2026-06-15T22:00:00.000000Z",
      permits: [evenings],
    }),
  },
  valid_elsewhere: {
    summary: "A running ticket for zone 1001, checked in zone 1002",
    value: verdict({
      state: "valid_elsewhere",
      valid_until: "2026-06-15T12:30:00.000000Z",
      zones: [1001],
      permits: [ticket({ zone: 1001 })],
    }),
  },
  grace: {
    summary: "A ticket for this zone that ended 3 minutes ago, with 5 minutes of grace",
    value: verdict({
      state: "grace",
      checked_at: "2026-06-15T12:33:00.000000Z",
      ended_at: "2026-06-15T12:30:00.000000Z",
      valid_until: "2026-06-15T12:35:00.000000Z",
      patrol: { reason: "in_grace", at: "2026-06-15T12:35:00.000000Z" },
      permits: [
        ticket({
          state: "grace",
          valid_until: null,
          ended_at: "2026-06-15T12:30:00.000000Z",
          ticket_status: "stopped",
        }),
      ],
    }),
  },
  outside_hours: {
    summary: "The Monday evening permit on a Tuesday morning: the next opening is next Monday 21:00",
    value: verdict({
      state: "outside_hours",
      checked_at: "2026-06-16T08:00:00.000000Z",
      next_opening: "2026-06-22T19:00:00.000000Z",
      patrol: { reason: "outside_hours", at: "2026-06-22T19:00:00.000000Z" },
      permits: [
        {
          ...evenings,
          state: "outside_hours",
          valid_until: null,
          next_opening: "2026-06-22T19:00:00.000000Z",
        },
      ],
    }),
  },
  over_time_limit: {
    summary: "Marked at 10:02 in a zone with a 2-hour limit, checked at 12:16 with nothing valid here",
    value: verdict({
      state: "over_time_limit",
      checked_at: "2026-06-15T10:16:00.000000Z",
      observation: {
        first_seen_at: "2026-06-15T08:02:00.000000Z",
        limit_seconds: 7200,
        over_limit_at: "2026-06-15T10:02:00.000000Z",
        seen_seconds_ago: 8040,
        note: "valves 2 and 7",
      },
      patrol: { reason: "over_limit", at: "2026-06-15T10:02:00.000000Z" },
    }),
  },
  none: {
    summary: "Nothing for this plate",
    value: verdict({}),
  },
};
