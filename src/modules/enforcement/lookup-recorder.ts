import { logError } from "../../platform/log.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { Store } from "../../platform/store/db.ts";
import type { LookupRecord } from "../../platform/store/lookups.ts";

export type { LookupKind, LookupRecord } from "../../platform/store/lookups.ts";

const FLUSH_MS = 1_000;
/**
 * Flush at once when this many wait, so a burst does not grow the buffer without bound. Each
 * flush holds the event loop while it writes: 500 rows is about half a millisecond, and under
 * full load plate lookups ran 4-12 % faster than with 2 000 (bench/notes.md).
 */
const FLUSH_AT = 500;
/** What is kept for a retry when the store refuses a flush (disk full); older records go first. */
const KEEP_ON_FAILURE = 50_000;

/**
 * Accountability records of lookups. A commit costs an fsync (synchronous=FULL), too much for
 * every attendant request, so records wait in memory and are written in one transaction about
 * once a second and at shutdown, committed without waiting for the disk. A crash can lose up to
 * a second or so of records; they are not acknowledged events, so nothing a client was promised
 * is lost.
 */
export class LookupRecorder {
  private buffer: LookupRecord[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private dropped = 0;

  constructor(
    private readonly store: Store,
    private readonly metrics?: Metrics,
  ) {}

  record(r: LookupRecord): void {
    this.metrics?.permitLookup(r.by);
    this.buffer.push(r);
    if (this.stopped || this.buffer.length >= FLUSH_AT) {
      this.flush();
      return;
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, FLUSH_MS);
    this.timer.unref?.();
  }

  /** Records waiting to be written. */
  get pending(): number {
    return this.buffer.length;
  }

  /** Writes what waits, in one transaction. Returns how many were written. */
  flush(): number {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.buffer.length === 0) return 0;
    const batch = this.buffer;
    this.buffer = [];
    try {
      this.store.lookups.append(batch);
      return batch.length;
    } catch (e) {
      const kept = batch.concat(this.buffer).slice(-KEEP_ON_FAILURE);
      this.dropped += batch.length + this.buffer.length - kept.length;
      this.buffer = kept;
      logError("lookup records could not be written; kept for retry", e, {
        pending: kept.length,
        dropped: this.dropped,
      });
      this.schedule();
      return 0;
    }
  }

  /** Flushes and writes every later record at once (for shutdown). */
  stop(): void {
    this.stopped = true;
    this.flush();
  }
}
