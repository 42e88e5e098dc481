import type { ApiContract } from "../../../platform/http/api-contract.ts";
import { OFFLINE_CHECKS_MAX, OfflineChecks, OfflineChecksReceipt } from "./model.ts";

/** What the OpenAPI document says of offline checks (docs/permits.md, "Offline checks"). */
export const offlineCheckContract: ApiContract = {
  named: {
    OfflineChecks: {
      schema: OfflineChecks,
      example: {
        checks: [
          {
            registration_number: "ABC 123",
            zone: 1002,
            checked_at: "2026-06-15T10:02:11.250Z",
            verdict: "valid_here",
            list_taken_at: "2026-06-15T09:58:40.000Z",
          },
          {
            registration_number: "XYZ 789",
            zone: 1002,
            checked_at: "2026-06-15T10:03:02.900Z",
            verdict: "not_in_list",
            list_taken_at: "2026-06-15T09:58:40.000Z",
          },
        ],
      },
    },
    OfflineChecksReceipt: { schema: OfflineChecksReceipt, example: { recorded: 2, already: 0 } },
  },
  operations: {
    "POST /api/v1/attendants/offline-checks": {
      operationId: "recordOfflineChecks",
      tag: "permits",
      description: `Verdicts a handheld gave from its saved list while the box did not answer (the Wi-Fi gone, the box frozen or restarting), sent when it answers again: up to ${OFFLINE_CHECKS_MAX} a request, oldest first. Each is a lookup record (\`by: offline_verdict\`, query \`PLATE@ZONE\`, \`verdict\` the state the handheld showed, or null and results 0 for a plate not in the saved list) at \`checked_at\`, under the credential that sends it: the audit and the car's earlier checks show it as answered offline. A check already recorded (the same credential, plate, zone and instant: a batch sent again after its answer was lost) is counted in \`already\` and not recorded twice. A \`checked_at\` more than 2 minutes ahead of the box's clock, or older than the records are kept, or a plate that cannot be one, is 400 at its pointer and nothing of the request is recorded.`,
      ok: { 200: { description: "Recorded", schema: "OfflineChecksReceipt" } },
    },
  },
};
