/**
 * The long-lived answers open now (live zone feeds, kiosk boards): each registers how to end
 * itself, so that a shutdown ends them at once rather than waiting for their clients, and the
 * status page can count them. What changed for them is told by the store's one notice of writes
 * (Store.written), not here.
 */
export class OpenStreams {
  private closers = new Set<() => void>();

  /** Registers how to end one stream; returns the function that forgets it (when it ends by itself). */
  onClose(close: () => void): () => void {
    this.closers.add(close);
    return () => this.closers.delete(close);
  }

  /** Streams open now (the status page shows them). */
  get openReaders(): number {
    return this.closers.size;
  }

  /** Ends every stream, so that a shutdown does not wait for them. */
  close(): void {
    for (const close of [...this.closers]) close();
    this.closers.clear();
  }
}
