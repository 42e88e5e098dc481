import { zoneTimeLimit } from "../../domain/permits/observations.ts";
import type { KnownZones } from "./model.ts";
import type { EnforcementContext } from "./module-context.ts";

/** A zone with a ticket or permit this recently counts as one of the site's zones. */
export const KNOWN_ZONE_DAYS = 30;
/**
 * Zones listed at most besides the lots' own: far more than a site has, few enough that a
 * terminal sending every zone number there is cannot make each handheld's start slow.
 */
export const KNOWN_ZONES_MAX = 1_000;

/**
 * The zones an attendant of this site may stand in: every lot's zone (with the lots' names and
 * map points, for the handheld to order them by distance), and every zone with a ticket or
 * permit that ended within the last 30 days or runs on. A zone typed that is none of these is
 * most likely a typo, and the handheld asks before judging a car there.
 */
export function knownZones(ctx: Pick<EnforcementContext, "store">, at: number): KnownZones {
  const since = at - KNOWN_ZONE_DAYS * 86_400_000;
  const zones = new Map<number, KnownZones["data"][number]>();
  const zone = (n: number) => {
    let z = zones.get(n);
    if (!z) {
      z = { zone: n, lots: [], recent: false, time_limit_seconds: zoneTimeLimit(lots, n) };
      zones.set(n, z);
    }
    return z;
  };
  const lots = ctx.store.lots.all();
  for (const lot of lots)
    zone(lot.zone_number).lots.push({
      id: lot.id,
      name: lot.name,
      locations: lot.parking_lot_location.map((l) => ({ latitude: l.latitude, longitude: l.longitude })),
    });
  const lotZones = zones.size;
  let complete = true;
  for (const n of [...ctx.store.tickets.zonesSince(since), ...ctx.store.permits.zonesSince(since)]) {
    if (!zones.has(n) && zones.size >= lotZones + KNOWN_ZONES_MAX) {
      complete = false;
      continue;
    }
    zone(n).recent = true;
  }
  return { data: [...zones.values()].sort((a, b) => a.zone - b.zone), complete };
}
