/** The fixed answer both ceiling servers send: one check-tickets entry, as parkd would. */
export const CEILING_BODY = JSON.stringify([
  {
    registration_number: "ABC123",
    zone: 1234,
    active: true,
    start_at: "2026-06-15T08:00:00.000000Z",
    end_at: "2026-06-15T10:00:00.000000Z",
    note: "ticket 1",
  },
]);
