import type { RefusalTable } from "../../domain/errors.ts";

/** What the lookups and the live feed refuse, beyond validation (src/domain/errors.ts). */
export const ENFORCEMENT_REFUSALS = {
  "lookup-parameters": {
    kind: "invalid",
    title: "Exactly one of registration_number or zone",
    example: "Give registration_number or zone, in the query string or in a JSON body",
  },
  "bad-request": {
    kind: "invalid",
    title: "Bad request",
    example: "zone is given in both the query string and the body, with different values",
  },
  "too-many-feeds": {
    kind: "too-many",
    title: "Too many open feeds",
    example: "This credential already holds 8 open zone feeds; close one first",
  },
} as const satisfies RefusalTable;
