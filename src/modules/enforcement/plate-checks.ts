import { formatMicros, startOfDay } from "../../domain/time/zoned.ts";
import type { EnforcementContext } from "./index.ts";
import type { LookupRecord } from "./lookup-recorder.ts";
import type { PlateChecks } from "./model.ts";

/** More than a day of rounds past one car; the oldest beyond it are left out. */
const CHECKS_SHOWN = 50;

type Check = PlateChecks["data"][number];

function checkOf(r: LookupRecord): Check {
  const at = r.query.lastIndexOf("@");
  return {
    at: formatMicros(r.at),
    zone: r.by === "verdict" && at >= 0 ? Number(r.query.slice(at + 1)) : null,
    credential: r.credential,
    verdict: r.by === "verdict" ? (r.verdict ?? null) : null,
  };
}

/**
 * A car's checks today at this site (site time), newest first: its verdicts and lookups by plate,
 * from the lookup records, the ones not yet written included. What an attendant needs to tell a
 * returning car from a new one.
 */
export function plateChecksToday(
  ctx: Pick<EnforcementContext, "store" | "config" | "lookupRecorder">,
  plateNorm: string,
  at: number,
): PlateChecks {
  const from = startOfDay(at, ctx.config.timezone);
  const mine = (r: LookupRecord) =>
    r.at >= from &&
    ((r.by === "registration_number" && r.query === plateNorm) ||
      (r.by === "verdict" && r.query.startsWith(`${plateNorm}@`)));
  const waiting = ctx.lookupRecorder.waiting().filter(mine).reverse();
  const written = ctx.store.lookups
    .page({ plate: plateNorm, from }, undefined, CHECKS_SHOWN)
    .filter((r) => r.by === "verdict" || r.by === "registration_number");
  return { data: [...waiting, ...written].slice(0, CHECKS_SHOWN).map(checkOf) };
}
