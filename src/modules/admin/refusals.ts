import type { RefusalTable } from "../../domain/errors.ts";

/** What the operators' side refuses beyond validation, stale writes (src/domain/errors.ts) and the lots' rules. */
export const ADMIN_REFUSALS = {
  "permit-not-found": {
    kind: "not-found",
    title: "Permit not found",
    example: "There is no permit with id 7",
  },
} as const satisfies RefusalTable;
