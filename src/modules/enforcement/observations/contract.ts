import type { ApiContract, OperationContract } from "../../../platform/http/api-contract.ts";
import { MarkInput, ObservationReceipt } from "./model.ts";

/** What the OpenAPI document says of marking cars (docs/notices.md, "Timed observations"). */
// The request's example has no `marked_at`: a fixed date would be before today wherever the
// example is sent (a vendor's contract run posts it), and the description says what it takes.
export const observationContract: ApiContract = {
  named: {
    MarkInput: {
      schema: MarkInput,
      example: {
        id: "5b0c2f7e-9d41-4c1a-b7e3-2f6a8d9e0c11",
        registration_number: "ABC 123",
        zone: 1234,
        note: "valves 2 and 7",
      },
    },
    ObservationReceipt: {
      schema: ObservationReceipt,
      example: {
        data: {
          registration_number: "ABC 123",
          zone: 1234,
          first_seen_at: "2026-06-15T08:02:00.000000Z",
          limit_seconds: 7200,
          over_limit_at: "2026-06-15T10:02:00.000000Z",
          note: "valves 2 and 7",
          marked_by: "token:handheld-1",
        },
      },
    },
  },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const observationOperations = {
  markCar: {
    operationId: "markCar",
    problems: ["zone-without-time-limit", "mark-exists", "marked-later-elsewhere"],
    tag: "notices",
    description:
      "Marks a car where the attendant stands, in a zone with a time limit (the shortest `max_time` of the zone's active lots). The first-seen time is `marked_at`, the phone's time of marking (a mark made offline is sent later with it), or the box's clock without one; a `marked_at` more than 2 minutes ahead of the box's clock, or before today (site time) began, is 400 at `/marked_at`. The phone makes the `id`, so a mark sent again is answered 200 with the stored one; another mark under a stored id is 409 `mark-exists`. A later verdict for the car in this zone the same site-local day carries the mark (`observation`), and past the limit, with nothing valid here, is `over_time_limit`. Marking the car again in the same zone that day is answered 200 with the first mark (the clock is not restarted; a mark with an earlier time replaces it, the car was there earlier); marking it in another zone replaces the mark (the car was seen elsewhere), unless the other zone's mark is later than this one: then 409 `marked-later-elsewhere`, the later mark stands. Recorded in the lookup records (`by: observation`, query `PLATE@ZONE`).",
    ok: {
      201: { description: "Marked", schema: "ObservationReceipt" },
      200: { description: "Marked here before today: the first mark", schema: "ObservationReceipt" },
    },
  },
} satisfies Record<string, OperationContract>;
