import type { Statement } from "bun:sqlite";
import type { Store } from "../../platform/store/db.ts";

/** Lot names for ticket notes; a lot id that names no lot leaves the note with the id alone. */
export class LotNames {
  private readonly byId: Statement<{ name: string }, [number]>;

  constructor(store: Store) {
    this.byId = store.sqlite.prepare("SELECT name FROM parking_lots WHERE id = ?1");
  }

  /** A per-request memo, so a zone with many tickets on one lot asks once. */
  lookup(): (id: number | null) => string | null {
    const memo = new Map<number, string | null>();
    return (id) => {
      if (id === null) return null;
      let name = memo.get(id);
      if (name === undefined) {
        name = this.byId.get(id)?.name ?? null;
        memo.set(id, name);
      }
      return name;
    };
  }
}
