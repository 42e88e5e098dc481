import type { Database } from "bun:sqlite";
import { eq, sql } from "drizzle-orm";
import { excluded } from "./columns.ts";
import type { Db } from "./db.ts";
import { syncCursors } from "./schema/index.ts";

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
  private readonly one;
  private readonly put;

  constructor(
    private readonly sqlite: Database,
    db: Db,
  ) {
    this.one = db
      .select({ value: syncCursors.value, at: syncCursors.updatedAt })
      .from(syncCursors)
      .where(eq(syncCursors.stream, sql.placeholder("stream")))
      .prepare();
    this.put = db
      .insert(syncCursors)
      .values({
        stream: sql.placeholder("stream"),
        value: sql.placeholder("value"),
        updatedAt: sql.placeholder("at"),
      })
      .onConflictDoUpdate({
        target: syncCursors.stream,
        set: { value: excluded(syncCursors.value), updatedAt: excluded(syncCursors.updatedAt) },
      })
      .prepare();
  }

  get(stream: SyncStream): string | undefined {
    return this.one.get({ stream })?.value;
  }

  /** When a stream's cursor last moved (epoch ms); undefined before its first sync. */
  updatedAt(stream: SyncStream): number | undefined {
    return this.one.get({ stream })?.at;
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
        if (value !== undefined) this.put.run({ stream, value, at });
    })();
  }
}
