/**
 * Example values shown in the OpenAPI document and on /docs for the admin routes. The linters
 * check each one against its schema (test/contract), so an example that drifts fails the build.
 */

const lot = {
  id: 12,
  name: "Storgatan garage",
  number_of_spaces: 120,
  zone_number: 1234,
  max_time: 86400,
  parking_lot_fee: [
    {
      id: 1,
      cost_per_unit: 2000,
      unit: 1,
      start_time: "08:00:00",
      end_time: "18:00:00",
      type_of_day: 1,
      round: true,
    },
  ],
  variable_fees: [{ id: 1, type_of_day: 2, from_minute: 0, cost_per_unit: 1500, unit: 1, to_minute: 120 }],
  parking_lot_open: [{ id: 1, type_of_day: 1, open_time: "06:00:00", close_time: "22:00:00" }],
  parking_lot_location: [{ id: 1, latitude: 59.3293, longitude: 18.0686 }],
  active: true,
  max_fee: 25000,
};

const { id: _, ...lotWithoutId } = lot;

const window = { weekday: 1, start_time: "07:00:00", end_time: "17:00:00" };

export const ADMIN_EXAMPLES = {
  lot,
  lotInput: {
    ...lotWithoutId,
    parking_lot_fee: lot.parking_lot_fee.map(({ id: _id, ...f }) => f),
    variable_fees: [],
    parking_lot_open: lot.parking_lot_open.map(({ id: _id, ...o }) => o),
    parking_lot_location: lot.parking_lot_location.map(({ id: _id, ...l }) => l),
  },
  quote: {
    amount_incl_vat: 4000,
    currency_code: "SEK",
    capped_by_max_fee: false,
    exceeds_max_time: false,
    amount_before_cap: 4000,
    start: "2026-06-15T08:00:00.000000Z",
    end: "2026-06-15T10:00:00.000000Z",
    breakdown: [
      {
        from: "2026-06-15T08:00:00.000000Z",
        to: "2026-06-15T10:00:00.000000Z",
        amount: 4000,
        source: "fee",
        fee_ids: [1],
        type_of_day: 1,
        cost_per_unit: 2000,
        unit: 1,
        round: true,
        minutes: 120,
        units: 2,
      },
    ],
  },
  permit: {
    id: 7,
    registration_number: "ABC123",
    zone: 1234,
    start_at: "2026-06-01T00:00:00.000000Z",
    end_at: null,
    note: "Resident, Storgatan 4",
    days: [window],
    active: true,
    created_at: "2026-06-01T09:12:00.000000Z",
    updated_at: "2026-06-01T09:12:00.000000Z",
    created_by: "token:office",
  },
  permitInput: {
    registration_number: "ABC123",
    zone: 1234,
    start_at: "2026-06-01T00:00:00+02:00",
    end_at: null,
    note: "Resident, Storgatan 4",
    days: [window],
  },
  ticket: {
    ticket_id: "100234",
    status: "running",
    zone: 1234,
    parking_lot_id: 12,
    lot_unknown: false,
    start_at: "2026-06-15T08:00:00.000000Z",
    end_at: "2026-06-15T10:00:00.000000Z",
    license_number: "ABC123",
    plate_normalized: "ABC123",
    ticket_cost: { amount_incl_vat: 4000, vat_rate: 25, currency_code: "SEK" },
    created_at: "2026-06-15T08:00:01.000000Z",
    updated_at: "2026-06-15T08:00:01.000000Z",
    canceled_at: null,
    events: [
      {
        seq: 1,
        event_type: "TicketCreated",
        received_at: "2026-06-15T08:00:01.000000Z",
        credential: "token:terminal-1",
        outcome: "applied",
        body: {
          eventType: "TicketCreated",
          ticketId: "100234",
          zoneCode: "1234",
          parkingLotId: "12",
          startDate: "2026-06-15T10:00:00+02:00",
          endDate: "2026-06-15T12:00:00+02:00",
          licenseNumber: "ABC123",
          ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
        },
        body_cut_from: null,
      },
    ],
    events_next_cursor: null,
  },
};
