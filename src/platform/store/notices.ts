import type { Database } from "bun:sqlite";
import {
  and,
  asc,
  count,
  countDistinct,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  notExists,
  notInArray,
  or,
  sql,
} from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { NoticeVerdict } from "../../domain/notices/rules.ts";
import type { NoticeFacts, PhotoFacts } from "../../domain/notices/view.ts";
import { ROWID } from "./columns.ts";
import type { Db } from "./db.ts";
import { noticeCounters, noticePhotos, noticeReasons, notices } from "./schema/index.ts";

/**
 * The one owner of `notice_reasons`, `notices`, `notice_photos` and `notice_counters`: the site's
 * control notices, their photos' records (the files are PhotoFiles'), and the reasons and
 * amounts they are issued under. Through drizzle's builder: an attendant issues a notice a few
 * times an hour, and the operator's console reads them.
 */

/** A type, not an interface: bun:sqlite binds it as named parameters. */
export type StoredReason = {
  code: string;
  title: string;
  amount: number;
  active: boolean;
  verdicts: NoticeVerdict[];
  createdAt: number;
  updatedAt: number;
};

type MarkFacts = Pick<NoticeFacts, "markSeenAt" | "markLimitSeconds" | "markedBy">;

/** What issuing stores; the number and the void fields are the store's to fill (a mark: none unless given). */
export type NoticeValues = Omit<
  NoticeFacts,
  "number" | "voidedAt" | "voidedBy" | "voidReason" | keyof MarkFacts
> &
  Partial<MarkFacts> & { plateNorm: string };

export type StoredNotice = NoticeFacts & { plateNorm: string; syncSeq: number };

export type StoredPhoto = PhotoFacts & { noticeId: string; addedAt: number };

/** A notice as the office sync sends it: with the records of its photos. */
export type SyncedNotice = StoredNotice & { photos: StoredPhoto[] };

/** A photo the office sync may send, in the order it goes: by its notice's sync_seq, then hash. */
export type SyncedPhoto = StoredPhoto & { syncSeq: number };

/** What the operator narrows the notices to; every field optional. */
export interface NoticeFilter {
  plate?: string;
  /** A credential label, e.g. token:handheld-1. */
  issuedBy?: string;
  reason?: string;
  state?: "issued" | "voided";
  /** Inclusive lower bound on issued_at (ms). */
  from?: number;
  /** Exclusive upper bound on issued_at (ms). */
  to?: number;
}

/** Newest first by number; the plate, attendant and reason filters each follow an index. */
function noticeFilter(filter: NoticeFilter, before: number) {
  return and(
    lt(notices.number, before),
    filter.plate === undefined ? undefined : eq(notices.plateNorm, filter.plate),
    filter.issuedBy === undefined ? undefined : eq(notices.issuedBy, filter.issuedBy),
    filter.reason === undefined ? undefined : eq(notices.reasonCode, filter.reason),
    filter.state === "issued" ? isNull(notices.voidedAt) : undefined,
    filter.state === "voided" ? isNotNull(notices.voidedAt) : undefined,
    filter.from === undefined ? undefined : gte(notices.issuedAt, filter.from),
    filter.to === undefined ? undefined : lt(notices.issuedAt, filter.to),
  );
}

/** Issued, and voided if it was, before the cutoff: what retention deletes. */
const endedBefore = (cutoff: number) =>
  and(lt(notices.issuedAt, cutoff), or(isNull(notices.voidedAt), lt(notices.voidedAt, cutoff)));

export class NoticeRecords {
  constructor(
    private readonly sqlite: Database,
    private readonly db: Db,
  ) {}

  reasons(): StoredReason[] {
    return this.db.select().from(noticeReasons).orderBy(asc(noticeReasons.code)).all();
  }

  reason(code: string): StoredReason | null {
    return this.db.select().from(noticeReasons).where(eq(noticeReasons.code, code)).get() ?? null;
  }

  addReason(r: StoredReason): void {
    this.db.insert(noticeReasons).values(r).run();
  }

  changeReason(r: Omit<StoredReason, "createdAt">): void {
    const { code, ...changed } = r;
    this.db.update(noticeReasons).set(changed).where(eq(noticeReasons.code, code)).run();
  }

  get(id: string): StoredNotice | null {
    return this.db.select().from(notices).where(eq(notices.id, id)).get() ?? null;
  }

  getByNumber(n: number): StoredNotice | null {
    return this.db.select().from(notices).where(eq(notices.number, n)).get() ?? null;
  }

  /**
   * Stores a notice with the site's next number. Call it inside an immediate transaction with the
   * check that the id is new: the number is taken in the same commit, so a refused or rolled-back
   * notice leaves no gap.
   */
  insert(values: NoticeValues): StoredNotice {
    const row: StoredNotice = {
      markSeenAt: null,
      markLimitSeconds: null,
      markedBy: null,
      ...values,
      number: this.next("number"),
      voidedAt: null,
      voidedBy: null,
      voidReason: null,
      syncSeq: this.next("sync"),
    };
    this.db.insert(notices).values(row).run();
    return row;
  }

  /** Marks a notice void; false when it already was (or is not there). */
  markVoided(id: string, at: number, by: string, reason: string): boolean {
    const changed = this.db
      .update(notices)
      .set({ voidedAt: at, voidedBy: by, voidReason: reason, syncSeq: this.next("sync") })
      .where(and(eq(notices.id, id), isNull(notices.voidedAt)))
      .returning({ id: notices.id })
      .all();
    return changed.length === 1;
  }

  photos(noticeId: string): StoredPhoto[] {
    return this.db
      .select()
      .from(noticePhotos)
      .where(eq(noticePhotos.noticeId, noticeId))
      .orderBy(ROWID)
      .all();
  }

  /** Keeps a photo's record; the notice goes to the office again with its photos' hashes. */
  addPhoto(p: StoredPhoto): void {
    this.db.insert(noticePhotos).values(p).run();
    this.db
      .update(notices)
      .set({ syncSeq: this.next("sync") })
      .where(eq(notices.id, p.noticeId))
      .run();
  }

  /**
   * Deletes up to `batch` notices issued, and voided if they were, before the cutoff, with their
   * photos' records, in one transaction; returns how many, and the hashes no notice holds any
   * more, whose files the caller removes once this has committed.
   */
  deleteBefore(cutoff: number, batch: number): { notices: number; unheld: string[] } {
    return this.sqlite
      .transaction(() => {
        const ids = this.db
          .select({ id: notices.id })
          .from(notices)
          .where(endedBefore(cutoff))
          .orderBy(asc(notices.issuedAt))
          .limit(batch)
          .all()
          .map((r) => r.id);
        if (ids.length === 0) return { notices: 0, unheld: [] };
        // Set-wise, not notice by notice: the transaction holds the store's one write lock, which
        // serve's ticket events wait on.
        const hashes = this.db
          .selectDistinct({ hash: noticePhotos.hash })
          .from(noticePhotos)
          .where(inArray(noticePhotos.noticeId, ids))
          .all()
          .map((r) => r.hash);
        this.db.delete(noticePhotos).where(inArray(noticePhotos.noticeId, ids)).run();
        this.db.delete(notices).where(inArray(notices.id, ids)).run();
        return { notices: ids.length, unheld: hashes.filter((h) => this.photoUses(h) === 0) };
      })
      .immediate();
  }

  /** How many notices deleteBefore would delete, and how many photo files go with them. */
  countBefore(cutoff: number): { notices: number; photos: number } {
    const old = () => this.db.select({ id: notices.id }).from(notices).where(endedBefore(cutoff));
    const other = alias(noticePhotos, "other");
    const n = this.db.select({ n: count() }).from(notices).where(endedBefore(cutoff)).get()?.n ?? 0;
    // A file goes when every notice that holds it goes.
    const photos =
      this.db
        .select({ n: countDistinct(noticePhotos.hash) })
        .from(noticePhotos)
        .where(
          and(
            inArray(noticePhotos.noticeId, old()),
            notExists(
              this.db
                .select({ hash: other.hash })
                .from(other)
                .where(and(eq(other.hash, noticePhotos.hash), notInArray(other.noticeId, old()))),
            ),
          ),
        )
        .get()?.n ?? 0;
    return { notices: n, photos };
  }

  /** Every photo file the notices hold, each hash once (a backup carries these files). */
  photoHashes(): string[] {
    return this.db
      .selectDistinct({ hash: noticePhotos.hash })
      .from(noticePhotos)
      .orderBy(asc(noticePhotos.hash))
      .all()
      .map((r) => r.hash);
  }

  /** How many notices hold a file with this hash (a file is removed when none does). */
  photoUses(hash: string): number {
    return this.db.select({ n: count() }).from(noticePhotos).where(eq(noticePhotos.hash, hash)).get()?.n ?? 0;
  }

  page(filter: NoticeFilter, before: number | undefined, limit: number): StoredNotice[] {
    return this.db
      .select()
      .from(notices)
      .where(noticeFilter(filter, before ?? Number.MAX_SAFE_INTEGER))
      .orderBy(desc(notices.number))
      .limit(limit)
      .all();
  }

  /**
   * The notices written (issued, voided, given a photo) after the sync cursor, in the order they
   * were written, each with its photos' records: one snapshot when called inside a transaction.
   */
  syncAfter(seq: number, limit: number): SyncedNotice[] {
    return this.db
      .select()
      .from(notices)
      .where(gt(notices.syncSeq, seq))
      .orderBy(asc(notices.syncSeq))
      .limit(limit)
      .all()
      .map((n) => ({ ...n, photos: this.photos(n.id) }));
  }

  /**
   * The photos after (seq, hash) of the notices at or below `upTo` (the rows the office holds
   * already), in (sync_seq, hash) order. A notice written again moves past the cursor with all its
   * photos: the caller skips the ones the office has.
   */
  photosAfter(after: { seq: number; hash: string }, upTo: number, limit: number): SyncedPhoto[] {
    return this.db
      .select({ ...getTableColumns(noticePhotos), syncSeq: notices.syncSeq })
      .from(noticePhotos)
      .innerJoin(notices, eq(notices.id, noticePhotos.noticeId))
      .where(
        and(
          sql`(${notices.syncSeq}, ${noticePhotos.hash}) > (${after.seq}, ${after.hash})`,
          lte(notices.syncSeq, upTo),
        ),
      )
      .orderBy(asc(notices.syncSeq), asc(noticePhotos.hash))
      .limit(limit)
      .all();
  }

  /** The highest notice number and sync sequence this store ever handed out (retention keeps them). */
  lastIds(): { number: number; sync: number } {
    const q = this.db.select().from(noticeCounters).all();
    const of = (name: string) => q.find((r) => r.name === name)?.last ?? 0;
    return { number: of("number"), sync: of("sync") };
  }

  /**
   * New notices get numbers, and writes sync sequences, above these: after the store was restored
   * from an older backup, the office holds numbers this store would hand out again.
   */
  continueAfter(ids: { number: number; sync: number }): void {
    this.db.transaction((tx) => {
      for (const [name, last] of [
        ["number", ids.number],
        ["sync", ids.sync],
      ] as const)
        tx.insert(noticeCounters)
          .values({ name, last })
          .onConflictDoUpdate({
            target: noticeCounters.name,
            set: { last: sql`max(${noticeCounters.last}, excluded.last)` },
          })
          .run();
    });
  }

  private next(name: "number" | "sync"): number {
    return this.db
      .insert(noticeCounters)
      .values({ name, last: 1 })
      .onConflictDoUpdate({ target: noticeCounters.name, set: { last: sql`${noticeCounters.last} + 1` } })
      .returning({ last: noticeCounters.last })
      .get().last;
  }
}
