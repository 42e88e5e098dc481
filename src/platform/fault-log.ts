import { log } from "./log.ts";

/** At most one summary line a minute while a fault lasts. */
const SUMMARY_EVERY_MS = 60_000;

/**
 * The log of one fault that repeats while it lasts (a full disk, a read-only store, an office
 * out of reach): one line when it starts, then at most one summary a minute with how many
 * failures it has seen, and one line when it ends. An expected condition is logged with its
 * message only; an unexpected error keeps its stack, once.
 */
export class RepeatedFault {
  private since: number | null = null;
  private count = 0;
  private sinceSummary = 0;
  private lastSummaryAt = 0;
  private lastMessage = "";

  constructor(
    /** What failed, for the log lines: "lookup records could not be written". */
    private readonly what: string,
    private readonly now: () => number = Date.now,
  ) {}

  get failing(): boolean {
    return this.since !== null;
  }

  /** Failures seen since the fault started (0 when none is going on). */
  get failures(): number {
    return this.count;
  }

  failed(error: unknown, expected: boolean, fields: Record<string, unknown> = {}): void {
    const now = this.now();
    const message = error instanceof Error ? error.message : String(error);
    this.count++;
    this.sinceSummary++;
    if (this.since === null) {
      this.since = now;
      this.lastSummaryAt = now;
      this.sinceSummary = 0;
      this.lastMessage = message;
      const detail =
        expected || !(error instanceof Error)
          ? { error: message }
          : { error: { name: error.name, message, stack: error.stack } };
      log(expected ? "warning" : "error", this.what, { ...fields, ...detail });
      return;
    }
    if (now - this.lastSummaryAt < SUMMARY_EVERY_MS) return;
    log(expected ? "warning" : "error", `${this.what} (still failing)`, {
      ...fields,
      error: message,
      ...(message !== this.lastMessage ? { previousError: this.lastMessage } : {}),
      failures: this.count,
      failuresSinceLastLine: this.sinceSummary,
      failingForSeconds: Math.round((now - this.since) / 1000),
    });
    this.lastMessage = message;
    this.lastSummaryAt = now;
    this.sinceSummary = 0;
  }

  /** The fault is over: one line saying so, with how long it lasted and how many failures it saw. */
  recovered(fields: Record<string, unknown> = {}): void {
    if (this.since === null) return;
    log("notice", `${this.what}: recovered`, {
      ...fields,
      failures: this.count,
      failedForSeconds: Math.round((this.now() - this.since) / 1000),
    });
    this.since = null;
    this.count = 0;
    this.sinceSummary = 0;
  }
}
