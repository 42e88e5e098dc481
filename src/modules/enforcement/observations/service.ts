import { type FieldError, invalid, refuse } from "../../../domain/errors.ts";
import { markTime, overLimitAt, zoneTimeLimit } from "../../../domain/permits/observations.ts";
import { normalizePlate, plateProblem } from "../../../domain/plates.ts";
import { formatMicros, parseInstant, startOfDay } from "../../../domain/time/zoned.ts";
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
   * Marks the car in the zone at the time of marking (the phone's, or the box's clock when none
   * is sent). Marked there already today: the earliest sighting stands (its time and note), so
   * marking again never restarts the clock. Marked in another zone today before this mark: the
   * car was seen elsewhere, and this mark replaces that one; after it, the later mark stands and
   * this one is refused. A mark whose phone id is stored already is answered with what is stored.
   */
  mark(input: MarkInput, credential: string): { receipt: ObservationReceipt; created: boolean } {
    const now = this.ctx.now();
    const timezone = this.ctx.config.timezone;
    const errors: FieldError[] = [];
    const plateNorm = normalizePlate(input.registration_number);
    const problem = plateProblem(input.registration_number);
    if (problem)
      errors.push({ pointer: "/registration_number", message: `A registration number ${problem}` });
    let seenAt = now;
    if (input.marked_at !== undefined) {
      const markedAt = parseInstant(input.marked_at, timezone);
      const time = markedAt === null ? null : markTime(markedAt, now, timezone);
      if (time === null)
        errors.push({
          pointer: "/marked_at",
          message: "Expected an ISO 8601 date-time, e.g. 2026-06-15T10:02:00Z",
        });
      else if (time.problem !== null) errors.push({ pointer: "/marked_at", message: time.problem });
      else seenAt = time.at;
    }
    if (errors.length > 0) throw invalid(errors);
    const limitSeconds = zoneTimeLimit(this.ctx.store.lots.all(), input.zone);
    if (limitSeconds === null)
      throw refuse(
        "zone-without-time-limit",
        `Zone ${input.zone} has no parking lot with a time limit (max_time); a car is marked only where one is posted`,
        { errors: [{ pointer: "/zone", message: "Not a zone with a time limit" }] },
      );
    const store = this.ctx.store;
    const dayStart = startOfDay(now, timezone);
    const note = input.note ?? "";
    const { row, created } = store
      .transaction(() => {
        const stored = input.id === undefined ? null : store.observations.byMarkId(input.id);
        if (stored) {
          const same =
            stored.plateNorm === plateNorm &&
            stored.zone === input.zone &&
            stored.note === note &&
            stored.markedBy === credential;
          if (!same)
            throw refuse(
              "mark-exists",
              `Mark id ${input.id} is already stored for ${stored.plateNorm} in zone ${stored.zone}; a retry must send the same mark`,
            );
          return { row: stored, created: false };
        }
        const held = store.observations.ofCarOn(plateNorm, dayStart);
        if (held && held.zone === input.zone && held.firstSeenAt <= seenAt)
          return { row: held, created: false };
        if (held && held.zone !== input.zone && held.firstSeenAt > seenAt)
          throw refuse(
            "marked-later-elsewhere",
            `${held.plateNorm} was marked in zone ${held.zone} at ${formatMicros(held.firstSeenAt)}, after this mark's time (${formatMicros(seenAt)}): the later mark stands`,
          );
        const row = store.observations.replace(held, {
          plate: input.registration_number.trim(),
          plateNorm,
          zone: input.zone,
          dayStart,
          firstSeenAt: seenAt,
          limitSeconds,
          note,
          markedBy: credential,
          markId: input.id ?? null,
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
      cameraRead: null,
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
