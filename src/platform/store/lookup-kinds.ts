/** What a lookup record says was asked (permit_lookups.by). */

/**
 * `checks`: someone read a car's earlier checks (GET /api/v1/attendants/checks), itself a lookup
 * of that car. `offline_verdict`: a verdict a handheld gave from its saved list while the box did
 * not answer, sent when it answered again (at: when the handheld answered). `notice`: a control
 * notice issued for a car (query PLATE@ZONE, verdict the one it follows, results 1 when stored and
 * 0 for a retry answered with the stored one), so that the audit says who acted on a car, not
 * only who looked.
 */
export const LOOKUP_KINDS = [
  "registration_number",
  "zone",
  "zone_list",
  "verdict",
  "observation",
  "checks",
  "offline_verdict",
  "notice",
] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];
