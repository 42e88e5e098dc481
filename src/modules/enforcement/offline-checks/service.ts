import { type FieldError, invalid } from "../../../domain/errors.ts";
import { MARK_AHEAD_MS } from "../../../domain/permits/observations.ts";
import { normalizePlate } from "../../../domain/plates.ts";
import { parseInstant } from "../../../domain/time/zoned.ts";
import { lookupPlateProblem } from "../lookup-params.ts";
import type { LookupRecord } from "../lookup-recorder.ts";
import type { EnforcementContext } from "../module-context.ts";
import type { OfflineChecks, OfflineChecksReceipt } from "./model.ts";

type OfflineCheckContext = Pick<EnforcementContext, "store" | "now" | "config" | "lookupRecorder">;

const DAY_MS = 86_400_000;

/**
 * Verdicts a handheld gave from its saved list while the box did not answer, recorded when it
 * answers again: the audit has no gap for the minutes the Wi-Fi or the box was gone. Each is a
 * lookup record (`by: offline_verdict`) at the instant the handheld answered, under the credential
 * that sends it. A batch sent again (its answer lost) records nothing twice.
 */
export class OfflineCheckRecords {
  constructor(private readonly ctx: OfflineCheckContext) {}

  record(input: OfflineChecks, credential: string): OfflineChecksReceipt {
    const now = this.ctx.now();
    const oldest = now - this.ctx.config.retentionDays * DAY_MS;
    const errors: FieldError[] = [];
    const records: LookupRecord[] = [];
    input.checks.forEach((c, i) => {
      // As the verdict reads a plate.
      const problem = lookupPlateProblem(c.registration_number);
      if (problem)
        errors.push({
          pointer: `/checks/${i}/registration_number`,
          message: `A registration number ${problem}`,
        });
      const readProblem = c.camera_read === undefined ? null : lookupPlateProblem(c.camera_read);
      if (readProblem)
        errors.push({ pointer: `/checks/${i}/camera_read`, message: `A camera's read ${readProblem}` });
      // A date and a time: a date alone would be taken as the site's midnight.
      const at = c.checked_at.includes("T") ? parseInstant(c.checked_at, this.ctx.config.timezone) : null;
      if (at === null)
        errors.push({
          pointer: `/checks/${i}/checked_at`,
          message: "Expected an ISO 8601 date-time, e.g. 2026-06-15T10:02:00Z",
        });
      else if (at > now + MARK_AHEAD_MS)
        errors.push({
          pointer: `/checks/${i}/checked_at`,
          message: `checked_at is more than ${MARK_AHEAD_MS / 60_000} minutes later than the box's clock; check the phone's time`,
        });
      else if (at < oldest)
        errors.push({
          pointer: `/checks/${i}/checked_at`,
          message: `checked_at is older than the lookup records are kept (${this.ctx.config.retentionDays} days)`,
        });
      if (parseInstant(c.list_taken_at, this.ctx.config.timezone) === null)
        errors.push({ pointer: `/checks/${i}/list_taken_at`, message: "Expected an ISO 8601 date-time" });
      if (errors.length === 0 && at !== null)
        records.push({
          // As sent, a phone a little fast included (at most MARK_AHEAD_MS): a batch sent again
          // must find the record it made the first time.
          at,
          credential,
          by: "offline_verdict",
          query: `${normalizePlate(c.registration_number)}@${c.zone}`,
          results: c.verdict === "not_in_list" ? 0 : 1,
          verdict: c.verdict === "not_in_list" ? null : c.verdict,
          cameraRead: c.camera_read === undefined ? null : normalizePlate(c.camera_read),
        });
    });
    if (errors.length > 0) throw invalid(errors);
    const waiting = this.ctx.lookupRecorder.waiting();
    const held = (r: LookupRecord) =>
      this.ctx.store.lookups.has(r) ||
      waiting.some(
        (w) => w.at === r.at && w.credential === r.credential && w.by === r.by && w.query === r.query,
      );
    let recorded = 0;
    const seen = new Set<string>();
    for (const r of records) {
      const key = `${r.at} ${r.query}`;
      if (seen.has(key) || held(r)) continue;
      seen.add(key);
      this.ctx.lookupRecorder.record(r);
      recorded++;
    }
    return { recorded, already: records.length - recorded };
  }
}
