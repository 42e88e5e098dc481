/**
 * Past this many tickets written since the last take, the notes stop keeping their ids and say
 * so: a reader then reads its whole set again, which costs less than reading each of them, and
 * a box whose tickets nobody looks up (intake at night, no attendant) keeps no growing list.
 */
export const MAX_NOTED_TICKETS = 20_000;

/** What WrittenRows.take() hands over: the ids written since the last take. */
export interface Written {
  tickets: Set<string>;
  /** More tickets were written than MAX_NOTED_TICKETS: `tickets` is not all of them. */
  tooMany: boolean;
  permits: Set<number>;
  office: Set<number>;
  /** A parking lot was written (answers carry lot names). */
  lots: boolean;
}

const none = (): Written => ({
  tickets: new Set(),
  tooMany: false,
  permits: new Set(),
  office: new Set(),
  lots: false,
});

/**
 * The store's one source of what changed, for every reader that keeps a copy or an answer (the
 * enforcement module's read model, the public lot reads, the lots' names): each repository notes
 * the id of every ticket, permit and office permit it writes, and that a lot changed, in the same
 * call as the write; another process's commits (a CLI command on the same file) are seen by
 * `PRAGMA data_version`, which `others()` reads. A note is only ever a hint to read again: one
 * from a write rolled back reads the row as it still is.
 */
export class WrittenRows {
  private notes = none();
  /** Moves with every note: a reader that saw this value has nothing new to take. */
  serial = 0;
  /** Moves with every lot written by this process (whoever took the notes). */
  lotWrites = 0;
  private readonly listeners = new Set<() => void>();
  private scheduled = false;
  private othersSeen = -1;
  private othersReadAt = Number.NEGATIVE_INFINITY;

  /** `dataVersion`: the store's PRAGMA data_version, never repeating across reopenings. */
  constructor(private readonly dataVersion: () => number = () => 0) {}

  /**
   * Moves with another connection's commit. The pragma costs a few µs, more than the rest of a
   * plate lookup: it is read again only when the last reading is older than `maxAgeMs`
   * (monotonic); 0 reads it now. Every reader shares the one reading.
   */
  others(maxAgeMs = 0): number {
    const at = performance.now();
    if (maxAgeMs === 0 || at - this.othersReadAt >= maxAgeMs) {
      this.othersReadAt = at;
      this.othersSeen = this.dataVersion();
    }
    return this.othersSeen;
  }

  /** A version of the lots, read fresh: equal versions, equal lots. */
  lotsVersion(): string {
    return `${this.others()}:${this.lotWrites}`;
  }

  ticket(id: string): void {
    const notes = this.notes;
    if (!notes.tooMany) {
      notes.tickets.add(id);
      if (notes.tickets.size > MAX_NOTED_TICKETS) {
        notes.tooMany = true;
        notes.tickets.clear();
      }
    }
    this.moved();
  }

  permit(id: number): void {
    this.notes.permits.add(id);
    this.moved();
  }

  officePermit(id: number): void {
    this.notes.office.add(id);
    this.moved();
  }

  /** A car was marked: what the saved lists hold changed (no copy reads observations again). */
  observation(): void {
    this.moved();
  }

  lots(): void {
    this.lotWrites++;
    this.notes.lots = true;
    this.moved();
  }

  /** The notes since the last take. */
  take(): Written {
    const taken = this.notes;
    this.notes = none();
    return taken;
  }

  /**
   * `listener` runs on the next turn of the event loop after writes (once for a burst): by then
   * the transaction that made them has ended. Returns the function that stops it.
   */
  onWrite(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private moved(): void {
    this.serial++;
    if (this.scheduled || this.listeners.size === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      for (const listen of this.listeners) listen();
    });
  }
}
