import type { RefusalTable } from "../../domain/errors.ts";

/** What the operators' side refuses beyond validation and stale writes (src/domain/errors.ts). */
export const ADMIN_REFUSALS = {
  "lot-not-found": {
    kind: "not-found",
    title: "Parking lot not found",
    example: "There is no parking lot 12",
  },
  "lot-exists": {
    kind: "conflict",
    title: "Parking lot exists",
    example: "There is already a parking lot 12",
  },
  "permit-not-found": {
    kind: "not-found",
    title: "Permit not found",
    example: "There is no permit with id 7",
  },
} as const satisfies RefusalTable;
