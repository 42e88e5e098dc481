import type { ApiContract } from "../../../platform/http/api-contract.ts";
import { MarkInput, ObservationReceipt } from "./model.ts";

/** What the OpenAPI document says of marking cars (docs/notices.md, "Timed observations"). */
export const observationContract: ApiContract = {
  named: {
    MarkInput: {
      schema: MarkInput,
      example: { registration_number: "ABC 123", zone: 1234, note: "valves 2 and 7" },
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
  operations: {
    "POST /api/v1/attendants/observations": {
      operationId: "markCar",
      tag: "notices",
      description:
        "Marks a car where the attendant stands, in a zone with a time limit (the shortest `max_time` of the zone's active lots). The box's clock is the first-seen time. A later verdict for the car in this zone the same site-local day carries the mark (`observation`), and past the limit, with nothing valid here, is `over_time_limit`. Marking the car again in the same zone that day changes nothing and is answered 200 with the first mark (the clock is not restarted); marking it in another zone replaces the mark (the car was seen elsewhere). Recorded in the lookup records (`by: observation`, query `PLATE@ZONE`).",
      ok: {
        201: { description: "Marked", schema: "ObservationReceipt" },
        200: { description: "Marked here before today: the first mark", schema: "ObservationReceipt" },
      },
    },
  },
};
