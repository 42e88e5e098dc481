/**
 * At most `size` tasks at once; the others wait their turn in arrival order. For work that costs
 * a lot of memory or CPU each (an argon2id check holds 64 MiB for a few hundred ms), so that a
 * burst of it queues instead of running all at once.
 */
export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  /** `maxWaiting`: how many may wait for a turn; `full` says when that many do. */
  constructor(
    readonly size: number,
    readonly maxWaiting = Number.POSITIVE_INFINITY,
  ) {}

  /** Tasks waiting for a turn. */
  get queued(): number {
    return this.waiting.length;
  }

  /** A task started now would wait behind `maxWaiting` others: the caller should refuse it. */
  get full(): boolean {
    return this.running >= this.size && this.waiting.length >= this.maxWaiting;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((turn) => this.waiting.push(turn));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next task; `running` only drops when none waits.
      if (next) next();
      else this.running--;
    }
  }
}
