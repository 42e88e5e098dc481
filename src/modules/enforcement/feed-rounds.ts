import type { RepeatedFault } from "../../platform/fault-log.ts";
import { isStoreUnavailable } from "../../platform/store/db.ts";

/**
 * Permits also start and end with the clock, and another process (the CLI) may write: once a
 * second each watched zone's answer is asked again. That costs one version check per zone (the
 * answer is reused while nothing changed), whatever the number of subscribers.
 */
const CLOCK_MS = 1_000;

/**
 * After a write, the feeds wait this long for more before the round that asks each watched zone
 * again: at a busy site's intake (150 events a second) a round per write would make one version
 * check per watched zone per event, and one event per change where a few changes can go as one.
 */
const GATHER_MS = 50;

/** A round's slice: how long the feeds hold the event loop before letting requests in. */
const SLICE_MS = 0.5;

export interface RoundWork {
  /** The zones watched now. */
  zones(): Iterable<number>;
  /** Asks one zone's list again and sends what changed (nothing when it is no longer watched). */
  refresh(zone: number): void;
  /** Runs a slice with one look for another process's commits (PermitLookups.inOneRound). */
  inOneRound(slice: () => void): void;
  /** Where a round that cannot read the store says so, once while it lasts. */
  fault: RepeatedFault;
  /** The store's notice of this process's writes; returns how to stop listening. */
  onWrite(listener: () => void): () => void;
}

/**
 * When the live feeds ask their zones again: after writes (gathered for `gatherMs`) and every
 * second. A round runs in slices of about SLICE_MS with a turn of the event loop between them,
 * so that a request arriving during a round waits for one slice, not for every watched zone; a
 * round asked for while one runs follows it.
 */
export class FeedRounds {
  private clock: ReturnType<typeof setInterval> | undefined;
  private gathering: ReturnType<typeof setTimeout> | undefined;
  private stopListening: (() => void) | undefined;
  /** The round under way; `again` when another was asked for meanwhile. */
  private round: { again: boolean; failures: number; generation: number } | undefined;
  /** Moves at each stop, so that slices of a round from before it end. */
  private generation = 0;

  constructor(
    private readonly work: RoundWork,
    private readonly gatherMs = GATHER_MS,
  ) {}

  get running(): boolean {
    return this.clock !== undefined;
  }

  start(): void {
    if (this.clock) return;
    this.clock = setInterval(() => this.all(), CLOCK_MS);
    this.clock.unref?.();
    this.stopListening = this.work.onWrite(() => {
      if (this.gathering) return;
      this.gathering = setTimeout(() => {
        this.gathering = undefined;
        this.all();
      }, this.gatherMs);
    });
  }

  stop(): void {
    // A round under way ends at its next slice: nothing is watched any more.
    this.round = undefined;
    this.generation++;
    clearInterval(this.clock);
    this.clock = undefined;
    this.stopListening?.();
    this.stopListening = undefined;
    clearTimeout(this.gathering);
    this.gathering = undefined;
  }

  /** A round over every watched zone. */
  all(): void {
    if (this.round) {
      this.round.again = true;
      return;
    }
    this.round = { again: false, failures: this.work.fault.failures, generation: this.generation };
    this.slice([...this.work.zones()], 0);
  }

  private slice(zones: number[], from: number): void {
    const round = this.round;
    if (!round || round.generation !== this.generation) return;
    const { fault } = this.work;
    let next = from;
    try {
      this.work.inOneRound(() => {
        const started = performance.now();
        while (next < zones.length) {
          this.work.refresh(zones[next++]!);
          if (performance.now() - started > SLICE_MS) break;
        }
      });
    } catch (e) {
      fault.failed(e, isStoreUnavailable(e));
      next = zones.length;
    }
    if (next < zones.length) {
      setImmediate(() => this.slice(zones, next));
      return;
    }
    this.round = undefined;
    if (fault.failures === round.failures) fault.recovered();
    // The next round after a turn of the event loop too, not straight after this slice.
    if (round.again) setImmediate(() => this.all());
  }
}
