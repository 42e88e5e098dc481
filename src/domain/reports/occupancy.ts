/**
 * How full the site is, without I/O: stays (tickets not canceled) counted per lot and zone at
 * instants, and the operator's and office's permits per zone. A stay counts at instant t when
 * start <= t < end (an open end: from its start on). Lots with spaces have free spaces and a
 * percent; a lot can be over its spaces (more tickets than spaces: percent over 100, free 0).
 */
import { insideWindows, type WindowSpan } from "../permits/activity.ts";
import { toWallTime } from "../time/zoned.ts";

export interface Stay {
  startAt: number;
  endAt: number | null;
  parkingLotId: number | null;
  zone: number;
}

export interface PermitStay {
  zone: number;
  startAt: number;
  endAt: number | null;
  windows: readonly WindowSpan[] | null;
}

/** The instants counted: from `from`, every `step` ms, `count` of them. */
export interface Steps {
  from: number;
  step: number;
  count: number;
}

export interface OccupancyCurves {
  /** Tickets per step, by lot id (stays without a lot are counted in their zone only). */
  lots: Map<number, number[]>;
  /** Tickets and permits per step, by zone. */
  zones: Map<number, { tickets: number[]; permits: number[] }>;
  /** Stays that started within each step [t, t + step): arrivals, all lots together. */
  arrivals: number[];
}

/** Index of the first step at or after `t` (may be out of range either way). */
const firstStepAtOrAfter = (s: Steps, t: number) => Math.ceil((t - s.from) / s.step);

/** Adds 1 over the steps the interval [start, end) covers, as a difference array (one pass to sum). */
function mark(diff: number[], s: Steps, start: number, end: number | null): void {
  const a = Math.max(0, firstStepAtOrAfter(s, start));
  const b = end === null ? s.count : Math.min(s.count, firstStepAtOrAfter(s, end));
  if (a >= b) return;
  diff[a]! += 1;
  diff[b]! -= 1;
}

function summed(diff: number[], count: number): number[] {
  const out = new Array<number>(count);
  let run = 0;
  for (let i = 0; i < count; i++) {
    run += diff[i]!;
    out[i] = run;
  }
  return out;
}

/**
 * Occupancy at every step: each stay marks the steps it covers (O(stays + groups × steps)); a
 * permit with weekly windows is looked at step by step, with the wall time worked out once per step.
 */
export function occupancyCurves(
  stays: Iterable<Stay>,
  permits: Iterable<PermitStay>,
  s: Steps,
  timezone: string,
): OccupancyCurves {
  const zero = () => new Array<number>(s.count + 1).fill(0);
  const lotDiff = new Map<number, number[]>();
  const zoneDiff = new Map<number, { tickets: number[]; permits: number[] }>();
  const zoneOf = (zone: number) => {
    let z = zoneDiff.get(zone);
    if (!z) {
      z = { tickets: zero(), permits: zero() };
      zoneDiff.set(zone, z);
    }
    return z;
  };
  const arrivals = new Array<number>(s.count).fill(0);
  for (const t of stays) {
    if (t.parkingLotId !== null) {
      let d = lotDiff.get(t.parkingLotId);
      if (!d) {
        d = zero();
        lotDiff.set(t.parkingLotId, d);
      }
      mark(d, s, t.startAt, t.endAt);
    }
    mark(zoneOf(t.zone).tickets, s, t.startAt, t.endAt);
    const k = Math.floor((t.startAt - s.from) / s.step);
    if (k >= 0 && k < s.count) arrivals[k]! += 1;
  }
  let walls: ReturnType<typeof toWallTime>[] | undefined;
  for (const p of permits) {
    const z = zoneOf(p.zone).permits;
    if (!p.windows || p.windows.length === 0) {
      mark(z, s, p.startAt, p.endAt);
      continue;
    }
    walls ??= Array.from({ length: s.count }, (_, i) => toWallTime(s.from + i * s.step, timezone));
    for (let i = 0; i < s.count; i++) {
      const t = s.from + i * s.step;
      if (t >= p.startAt && (p.endAt === null || t < p.endAt) && insideWindows(p.windows, walls[i]!)) {
        z[i]! += 1;
        z[i + 1]! -= 1;
      }
    }
  }
  const lots = new Map<number, number[]>();
  for (const [id, d] of lotDiff) lots.set(id, summed(d, s.count));
  const zones = new Map<number, { tickets: number[]; permits: number[] }>();
  for (const [zone, d] of zoneDiff)
    zones.set(zone, { tickets: summed(d.tickets, s.count), permits: summed(d.permits, s.count) });
  return { lots, zones, arrivals };
}

/** Free spaces and percent of a lot with spaces (null for a lot without a number of spaces). */
export function lotFill(spaces: number, occupied: number): { free: number; percent: number } | null {
  if (spaces <= 0) return null;
  return { free: Math.max(0, spaces - occupied), percent: Math.round((occupied * 100) / spaces) };
}
