/**
 * One in-process notifier of "this zone's permits may have changed", shared by every write path
 * (ticket intake, operator permits) and every reader that wants to know at once (the live zone
 * feed). Writers call `changed` after their commit; listeners are called on the next tick with
 * the set of zones touched since, so a burst of events in one zone costs one rebuild, not one
 * per event. `undefined` stands for "every zone" (a lot renamed, a write from another process).
 */
export type ZoneListener = (zones: ReadonlySet<number> | "all") => void;

export class ZoneChanges {
  private readonly listeners = new Set<ZoneListener>();
  private pending = new Set<number>();
  private all = false;
  private scheduled = false;
  private closers = new Set<() => void>();

  changed(zones: Iterable<number> | number | undefined): void {
    if (this.listeners.size === 0) return;
    if (zones === undefined) this.all = true;
    else if (typeof zones === "number") this.pending.add(zones);
    else for (const z of zones) this.pending.add(z);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.deliver());
  }

  private deliver(): void {
    this.scheduled = false;
    const zones: ReadonlySet<number> | "all" = this.all ? "all" : this.pending;
    this.pending = new Set();
    this.all = false;
    for (const listen of this.listeners) listen(zones);
  }

  /** Returns the function that stops listening. */
  listen(listener: ZoneListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Long-lived readers (event streams) register how to end themselves at shutdown. */
  onClose(close: () => void): () => void {
    this.closers.add(close);
    return () => this.closers.delete(close);
  }

  /** Long-lived readers open now (the status page shows them). */
  get openReaders(): number {
    return this.closers.size;
  }

  /** Ends every long-lived reader, so that a shutdown does not wait for open event streams. */
  close(): void {
    for (const close of [...this.closers]) close();
    this.closers.clear();
  }
}
