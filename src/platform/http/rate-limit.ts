/**
 * Counts failed authentications per peer address in a fixed window. Past the limit the
 * address gets 429 until the window ends, whether or not its next guess would be right.
 */
export class FailureLimiter {
  private readonly entries = new Map<string, { count: number; windowStart: number }>();
  private readonly max: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(opts: { max?: number; windowMs?: number; now?: () => number } = {}) {
    this.max = opts.max ?? 10;
    this.windowMs = opts.windowMs ?? 60_000;
    this.now = opts.now ?? Date.now;
  }

  /** Seconds the address must wait, or 0 when it may try. */
  blockedFor(ip: string): number {
    const e = this.entries.get(ip);
    if (!e) return 0;
    const elapsed = this.now() - e.windowStart;
    if (elapsed >= this.windowMs) {
      this.entries.delete(ip);
      return 0;
    }
    return e.count >= this.max ? Math.ceil((this.windowMs - elapsed) / 1000) : 0;
  }

  /** Counts a failure; true when this one locks the address out (once per window). */
  fail(ip: string): boolean {
    const now = this.now();
    const e = this.entries.get(ip);
    if (!e || now - e.windowStart >= this.windowMs) {
      if (this.entries.size >= 10_000) this.prune(now);
      this.entries.set(ip, { count: 1, windowStart: now });
      return this.max <= 1;
    }
    e.count++;
    return e.count === this.max;
  }

  /** Seconds until the window of this address ends. */
  windowLeft(ip: string): number {
    const e = this.entries.get(ip);
    return e ? Math.max(0, Math.ceil((this.windowMs - (this.now() - e.windowStart)) / 1000)) : 0;
  }

  get limit(): number {
    return this.max;
  }

  private prune(now: number): void {
    for (const [ip, e] of this.entries) if (now - e.windowStart >= this.windowMs) this.entries.delete(ip);
  }
}
