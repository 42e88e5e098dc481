import { RepeatedFault } from "../../platform/fault-log.ts";
import type { Metrics } from "../../platform/metrics.ts";
import { isStoreUnavailable } from "../../platform/store/connection.ts";
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
/**
 * What waits in memory while the store refuses writes (disk full, read-only); past it the oldest
 * records are dropped, and counted. About 100 bytes each.
 */
const KEEP_ON_FAILURE = 50_000;
/** While the store refuses writes, a flush is tried this often, not on every new record. */
const RETRY_MS = 2_000;

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
  private readonly fault = new RepeatedFault(
    "lookup records could not be written; kept in memory for a retry",
  );

  constructor(
    private readonly store: Pick<Store, "lookups">,
    private readonly metrics?: Metrics,
  ) {}

  record(r: LookupRecord): void {
    this.metrics?.permitLookup(r.by);
    this.buffer.push(r);
    if (this.fault.failing) {
      // Retried on the timer only: a failing write on every lookup floods the log and the disk.
      if (this.buffer.length > KEEP_ON_FAILURE) this.drop(this.buffer.length - KEEP_ON_FAILURE);
      this.schedule(RETRY_MS);
      return;
    }
    if (this.stopped || this.buffer.length >= FLUSH_AT) {
      this.flush();
      return;
    }
    this.schedule();
  }

  private schedule(ms = FLUSH_MS): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, ms);
    this.timer.unref?.();
  }

  /** The records not yet written, oldest first: the newest lookups, for those who read them back. */
  waiting(): readonly LookupRecord[] {
    return this.buffer;
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
      this.fault.recovered({ written: batch.length });
      return batch.length;
    } catch (e) {
      this.buffer = batch.concat(this.buffer);
      if (this.buffer.length > KEEP_ON_FAILURE) this.drop(this.buffer.length - KEEP_ON_FAILURE);
      this.fault.failed(e, isStoreUnavailable(e), { pending: this.buffer.length });
      this.schedule(RETRY_MS);
      return 0;
    }
  }

  /** The oldest `n` waiting records go, counted in parkd_dropped_total{what="lookup_records"}. */
  private drop(n: number): void {
    this.buffer.splice(0, n);
    this.metrics?.dropped.add({ what: "lookup_records" }, n);
  }

  /** Flushes and writes every later record at once (for shutdown). */
  stop(): void {
    this.stopped = true;
    this.flush();
  }
}
