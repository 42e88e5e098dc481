import { EXAMPLE_LOT } from "../../domain/lots/example.ts";

/**
 * Example values shown in the OpenAPI document and on /docs for the admin routes. The linters
 * check each one against its schema (test/contract), so an example that drifts fails the build.
 */

const lot = EXAMPLE_LOT;
const { id: _, ...lotWithoutId } = lot;

const window = { weekday: 1, start_time: "07:00:00", end_time: "17:00:00" };

export const ADMIN_EXAMPLES = {
  // A dry run of a file of two lots: the first would change, the second is refused.
  importReport: {
    dry_run: true,
    applied: false,
    created: 0,
    changed: 1,
    unchanged: 0,
    refused: 1,
    file_errors: [],
    lots: [
      {
        index: 0,
        id: lot.id,
        name: lot.name,
        outcome: "changed" as const,
        changed_fields: ["max_fee"],
        errors: [],
      },
      {
        index: 1,
        id: null,
        name: "Hamnen",
        outcome: "refused" as const,
        changed_fields: [],
        errors: [{ pointer: "/zone_number", message: "Expected an integer from 0 to 2147483647" }],
      },
    ],
  },
  lotInput: {
    ...lotWithoutId,
    parking_lot_fee: lot.parking_lot_fee.map(({ id: _id, ...f }) => f),
    variable_fees: [],
    parking_lot_open: lot.parking_lot_open.map(({ id: _id, ...o }) => o),
    parking_lot_location: lot.parking_lot_location.map(({ id: _id, ...l }) => l),
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
