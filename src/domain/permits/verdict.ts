/**
 * The attendant's answer for one car in the zone where the attendant stands: may it stand here
 * now, and until when. Pure: the permits of the plate, the zone, the instant, the site time zone
 * and the grace period in, the verdict out.
 */
import { inPeriod, type PermitPeriod } from "./activity.ts";
import { coveredUntil, type Span, validSpans } from "./spans.ts";

/**
 * In order of precedence: valid here; in grace here (a permit for this zone ended less than the
 * grace period ago); valid in another zone only; a permit for this zone outside its weekly hours;
 * nothing.
 */
export type VerdictState = "valid_here" | "grace" | "valid_elsewhere" | "outside_hours" | "none";

/** One permit's own state: valid now, in grace, outside its weekly hours, ended, or not started. */
export type PermitState = "valid" | "grace" | "outside_hours" | "ended" | "upcoming";

export interface ZonedPermit extends PermitPeriod {
  zone: number;
}

export interface PermitFinding<T extends ZonedPermit> {
  permit: T;
  state: PermitState;
  /** valid: until when, without a break (a window's end, not only the period's); null: open-ended. */
  validUntil: number | null;
  /** grace: when it stopped being valid. */
  endedAt: number | null;
  /** outside_hours or upcoming: when it is next valid; null: not again. */
  nextOpening: number | null;
}

export interface Verdict<T extends ZonedPermit> {
  state: VerdictState;
  /** valid_here, valid_elsewhere (the latest of those zones): until when; grace: when the grace ends; null otherwise or open-ended. */
  validUntil: number | null;
  /** grace: when the permit here stopped being valid. */
  endedAt: number | null;
  /** outside_hours: the earliest next opening of a permit for this zone; null: none before they end. */
  nextOpening: number | null;
  /** Zones other than this one where the car is valid now, in order. */
  zones: number[];
  /** Every permit given, with its own state, in the order given. */
  permits: PermitFinding<T>[];
}

/**
 * How far ahead windows are followed. A week of wall-clock days holds every window once; a
 * stretch that runs the whole of it covers every week, so it lasts to the permit's end.
 */
export const WINDOW_HORIZON_MS = 8 * 86_400_000;

interface Worked<T extends ZonedPermit> extends PermitFinding<T> {
  spans: Span[];
}

function work<T extends ZonedPermit>(p: T, now: number, tz: string, graceMs: number): Worked<T> {
  const windowed = !!p.windows && p.windows.length > 0;
  const horizon = now + WINDOW_HORIZON_MS;
  const spans = validSpans(p, now - graceMs, windowed ? horizon : Number.POSITIVE_INFINITY, tz);
  const open = p.endAt ?? Number.POSITIVE_INFINITY;
  for (const s of spans) if (windowed && s.end >= horizon) s.end = open;
  const found: Worked<T> = {
    permit: p,
    spans,
    state: "ended",
    validUntil: null,
    endedAt: null,
    nextOpening: null,
  };
  const current = spans.find((s) => s.start <= now && now < s.end);
  if (current) {
    found.state = "valid";
    found.validUntil = Number.isFinite(current.end) ? current.end : null;
    return found;
  }
  const ended = spans.filter((s) => s.end <= now).pop();
  if (ended && now - ended.end < graceMs) {
    found.state = "grace";
    found.endedAt = ended.end;
    return found;
  }
  const next = spans.find((s) => s.start > now);
  if (p.canceled) return found;
  if (p.startAt > now) {
    found.state = "upcoming";
    found.nextOpening = next?.start ?? null;
  } else if (windowed && inPeriod(p, now)) {
    found.state = "outside_hours";
    found.nextOpening = next?.start ?? null;
  }
  return found;
}

const latest = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.max(a, b));

/** The verdict for a car in `zone` at `now`; `graceMs` 0 turns grace off. */
export function verdict<T extends ZonedPermit>(
  permits: readonly T[],
  zone: number,
  now: number,
  timezone: string,
  graceMs: number,
): Verdict<T> {
  const worked = permits.map((p) => work(p, now, timezone, graceMs));
  const here = worked.filter((w) => w.permit.zone === zone);
  const result: Verdict<T> = {
    state: "none",
    validUntil: null,
    endedAt: null,
    nextOpening: null,
    zones: [],
    permits: worked.map(({ spans: _, ...finding }) => finding),
  };

  const hereUntil = coveredUntil(
    here.flatMap((w) => w.spans),
    now,
  );
  if (hereUntil !== null) {
    result.state = "valid_here";
    result.validUntil = Number.isFinite(hereUntil) ? hereUntil : null;
    return result;
  }

  const graceEnds = here.filter((w) => w.state === "grace").map((w) => w.endedAt!);
  if (graceEnds.length > 0) {
    result.state = "grace";
    result.endedAt = Math.max(...graceEnds);
    result.validUntil = result.endedAt + graceMs;
    return result;
  }

  const elsewhere = new Map<number, Span[]>();
  for (const w of worked)
    if (w.permit.zone !== zone && w.state === "valid") {
      const list = elsewhere.get(w.permit.zone) ?? [];
      list.push(...w.spans);
      elsewhere.set(w.permit.zone, list);
    }
  if (elsewhere.size > 0) {
    result.state = "valid_elsewhere";
    result.zones = [...elsewhere.keys()].sort((a, b) => a - b);
    let until: number | null = 0;
    for (const spans of elsewhere.values()) {
      const end = coveredUntil(spans, now)!;
      until = latest(until, Number.isFinite(end) ? end : null);
    }
    result.validUntil = until;
    return result;
  }

  const closed = here.filter((w) => w.state === "outside_hours");
  if (closed.length > 0) {
    result.state = "outside_hours";
    const openings = closed.map((w) => w.nextOpening).filter((t): t is number => t !== null);
    result.nextOpening = openings.length > 0 ? Math.min(...openings) : null;
  }
  return result;
}
