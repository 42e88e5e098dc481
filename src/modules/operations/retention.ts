/**
 * Retention: tickets, their events and permit-lookup records are deleted `retentionDays` after
 * they ended. When a ticket "ended":
 *   - canceled: at canceled_at (the moment it stopped counting as a permit), whatever its end_at;
 *   - otherwise: at end_at; a ticket with no end_at is running and is never deleted.
 * Operator-issued permits are never deleted by retention: an operator deletes them.
 *
 * Work goes in small steps (a window of `batch` rows per transaction) with a yield to the event
 * loop between steps, so requests are answered while a large backlog is worked off.
 */
import type { Database } from "bun:sqlite";
import type { PurgeReport } from "./model.ts";

export const DAY_MS = 86_400_000;

export interface PurgeOptions {
  now: number;
  retentionDays: number;
  /** Rows per transaction. */
  batch?: number;
  dryRun?: boolean;
  /** Called between steps; the default lets the event loop run. */
  pause?: () => Promise<void>;
  /** Set to stop early (shutdown); what was done stays done. */
  signal?: AbortSignal;
}

export function cutoffOf(now: number, retentionDays: number): number {
  return now - retentionDays * DAY_MS;
}

const ENDED_BEFORE = `(
  (status = 'canceled' AND COALESCE(canceled_at, updated_at) < $cutoff)
  OR (status <> 'canceled' AND end_at IS NOT NULL AND end_at < $cutoff)
)`;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Prepared once per connection: retention runs every hour for the life of the process. */
class PurgeStatements {
  readonly rowidRange;
  readonly expiredInWindow;
  readonly deleteEvents;
  readonly deleteTicket;
  readonly deleteLookupsBelow;
  readonly countTickets;
  readonly countEvents;
  readonly countLookups;

  constructor(readonly sqlite: Database) {
    this.rowidRange = sqlite.query<{ lo: number | null; hi: number | null }, []>(
      "SELECT min(rowid) AS lo, max(rowid) AS hi FROM tickets",
    );
    // A window of rowids keeps each step bounded however large the table is.
    this.expiredInWindow = sqlite.query<{ ticket_id: string }, { from: number; to: number; cutoff: number }>(
      `SELECT ticket_id FROM tickets WHERE rowid > $from AND rowid <= $to AND ${ENDED_BEFORE}`,
    );
    this.deleteEvents = sqlite.query<never, { id: string }>(
      "DELETE FROM ticket_events WHERE ticket_id = $id",
    );
    this.deleteTicket = sqlite.query<never, { id: string; cutoff: number }>(
      `DELETE FROM tickets WHERE ticket_id = $id AND ${ENDED_BEFORE}`,
    );
    this.deleteLookupsBelow = sqlite.query<never, { cutoff: number; batch: number }>(
      "DELETE FROM permit_lookups WHERE id IN (SELECT id FROM permit_lookups WHERE at < $cutoff ORDER BY at LIMIT $batch)",
    );
    this.countTickets = sqlite.query<{ n: number }, { cutoff: number }>(
      `SELECT count(*) AS n FROM tickets WHERE ${ENDED_BEFORE}`,
    );
    this.countEvents = sqlite.query<{ n: number }, { cutoff: number }>(
      `SELECT count(*) AS n FROM ticket_events WHERE ticket_id IN (SELECT ticket_id FROM tickets WHERE ${ENDED_BEFORE})`,
    );
    this.countLookups = sqlite.query<{ n: number }, { cutoff: number }>(
      "SELECT count(*) AS n FROM permit_lookups WHERE at < $cutoff",
    );
  }
}

const statements = new WeakMap<Database, PurgeStatements>();
function statementsFor(sqlite: Database): PurgeStatements {
  let s = statements.get(sqlite);
  if (!s) {
    s = new PurgeStatements(sqlite);
    statements.set(sqlite, s);
  }
  return s;
}

/** Deletes (or with dryRun, counts) what retention removes; returns how many rows of each kind. */
export async function purgeExpired(sqlite: Database, opts: PurgeOptions): Promise<PurgeReport> {
  const cutoff = cutoffOf(opts.now, opts.retentionDays);
  const s = statementsFor(sqlite);
  if (opts.dryRun) {
    return {
      tickets: s.countTickets.get({ cutoff })?.n ?? 0,
      ticketEvents: s.countEvents.get({ cutoff })?.n ?? 0,
      permitLookups: s.countLookups.get({ cutoff })?.n ?? 0,
    };
  }
  const batch = Math.max(1, opts.batch ?? 1000);
  const pause = opts.pause ?? yieldToLoop;
  const report: PurgeReport = { tickets: 0, ticketEvents: 0, permitLookups: 0 };

  const purgeWindow = sqlite.transaction((from: number, to: number) => {
    for (const { ticket_id } of s.expiredInWindow.all({ from, to, cutoff })) {
      // Re-checked inside the delete: an event may have revived the ticket since the select.
      const gone = s.deleteTicket.run({ id: ticket_id, cutoff }).changes;
      if (gone === 0) continue;
      report.tickets += gone;
      report.ticketEvents += s.deleteEvents.run({ id: ticket_id }).changes;
    }
  });
  const range = s.rowidRange.get();
  const top = range?.hi ?? 0;
  for (let from = (range?.lo ?? 1) - 1; from < top; from += batch) {
    if (opts.signal?.aborted) return report;
    purgeWindow(from, from + batch);
    await pause();
  }

  for (;;) {
    if (opts.signal?.aborted) return report;
    const n = s.deleteLookupsBelow.run({ cutoff, batch }).changes;
    report.permitLookups += n;
    if (n < batch) break;
    await pause();
  }
  return report;
}

export interface RetentionSchedule {
  /** Resolves when a run in progress has stopped. */
  stop(): Promise<void>;
  /** The run in progress or the next one; for tests and `serve` start-up. */
  runNow(): Promise<PurgeReport | undefined>;
}

/**
 * Runs purgeExpired at start and then every `everyMs` (default hourly). A failed run is logged
 * and retried at the next tick; it never takes the server down.
 */
export function scheduleRetention(opts: {
  sqlite: Database;
  now: () => number;
  retentionDays: number;
  everyMs?: number;
  onRun?: (report: PurgeReport) => void;
  onError?: (error: unknown) => void;
}): RetentionSchedule {
  const abort = new AbortController();
  let running: Promise<PurgeReport | undefined> | undefined;
  const run = (): Promise<PurgeReport | undefined> => {
    if (running) return running;
    running = purgeExpired(opts.sqlite, {
      now: opts.now(),
      retentionDays: opts.retentionDays,
      signal: abort.signal,
    })
      .then((report) => {
        opts.onRun?.(report);
        return report;
      })
      .catch((e) => {
        opts.onError?.(e);
        return undefined;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void run(), opts.everyMs ?? 3_600_000);
  timer.unref?.();
  const first = setTimeout(() => void run(), 0);
  return {
    async stop() {
      clearInterval(timer);
      clearTimeout(first);
      abort.abort();
      await running;
    },
    runNow: run,
  };
}
