import { type FieldError, invalid, refuse } from "../../../domain/errors.ts";
import { overLimitAt, zoneTimeLimit } from "../../../domain/permits/observations.ts";
import { normalizePlate, plateProblem } from "../../../domain/plates.ts";
import { formatMicros, startOfDay } from "../../../domain/time/zoned.ts";
import type { StoredObservation } from "../../../platform/store/observations.ts";
import type { EnforcementContext } from "../module-context.ts";
import type { MarkInput, ObservationReceipt } from "./model.ts";

type ObservationContext = Pick<EnforcementContext, "store" | "now" | "config" | "lookupRecorder">;

/**
 * Timed observations ("chalking"): a car marked in a zone with a time limit keeps the instant it
 * was first seen there for the rest of the site-local day, and the verdict says when it is over.
 */
export class AttendantObservations {
  constructor(private readonly ctx: ObservationContext) {}

  /**
   * Marks the car in the zone. Marked there already today: the first mark stands (its time and
   * note), so marking again never restarts the clock. Marked in another zone today: the car was
   * seen elsewhere, and this mark replaces that one.
   */
  mark(input: MarkInput, credential: string): { receipt: ObservationReceipt; created: boolean } {
    const now = this.ctx.now();
    const errors: FieldError[] = [];
    const plateNorm = normalizePlate(input.registration_number);
    const problem = plateProblem(input.registration_number);
    if (problem)
      errors.push({ pointer: "/registration_number", message: `A registration number ${problem}` });
    if (errors.length > 0) throw invalid(errors);
    const limitSeconds = zoneTimeLimit(this.ctx.store.lots.all(), input.zone);
    if (limitSeconds === null)
      throw refuse(
        "zone-without-time-limit",
        `Zone ${input.zone} has no parking lot with a time limit (max_time); a car is marked only where one is posted`,
        { errors: [{ pointer: "/zone", message: "Not a zone with a time limit" }] },
      );
    const store = this.ctx.store;
    const dayStart = startOfDay(now, this.ctx.config.timezone);
    const { row, created } = store
      .transaction(() => {
        const held = store.observations.ofCarOn(plateNorm, dayStart);
        if (held && held.zone === input.zone) return { row: held, created: false };
        const row = store.observations.replace(held, {
          plate: input.registration_number.trim(),
          plateNorm,
          zone: input.zone,
          dayStart,
          firstSeenAt: now,
          limitSeconds,
          note: input.note ?? "",
          markedBy: credential,
        });
        return { row, created: true };
      })
      .immediate();
    // The audit's record of the mark: `results` 1 for a new mark, 0 for one that was there.
    this.ctx.lookupRecorder.record({
      at: now,
      credential,
      by: "observation",
      query: `${plateNorm}@${input.zone}`,
      results: created ? 1 : 0,
      verdict: null,
    });
    return { receipt: receipt(row), created };
  }
}

function receipt(o: StoredObservation): ObservationReceipt {
  return {
    data: {
      registration_number: o.plate,
      zone: o.zone,
      first_seen_at: formatMicros(o.firstSeenAt),
      limit_seconds: o.limitSeconds,
      over_limit_at: formatMicros(overLimitAt(o)),
      note: o.note,
      marked_by: o.markedBy,
    },
  };
}
