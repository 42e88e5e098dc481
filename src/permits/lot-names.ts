import type { Statement } from "bun:sqlite";
import type { Store } from "../store/db.ts";

/**
 * Lot names for ticket notes. Parking lots are their own feature and may not be in this store's
 * schema; when `parking_lots (id, name)` is missing the note carries the lot id alone.
 */
export class LotNames {
  private readonly byId: Statement<{ name: string | null }, [number]> | null;

  constructor(store: Store) {
    this.byId = null;
    try {
      const columns = store.sqlite.query("SELECT name FROM pragma_table_info('parking_lots')").all() as {
        name: string;
      }[];
      const names = new Set(columns.map((c) => c.name));
      if (names.has("id") && names.has("name"))
        this.byId = store.sqlite.prepare("SELECT name FROM parking_lots WHERE id = ?1");
    } catch {
      this.byId = null;
    }
  }

  /** A per-request memo, so a zone with many tickets on one lot asks once. */
  lookup(): (id: number | null) => string | null {
    const memo = new Map<number, string | null>();
    return (id) => {
      if (id === null || !this.byId) return null;
      let name = memo.get(id);
      if (name === undefined) {
        try {
          name = this.byId.get(id)?.name ?? null;
        } catch {
          name = null;
        }
        memo.set(id, name);
      }
      return name;
    };
  }
}
