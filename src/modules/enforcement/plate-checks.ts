import { formatMicros, startOfDay } from "../../domain/time/zoned.ts";
import type { LookupRecord } from "./lookup-recorder.ts";
import type { PlateChecks } from "./model.ts";
import type { EnforcementContext } from "./module-context.ts";

/** More than a day of rounds past one car; the oldest beyond it are left out. */
const CHECKS_SHOWN = 50;
/** Pages of records read at most: an all-digit plate shares its text with a zone's lookups. */
const PAGES_READ = 10;

type Check = PlateChecks["data"][number];

/** A verdict, given online or by a handheld from its saved list. */
const isVerdict = (r: LookupRecord) => r.by === "verdict" || r.by === "offline_verdict";

function checkOf(r: LookupRecord): Check {
  const at = r.query.lastIndexOf("@");
  return {
    at: formatMicros(r.at),
    zone: isVerdict(r) && at >= 0 ? Number(r.query.slice(at + 1)) : null,
    credential: r.credential,
    verdict: isVerdict(r) ? (r.verdict ?? null) : null,
    offline: r.by === "offline_verdict",
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
  // A plate may hold '@' itself: a verdict is this plate's when what is before its last '@' is
  // the plate (the zone after it is digits).
  const mine = (r: LookupRecord) =>
    r.at >= from &&
    ((r.by === "registration_number" && r.query === plateNorm) ||
      (isVerdict(r) && r.query.slice(0, r.query.lastIndexOf("@")) === plateNorm));
  const found = ctx.lookupRecorder.waiting().filter(mine).reverse();
  // The store's page by plate also holds zone lookups of an all-digit plate's number and other
  // plates' verdicts that start with it and '@': read on until enough are this plate's.
  let before: number | undefined;
  for (let page = 0; page < PAGES_READ && found.length < CHECKS_SHOWN; page++) {
    const rows = ctx.store.lookups.page({ plate: plateNorm, from }, before, CHECKS_SHOWN);
    for (const r of rows) if (mine(r)) found.push(r);
    if (rows.length < CHECKS_SHOWN) break;
    before = rows[rows.length - 1]!.id;
  }
  // Newest first by when it was checked: a check answered offline is recorded when sent, later.
  const shown = found.sort((a, b) => b.at - a.at).slice(0, CHECKS_SHOWN);
  return { data: shown.map(checkOf) };
}
