/**
 * When a permit counts, without I/O: the rules check-tickets and the zone list share, and the
 * operator's weekly windows. Everything is decided at request time from the clock.
 */
import { parseTimeOfDay, toWallTime, type WallTime } from "../time/zoned.ts";

const DAY_SECONDS = 86_400;

/** A weekly window in the site time zone; end before start runs past midnight. */
export interface PermitWindow {
  /** ISO weekday: 1 = Monday ... 7 = Sunday (the day the window starts). */
  weekday: number;
  start_time: string;
  end_time: string;
}

/** A weekly window with its times as seconds since midnight, ready for comparison. */
export interface WindowSpan {
  weekday: number;
  start: number;
  /** Seconds since midnight; at or before `start`: the window runs past midnight into the next day. */
  end: number;
}

/** What `active` depends on, whether the permit came from a ticket or from the operator. */
export interface PermitPeriod {
  startAt: number;
  /** null: open-ended (a running ticket with no end, or a permit without an end). */
  endAt: number | null;
  canceled?: boolean;
  windows?: readonly WindowSpan[] | null;
}

/**
 * `HH:MM:SS` times of a window as seconds. `23:59:59` and `24:00:00` as the end both mean "to
 * the end of the day", as they do for parking lot fees.
 */
export function windowSpan(w: PermitWindow): WindowSpan | null {
  const start = parseTimeOfDay(w.start_time);
  const rawEnd = parseTimeOfDay(w.end_time);
  if (start === null || rawEnd === null || start >= DAY_SECONDS) return null;
  const end = rawEnd >= DAY_SECONDS - 1 ? DAY_SECONDS : rawEnd;
  return { weekday: w.weekday, start, end };
}

export function windowSpans(days: readonly PermitWindow[] | null | undefined): WindowSpan[] | null {
  if (!days || days.length === 0) return null;
  const spans: WindowSpan[] = [];
  for (const d of days) {
    const s = windowSpan(d);
    if (s) spans.push(s);
  }
  return spans;
}

/**
 * Inside one of the windows at the given wall-clock time. Windows are wall-clock times in the site
 * time zone, so on a daylight-saving change day a window simply has an hour more or less.
 */
export function insideWindows(windows: readonly WindowSpan[], wall: WallTime): boolean {
  const second = wall.hour * 3600 + wall.minute * 60 + wall.second;
  const yesterday = wall.weekday === 1 ? 7 : wall.weekday - 1;
  for (const w of windows) {
    const overnight = w.end <= w.start;
    if (w.weekday === wall.weekday && second >= w.start && (overnight || second < w.end)) return true;
    if (overnight && w.weekday === yesterday && second < w.end) return true;
  }
  return false;
}

/** Started, not ended, not canceled. Windows aside. */
export function inPeriod(p: PermitPeriod, now: number): boolean {
  return !p.canceled && p.startAt <= now && (p.endAt === null || now < p.endAt);
}

/**
 * The wall time is only worked out when a permit has windows (it costs an Intl call); pass a
 * memo when checking many permits at one instant.
 */
export class WallClock {
  private wall: WallTime | undefined;
  constructor(
    readonly now: number,
    private readonly timezone: string,
  ) {}
  get(): WallTime {
    if (!this.wall) this.wall = toWallTime(this.now, this.timezone);
    return this.wall;
  }
}

/** `active`: not canceled, start_at <= now < end_at (open end: started), and inside a window if any. */
export function isActive(p: PermitPeriod, now: number, timezone: string | WallClock): boolean {
  if (!inPeriod(p, now)) return false;
  if (!p.windows || p.windows.length === 0) return true;
  const clock = typeof timezone === "string" ? new WallClock(now, timezone) : timezone;
  return insideWindows(p.windows, clock.get());
}

/**
 * check-tickets lists permits whose period holds now, and those that ended within the recent
 * window (`end_at` in (now - recent, now]). Permits that have not started yet are left out.
 */
export function isListed(p: PermitPeriod, now: number, recentMs: number): boolean {
  if (p.canceled || p.startAt > now) return false;
  return p.endAt === null || p.endAt > now - recentMs;
}

export interface Listed {
  startAt: number;
  endAt: number | null;
  plateNorm: string;
  /** Tickets before operator permits when all else is equal, then by id: a stable order. */
  source: 0 | 1;
  id: string;
}

/** Newest first: latest start first; on a tie the later (or open) end first; then a stable tail. */
export function newestFirst(a: Listed, b: Listed): number {
  if (a.startAt !== b.startAt) return b.startAt - a.startAt;
  const ae = a.endAt ?? Number.POSITIVE_INFINITY;
  const be = b.endAt ?? Number.POSITIVE_INFINITY;
  if (ae !== be) return be > ae ? 1 : -1;
  if (a.plateNorm !== b.plateNorm) return a.plateNorm < b.plateNorm ? -1 : 1;
  if (a.source !== b.source) return a.source - b.source;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Where a ticket-derived permit came from, for the attendant: id, lot, running or stopped. */
export function ticketNote(t: {
  ticketId: string;
  parkingLotId: number | null;
  lotName?: string | null;
  status: string;
}): string {
  const state = t.status === "stopped" ? "stopped" : "running";
  if (t.parkingLotId === null) return `ticket ${t.ticketId}, ${state}`;
  const lot = t.lotName ? `lot ${t.parkingLotId} (${t.lotName})` : `lot ${t.parkingLotId}`;
  return `ticket ${t.ticketId}, ${lot}, ${state}`;
}
