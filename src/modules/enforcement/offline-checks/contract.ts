import type { ApiContract, OperationContract } from "../../../platform/http/api-contract.ts";
import { OFFLINE_CHECKS_MAX, OfflineChecks, OfflineChecksReceipt } from "./model.ts";

/**
 * The example's instants: minutes before the document was made (at start), so that a vendor's
 * contract run that posts the example sends checks the box takes (a fixed date falls out of the
 * records' retention, and is refused).
 */
const exampleAt = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

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
            checked_at: exampleAt(6),
            verdict: "valid_here",
            list_taken_at: exampleAt(9),
          },
          {
            registration_number: "XYZ 789",
            zone: 1002,
            checked_at: exampleAt(5),
            verdict: "not_in_list",
            list_taken_at: exampleAt(9),
          },
        ],
      },
    },
    OfflineChecksReceipt: { schema: OfflineChecksReceipt, example: { recorded: 2, already: 0 } },
  },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const offlineCheckOperations = {
  recordOfflineChecks: {
    operationId: "recordOfflineChecks",
    tag: "permits",
    description: `Verdicts a handheld gave from its saved list while the box did not answer (the Wi-Fi gone, the box frozen or restarting), sent when it answers again: up to ${OFFLINE_CHECKS_MAX} a request, oldest first. Each is a lookup record (\`by: offline_verdict\`, query \`PLATE@ZONE\`, \`verdict\` the state the handheld showed, or null and results 0 for a plate not in the saved list) at \`checked_at\`, under the credential that sends it: the audit and the car's earlier checks show it as answered offline. A check already recorded (the same credential, plate, zone and instant: a batch sent again after its answer was lost) is counted in \`already\` and not recorded twice. A \`checked_at\` more than 2 minutes ahead of the box's clock, or older than the records are kept, or a plate that cannot be one, is 400 at its pointer and nothing of the request is recorded.`,
    ok: { 200: { description: "Recorded", schema: "OfflineChecksReceipt" } },
  },
} satisfies Record<string, OperationContract>;
