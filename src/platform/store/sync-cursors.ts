import type { Database, Statement } from "bun:sqlite";

/**
 * The one owner of `sync_cursors`: how far the sync with the office got, one value per stream
 * ("events", "lookups", "notices" and "observations": the last seq/id the office stored, a
 * notice's being its sync_seq; "photos": "seq:hash", the last notice photo whose file the office
 * took; "lots": a fingerprint of the lots last sent; "permits": the office's transaction horizon
 * of the last pull), and "box": this
 * store's own random id, by which the office tells two boxes given the same site id apart.
 */
export type SyncStream =
  | "events"
  | "lookups"
  | "lots"
  | "permits"
  | "box"
  | "notices"
  | "observations"
  | "photos";

/** The streams whose cursor is a number: the last seq or id the office stored. */
export type CountedStream = "events" | "lookups" | "notices" | "observations";

export class SyncCursors {
  private readonly one: Statement<{ value: string }, [string]>;
  private readonly put: Statement<void, [string, string, number]>;

  constructor(private readonly sqlite: Database) {
    this.one = sqlite.prepare("SELECT value FROM sync_cursors WHERE stream = ?1");
    this.put = sqlite.prepare(
      `INSERT INTO sync_cursors (stream, value, updated_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (stream) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    );
  }

  get(stream: SyncStream): string | undefined {
    return this.one.get(stream)?.value;
  }

  /** When a stream's cursor last moved (epoch ms); undefined before its first sync. */
  updatedAt(stream: SyncStream): number | undefined {
    return (
      this.sqlite
        .query<{ at: number }, [string]>("SELECT updated_at AS at FROM sync_cursors WHERE stream = ?1")
        .get(stream)?.at ?? undefined
    );
  }

  /** A number cursor; 0 before the first push. */
  position(stream: CountedStream): number {
    const v = this.get(stream);
    return v === undefined || v === "" ? 0 : Number(v);
  }

  /** Stores several together (in one transaction unless the caller has one open). */
  set(values: Partial<Record<SyncStream, string>>, at: number): void {
    this.sqlite.transaction(() => {
      for (const [stream, value] of Object.entries(values))
        if (value !== undefined) this.put.run(stream, value, at);
    })();
  }
}
