/**
 * One budget for the output all connections hold in memory, waiting for their clients to read
 * it: answers copied for a connection (a shared body, sharedBodyResponse, is held once by its
 * cache and not counted). Past the budget the connections whose output has waited the longest,
 * the slowest readers, are cut until it is back under: 192 non-reading clients of a 14 MB answer
 * held 2.7 GB before there was one.
 */
export interface BudgetHolder {
  /** Bytes this connection holds (see Connection). */
  readonly held: number;
  /** performance.now() since when output has waited for the client (null: none waits). */
  readonly waitingSince: number | null;
  destroy(reason?: string): unknown;
}

/** serve's budget: far above what a site's handhelds read at once, far below a box's memory. */
export const OUTPUT_BUDGET_BYTES = 64 * 1024 * 1024;

export class OutputBudget {
  private readonly holders = new Set<BudgetHolder>();
  total = 0;

  constructor(
    readonly limit: number,
    private readonly cut: (holder: BudgetHolder) => void,
  ) {}

  /** `holder` holds `delta` bytes more (less when negative); over the budget, others are cut. */
  change(holder: BudgetHolder, delta: number): void {
    this.total += delta;
    if (holder.held > 0) this.holders.add(holder);
    else this.holders.delete(holder);
    if (delta > 0 && this.total > this.limit) this.cutSlowest(holder);
  }

  private cutSlowest(keep: BudgetHolder): void {
    // The one writing now is let be: an answer alone larger than the budget still goes out.
    const slowest = [...this.holders]
      .filter((h) => h !== keep)
      .sort(
        (a, b) => (a.waitingSince ?? Number.POSITIVE_INFINITY) - (b.waitingSince ?? Number.POSITIVE_INFINITY),
      );
    for (const holder of slowest) {
      if (this.total <= this.limit) return;
      this.cut(holder);
    }
  }
}
