import { invalid } from "../../../domain/errors.ts";
import { windowSpans } from "../../../domain/permits/activity.ts";
import {
  lotFill,
  type OccupancyCurves,
  occupancyCurves,
  type PermitStay,
} from "../../../domain/reports/occupancy.ts";
import { parseInstant } from "../../../domain/time/zoned.ts";
import type { AdminDeps } from "../deps.ts";

/**
 * Occupancy now and over time, read from the tickets' indexes at request time (docs/reports.md):
 * the stays that overlap the range come from two covering indexes, so the cost follows the range's
 * arrivals, not the size of the store, and the figures are as long-lived as the tickets.
 */

const MINUTE = 60_000;
/** The longest history one request covers, and the most steps it answers. */
export const MAX_HISTORY_DAYS = 31;
export const MAX_STEPS = 2_016;

export interface LotInfo {
  id: number;
  name: string | null;
  zone: number | null;
  spaces: number;
  active: boolean;
}

function curves(ctx: AdminDeps, from: number, step: number, count: number): OccupancyCurves {
  const stays = ctx.store.reports.tickets.staysOverlapping(from, from + step * count);
  const permits: PermitStay[] = [];
  for (const p of ctx.store.permits.live(from)) {
    if (p.startAt >= from + step * count) continue;
    const windows = p.days ? windowSpans(JSON.parse(p.days)) : null;
    permits.push({ zone: p.zone, startAt: p.startAt, endAt: p.endAt, windows });
  }
  return occupancyCurves(stays, permits, { from, step, count }, ctx.config.timezone);
}

/** Every known lot, and lot ids that tickets name but no lot has (shown without a name). */
function lotsOf(ctx: AdminDeps, seen: Iterable<number>): Map<number, LotInfo> {
  const out = new Map<number, LotInfo>();
  for (const l of ctx.store.lots.rows())
    out.set(l.id, { id: l.id, name: l.name, zone: l.zoneNumber, spaces: l.numberOfSpaces, active: l.active });
  for (const id of seen)
    if (!out.has(id)) out.set(id, { id, name: null, zone: null, spaces: 0, active: false });
  return out;
}

export function occupancyNow(ctx: AdminDeps) {
  const at = ctx.now();
  const c = curves(ctx, at, 1, 1);
  const lots = [...lotsOf(ctx, c.lots.keys()).values()].map((l) => {
    const tickets = c.lots.get(l.id)?.[0] ?? 0;
    const fill = lotFill(l.spaces, tickets);
    return { ...l, tickets, free: fill?.free ?? null, percent: fill?.percent ?? null };
  });
  const zones = [...c.zones]
    .map(([zone, z]) => ({ zone, tickets: z.tickets[0]!, permits: z.permits[0]! }))
    .sort((a, b) => a.zone - b.zone);
  return { at, lots: lots.sort((a, b) => a.id - b.id), zones };
}

export interface HistoryQuery {
  from: string;
  to: string;
  step?: number;
  lot?: string;
}

export function occupancyHistory(ctx: AdminDeps, q: HistoryQuery) {
  const tz = ctx.config.timezone;
  const from = parseInstant(q.from, tz);
  const to = parseInstant(q.to, tz);
  const bad = (pointer: string, message: string) => invalid([{ pointer, message, in: "query" }]);
  if (from === null)
    throw bad("/from", "must be a date (YYYY-MM-DD, the start of that site day) or a date-time");
  if (to === null) throw bad("/to", "must be a date (YYYY-MM-DD, the start of that site day) or a date-time");
  if (to <= from) throw bad("/to", "must be after from");
  if (to - from > MAX_HISTORY_DAYS * 86_400_000)
    throw bad("/to", `must be at most ${MAX_HISTORY_DAYS} days after from`);
  if (q.step !== undefined && (!Number.isInteger(q.step) || q.step % 5 !== 0))
    throw bad("/step", "must be a number of minutes: 5, or a multiple of 5 up to 1440");
  const step = (q.step ?? 5) * MINUTE;
  const count = Math.ceil((to - from) / step);
  if (count > MAX_STEPS)
    throw bad("/step", `gives ${count} steps for this range; at most ${MAX_STEPS} (take a longer step)`);
  const only = q.lot ? new Set(q.lot.split(",").map(Number)) : null;
  const c = curves(ctx, from, step, count);
  const none = () => new Array<number>(count).fill(0);
  const lots = [...lotsOf(ctx, c.lots.keys()).values()]
    .filter((l) => !only || only.has(l.id))
    .map((l) => ({
      id: l.id,
      name: l.name,
      zone: l.zone,
      spaces: l.spaces,
      tickets: c.lots.get(l.id) ?? none(),
    }))
    .sort((a, b) => a.id - b.id);
  const lotZones = only ? new Set(lots.map((l) => l.zone)) : null;
  const zones = [...c.zones]
    .filter(([zone]) => !lotZones || lotZones.has(zone))
    .map(([zone, z]) => ({ zone, tickets: z.tickets, permits: z.permits }))
    .sort((a, b) => a.zone - b.zone);
  const at = Array.from({ length: count }, (_, i) => from + i * step);
  return { from, to, step: step / MINUTE, at, lots, zones, arrivals: c.arrivals };
}
