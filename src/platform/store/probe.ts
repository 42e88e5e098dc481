import type { Database, Statement } from "bun:sqlite";

/**
 * The one owner of `store_probe`: rows rewritten to prove the store can still commit. Hand SQL:
 * readiness runs it on every probe, and `zeroblob()` pads the large row, which the builder has no word for.
 */
export class StoreProbe {
  private readonly write: Statement<void, [number]>;
  private readonly writeLarge: Statement<void, [number, number]>;

  constructor(sqlite: Database) {
    this.write = sqlite.prepare(
      "INSERT INTO store_probe (id, checked_at) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at",
    );
    this.writeLarge = sqlite.prepare(
      `INSERT INTO store_probe (id, checked_at, pad) VALUES (2, ?1, zeroblob(?2))
       ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at, pad = excluded.pad`,
    );
  }

  /** A real, synchronous commit; throws when the store cannot take one. */
  commit(now: number): void {
    this.write.run(now);
  }

  /**
   * A real, synchronous commit of `bytes` bytes: when a full disk still has room for a small
   * write (SQLite reuses the WAL's own space), this tells whether a request body fits again.
   */
  commitLarge(now: number, bytes: number): void {
    this.writeLarge.run(now, bytes);
  }
}
