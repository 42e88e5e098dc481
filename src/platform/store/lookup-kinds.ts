/** What a lookup record says was asked (permit_lookups.by). */

/**
 * `checks`: someone read a car's earlier checks (GET /api/v1/attendants/checks), itself a lookup
 * of that car. `offline_verdict`: a verdict a handheld gave from its saved list while the box did
 * not answer, sent when it answered again (at: when the handheld answered).
 */
export const LOOKUP_KINDS = [
  "registration_number",
  "zone",
  "zone_list",
  "verdict",
  "observation",
  "checks",
  "offline_verdict",
] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];
