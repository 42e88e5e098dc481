/**
 * Big answers (the 500-lot list is ~600 KB) leave garbage faster than the engine collects it by
 * itself, and peak memory climbs past 200 MB under a busy mixed load. A full collection holds the
 * event loop for tens of ms, every request waiting behind it; so the keeper asks for one only
 * when the process has grown since what the last one left:
 * - below `high`, a concurrent collection on `growth`, at most every `everyMs` (a site's ordinary
 *   load never grows that much, and is never held up);
 * - above it, a full one on `highGrowth` when the process grows by that much a second (measured
 *   since the last look that was not held back by the wait), at most every `highEveryMs` after
 *   the last one ended: a load that makes garbage that fast pays a pause every second or two
 *   rather than the box's memory;
 * - from `ceiling` up, a full one on `highGrowth` whatever the pace: a process that grows slowly
 *   above `high` (a quiet site with its feeds open) is left to the engine's own collections up
 *   to there, rather than paused every few seconds for what the engine would collect anyway.
 * (docs/permits.md, bench/notes.md)
 */
export class MemoryKeeper {
  /** The resident size after the last collection (or at start). */
  private floor: number;
  /** A concurrent collection was asked for: the size at the next look is the new floor. */
  private settling = false;
  private last = Number.NEGATIVE_INFINITY;
  /** The size and time at the last look not held back by the wait: how fast the process grows. */
  private looked: number;
  private lookedAt: number;
  collections = 0;
  fullCollections = 0;

  constructor(
    private readonly opts: {
      rss: () => number;
      /** full: collect now, holding the loop; else ask for a concurrent collection. */
      collect: (full: boolean) => void;
      now: () => number;
      growth: number;
      everyMs: number;
      high: number;
      highGrowth: number;
      highEveryMs: number;
      ceiling: number;
    },
  ) {
    this.floor = opts.rss();
    this.looked = this.floor;
    this.lookedAt = opts.now();
  }

  /** Looks at the process's size; collects when it grew enough and the last collection is old enough. */
  tick(): void {
    const { rss, collect, now } = this.opts;
    // The collection asked for at the last look ran beside the loop: what is left is the floor.
    if (this.settling) {
      this.settling = false;
      this.floor = rss();
      this.look(this.floor);
      return;
    }
    const size = rss();
    // A process that shrank by itself sets the mark lower.
    if (size < this.floor) this.floor = size;
    const full = size > this.opts.high;
    if (size - this.floor < (full ? this.opts.highGrowth : this.opts.growth)) {
      this.look(size);
      return;
    }
    // Held back by the wait: what it grew meanwhile still counts at the next look.
    if (now() - this.last < (full ? this.opts.highEveryMs : this.opts.everyMs)) return;
    const perSecond = ((size - this.looked) * 1_000) / Math.max(now() - this.lookedAt, 1);
    if (full && perSecond < this.opts.highGrowth && size < this.opts.ceiling) {
      this.look(size);
      return;
    }
    collect(full);
    this.collections++;
    this.last = now();
    if (full) {
      this.fullCollections++;
      this.floor = rss();
      this.look(this.floor);
    } else this.settling = true;
  }

  private look(size: number): void {
    this.looked = size;
    this.lookedAt = this.opts.now();
  }
}

const MB = 1024 * 1024;

/**
 * The keeper `serve` runs: looks every second; a concurrent collection on 24 MB of growth at most
 * every 5 s; above 150 MB a full one when the process grows 8 MB a second, and from 180 MB on 8 MB
 * of growth whatever the pace, at most every second after the last one ended (with looks once a
 * second, that is every other look). (128 MB and 6 MB gave the same peak under the bench's
 * intake, which is live data, and cost the feed bench's p99; so did full collections on 8 MB of
 * growth over any time, every few seconds once 100 open feeds took a process past 150 MB.)
 */
export function startMemoryKeeper(): () => void {
  const keeper = new MemoryKeeper({
    rss: () => process.memoryUsage.rss(),
    collect: (full) => Bun.gc(full),
    now: () => performance.now(),
    growth: 24 * MB,
    everyMs: 5_000,
    high: 150 * MB,
    highGrowth: 8 * MB,
    highEveryMs: 1_000,
    ceiling: 180 * MB,
  });
  const timer = setInterval(() => keeper.tick(), 1_000);
  timer.unref();
  return () => clearInterval(timer);
}
