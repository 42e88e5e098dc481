/**
 * At most `size` tasks at once, the others waiting for a turn, fair between parties (the client
 * addresses that asked): for work that costs a lot of memory or CPU each (an argon2id check holds
 * 64 MiB for a few hundred ms), so that a burst of it queues instead of running all at once, and
 * so that one party sending many cannot make another wait behind it.
 *
 * - Each party has a weight: what the caller charged it lately (`charge`: for the password
 *   checks, each one that failed), a count that halves every `halfLifeMs`. A party's tasks that
 *   succeed weigh nothing, so terminals behind one address that all start at once are not held
 *   back for their number.
 * - A turn goes to the waiting task whose party weighs least, the earliest first among equals: a
 *   party that failed once goes before one that failed a hundred times this minute.
 * - With `maxWaiting` tasks waiting, a newcomer whose party weighs less than the heaviest waiting
 *   party takes the place of that party's latest task (which is refused with `busy`); else the
 *   newcomer is refused.
 */
export class Gate {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private readonly usage = new Map<string, { value: number; at: number }>();
  private arrivals = 0;
  private readonly now: () => number;
  private readonly halfLifeMs: number;
  private readonly maxParties: number;

  /** `maxWaiting`: how many may wait for a turn; `busy`: what a refused task rejects with. */
  constructor(
    readonly size: number,
    readonly maxWaiting: number,
    private readonly busy: () => unknown,
    opts: { now?: () => number; halfLifeMs?: number; maxParties?: number } = {},
  ) {
    this.now = opts.now ?? performance.now.bind(performance);
    this.halfLifeMs = opts.halfLifeMs ?? 60_000;
    this.maxParties = opts.maxParties ?? 10_000;
  }

  /** Tasks waiting for a turn. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Every place is taken: a task started now waits, or is refused unless its party is lighter. */
  get full(): boolean {
    return this.running >= this.size && this.waiting.length >= this.maxWaiting;
  }

  /** Runs `task` for `party` now or at its turn; rejects with `busy()` when it is refused. */
  async run<T>(party: string, task: () => Promise<T>): Promise<T> {
    if (this.running < this.size) this.running++;
    else await this.turn(party);
    try {
      return await task();
    } finally {
      this.handOver();
    }
  }

  private turn(party: string): Promise<void> {
    if (this.waiting.length >= this.maxWaiting) {
      const mine = this.used(party);
      let heaviest: Waiter | undefined;
      let most = -1;
      for (const w of this.waiting) {
        const used = this.used(w.party);
        // The latest arrival among equals gives way: it has waited the least.
        if (used >= most) {
          heaviest = w;
          most = used;
        }
      }
      if (!heaviest || most <= mine) return Promise.reject(this.busy());
      this.waiting.splice(this.waiting.indexOf(heaviest), 1);
      heaviest.refuse(this.busy());
    }
    return new Promise<void>((start, refuse) =>
      this.waiting.push({ party, order: this.arrivals++, start, refuse }),
    );
  }

  /** The slot passes straight to the lightest waiting party's task; `running` drops when none waits. */
  private handOver(): void {
    if (this.waiting.length === 0) {
      this.running--;
      return;
    }
    let next = this.waiting[0]!;
    let least = this.used(next.party);
    for (const w of this.waiting) {
      const used = this.used(w.party);
      if (used < least || (used === least && w.order < next.order)) {
        next = w;
        least = used;
      }
    }
    this.waiting.splice(this.waiting.indexOf(next), 1);
    next.start();
  }

  /** What `party` was charged lately, decayed to now. */
  private used(party: string): number {
    const u = this.usage.get(party);
    if (!u) return 0;
    return u.value * 2 ** (-(this.now() - u.at) / this.halfLifeMs);
  }

  /** Adds `amount` to `party`'s weight (for the password checks: a check that failed). */
  charge(party: string, amount = 1): void {
    const value = this.used(party) + amount;
    this.usage.delete(party);
    // The party charged longest ago goes first past the bound: its weight has decayed the most.
    if (this.usage.size >= this.maxParties) this.usage.delete(this.usage.keys().next().value!);
    this.usage.set(party, { value, at: this.now() });
  }
}

interface Waiter {
  party: string;
  order: number;
  start: () => void;
  refuse: (reason: unknown) => void;
}
