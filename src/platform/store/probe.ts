import type { Database, Statement } from "bun:sqlite";

/** The one owner of `store_probe`: a row rewritten to prove the store can still commit. */
export class StoreProbe {
  private readonly write: Statement<void, [number]>;

  constructor(sqlite: Database) {
    this.write = sqlite.prepare(
      "INSERT INTO store_probe (id, checked_at) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at",
    );
  }

  /** A real, synchronous commit; throws when the store cannot take one. */
  commit(now: number): void {
    this.write.run(now);
  }
}
