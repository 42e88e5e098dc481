/**
 * Big answers (the 500-lot list is ~600 KB) leave garbage faster than the engine collects it by
 * itself, and peak memory climbs past 200 MB under a busy mixed load. A forced full collection
 * holds the event loop for tens of ms, every request waiting behind it; so the keeper asks for a
 * concurrent one, and only when the process has grown since the last, at most every `everyMs`
 * (docs/permits.md, bench/results.md).
 */
export class MemoryKeeper {
  /** The resident size after the last collection (or at start). */
  private floor: number;
  /** A collection was asked for: the size at the next look is the new floor. */
  private settling = false;
  private last = Number.NEGATIVE_INFINITY;
  collections = 0;

  constructor(
    private readonly opts: {
      rss: () => number;
      collect: () => void;
      now: () => number;
      /** Growth, in bytes, that asks for a collection. */
      growth: number;
      everyMs: number;
    },
  ) {
    this.floor = opts.rss();
  }

  /** Looks at the process's size; collects when it grew enough and the last collection is old enough. */
  tick(): void {
    const { rss, collect, now, growth, everyMs } = this.opts;
    // The collection asked for at the last look ran beside the loop: what is left is the floor.
    if (this.settling) {
      this.settling = false;
      this.floor = rss();
      return;
    }
    if (now() - this.last < everyMs) return;
    const size = rss();
    // A process that shrank by itself sets the mark lower.
    if (size < this.floor) this.floor = size;
    if (size - this.floor < growth) return;
    collect();
    this.collections++;
    this.last = now();
    this.settling = true;
  }
}

/** The keeper `serve` runs: looks every second, asks for a collection on 24 MB of growth, at most every 5 s. */
export function startMemoryKeeper(): () => void {
  const keeper = new MemoryKeeper({
    rss: () => process.memoryUsage.rss(),
    collect: () => Bun.gc(false),
    now: () => performance.now(),
    growth: 24 * 1024 * 1024,
    everyMs: 5_000,
  });
  const timer = setInterval(() => keeper.tick(), 1_000);
  timer.unref();
  return () => clearInterval(timer);
}
