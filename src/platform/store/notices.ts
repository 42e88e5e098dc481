import type { Database, Statement } from "bun:sqlite";
import type { NoticeFacts, PhotoFacts } from "../../domain/notices/view.ts";
import { columnList, insertColumns } from "./columns.ts";
import { noticePhotos, noticeReasons, notices } from "./schema/index.ts";

/**
 * The one owner of `notice_reasons`, `notices`, `notice_photos` and `notice_counters`: the site's
 * control notices, their photos' records (the files are PhotoFiles'), and the reasons and
 * amounts they are issued under.
 */

/** A type, not an interface: bun:sqlite binds it as named parameters. */
export type StoredReason = {
  code: string;
  title: string;
  amount: number;
  active: boolean;
  createdAt: number;
  updatedAt: number;
};

/** What issuing stores; the number and the void fields are the store's to fill. */
export type NoticeValues = Omit<NoticeFacts, "number" | "voidedAt" | "voidedBy" | "voidReason"> & {
  plateNorm: string;
};

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

type Params = Record<string, string | number>;

const NOTICE_COLUMNS = columnList(notices);
const PHOTO_COLUMNS = columnList(noticePhotos);
const REASON_COLUMNS = columnList(noticeReasons);
/** The photo columns read through the alias `p` (joined with its notice). */
const PHOTO_COLUMNS_OF_P = PHOTO_COLUMNS.split(", ")
  .map((c) => `p.${c}`)
  .join(", ");

/** Newest first by number; the plate, attendant and reason filters each follow an index. */
export function noticePageSql(filter: NoticeFilter): string {
  const where = ["number < $before"];
  if (filter.plate !== undefined) where.push("plate_norm = $plate");
  if (filter.issuedBy !== undefined) where.push("issued_by = $issuedBy");
  if (filter.reason !== undefined) where.push("reason_code = $reason");
  if (filter.state === "issued") where.push("voided_at IS NULL");
  if (filter.state === "voided") where.push("voided_at IS NOT NULL");
  if (filter.from !== undefined) where.push("issued_at >= $from");
  if (filter.to !== undefined) where.push("issued_at < $to");
  return `SELECT ${NOTICE_COLUMNS} FROM notices WHERE ${where.join(" AND ")} ORDER BY number DESC LIMIT $limit`;
}

type NoticeRow = Omit<StoredNotice, never>;
type ReasonRow = Omit<StoredReason, "active"> & { active: number };

const reasonOf = (r: ReasonRow): StoredReason => ({ ...r, active: r.active === 1 });

export class NoticeRecords {
  private readonly pages = new Map<string, Statement<NoticeRow, [Params]>>();
  private readonly byId: Statement<NoticeRow, [string]>;
  private readonly byNumber: Statement<NoticeRow, [number]>;
  private readonly insertNotice: Statement<void, [StoredNotice]>;
  private readonly bumpCounter: Statement<{ last: number }, [string]>;
  private readonly markVoid: Statement<void, [Params]>;
  private readonly photosOf: Statement<StoredPhoto, [string]>;
  private readonly insertPhoto: Statement<void, [StoredPhoto]>;
  private readonly touch: Statement<void, [Params]>;
  private readonly reasonByCode: Statement<ReasonRow, [string]>;
  private readonly allReasons: Statement<ReasonRow, []>;
  private readonly insertReason: Statement<void, [Omit<ReasonRow, never>]>;
  private readonly updateReason: Statement<void, [Omit<ReasonRow, "createdAt">]>;

  constructor(sqlite: Database) {
    this.byId = sqlite.prepare(`SELECT ${NOTICE_COLUMNS} FROM notices WHERE id = ?1`);
    this.byNumber = sqlite.prepare(`SELECT ${NOTICE_COLUMNS} FROM notices WHERE number = ?1`);
    this.insertNotice = sqlite.prepare(
      `INSERT INTO notices ${insertColumns(notices, [
        "id",
        "number",
        "plate",
        "plateNorm",
        "zone",
        "lotId",
        "verdict",
        "reasonCode",
        "reasonTitle",
        "amount",
        "currency",
        "note",
        "observedAt",
        "issuedAt",
        "issuedBy",
        "voidedAt",
        "voidedBy",
        "voidReason",
        "syncSeq",
      ])}`,
    );
    this.bumpCounter = sqlite.prepare(
      `INSERT INTO notice_counters (name, last) VALUES (?1, 1)
       ON CONFLICT (name) DO UPDATE SET last = last + 1 RETURNING last`,
    );
    this.markVoid = sqlite.prepare(
      `UPDATE notices SET voided_at = $at, voided_by = $by, void_reason = $reason, sync_seq = $seq
       WHERE id = $id AND voided_at IS NULL`,
    );
    this.touch = sqlite.prepare("UPDATE notices SET sync_seq = $seq WHERE id = $id");
    this.photosOf = sqlite.prepare(
      `SELECT ${PHOTO_COLUMNS} FROM notice_photos WHERE notice_id = ?1 ORDER BY rowid`,
    );
    this.insertPhoto = sqlite.prepare(
      `INSERT INTO notice_photos ${insertColumns(noticePhotos, [
        "noticeId",
        "hash",
        "contentType",
        "bytes",
        "width",
        "height",
        "addedAt",
      ])}`,
    );
    this.reasonByCode = sqlite.prepare(`SELECT ${REASON_COLUMNS} FROM notice_reasons WHERE code = ?1`);
    this.allReasons = sqlite.prepare(`SELECT ${REASON_COLUMNS} FROM notice_reasons ORDER BY code`);
    this.insertReason = sqlite.prepare(
      `INSERT INTO notice_reasons ${insertColumns(noticeReasons, [
        "code",
        "title",
        "amount",
        "active",
        "createdAt",
        "updatedAt",
      ])}`,
    );
    this.updateReason = sqlite.prepare(
      "UPDATE notice_reasons SET title = $title, amount = $amount, active = $active, updated_at = $updatedAt WHERE code = $code",
    );
    this.sqlite = sqlite;
  }

  private readonly sqlite: Database;

  reasons(): StoredReason[] {
    return this.allReasons.all().map(reasonOf);
  }

  reason(code: string): StoredReason | null {
    const r = this.reasonByCode.get(code);
    return r ? reasonOf(r) : null;
  }

  addReason(r: StoredReason): void {
    this.insertReason.run({ ...r, active: r.active ? 1 : 0 });
  }

  changeReason(r: Omit<StoredReason, "createdAt">): void {
    this.updateReason.run({ ...r, active: r.active ? 1 : 0 });
  }

  get(id: string): StoredNotice | null {
    return this.byId.get(id) ?? null;
  }

  getByNumber(n: number): StoredNotice | null {
    return this.byNumber.get(n) ?? null;
  }

  /**
   * Stores a notice with the site's next number. Call it inside an immediate transaction with the
   * check that the id is new: the number is taken in the same commit, so a refused or rolled-back
   * notice leaves no gap.
   */
  insert(values: NoticeValues): StoredNotice {
    const row: StoredNotice = {
      ...values,
      number: this.next("number"),
      voidedAt: null,
      voidedBy: null,
      voidReason: null,
      syncSeq: this.next("sync"),
    };
    this.insertNotice.run(row);
    return row;
  }

  /** Marks a notice void; false when it already was (or is not there). */
  markVoided(id: string, at: number, by: string, reason: string): boolean {
    return this.markVoid.run({ id, at, by, reason, seq: this.next("sync") }).changes === 1;
  }

  photos(noticeId: string): StoredPhoto[] {
    return this.photosOf.all(noticeId);
  }

  /** Keeps a photo's record; the notice goes to the office again with its photos' hashes. */
  addPhoto(p: StoredPhoto): void {
    this.insertPhoto.run(p);
    this.touch.run({ id: p.noticeId, seq: this.next("sync") });
  }

  /**
   * Deletes up to `batch` notices issued, and voided if they were, before the cutoff, with their
   * photos' records, in one transaction; returns how many, and the hashes no notice holds any
   * more, whose files the caller removes once this has committed.
   */
  deleteBefore(cutoff: number, batch: number): { notices: number; unheld: string[] } {
    return this.sqlite
      .transaction(() => {
        const ids = this.sqlite
          .query<{ id: string }, [number, number]>(
            `SELECT id FROM notices WHERE issued_at < ?1 AND (voided_at IS NULL OR voided_at < ?1)
           ORDER BY issued_at LIMIT ?2`,
          )
          .all(cutoff, batch)
          .map((r) => r.id);
        const hashes = new Set<string>();
        for (const id of ids) {
          for (const p of this.photosOf.all(id)) hashes.add(p.hash);
          this.sqlite.query("DELETE FROM notice_photos WHERE notice_id = ?1").run(id);
          this.sqlite.query("DELETE FROM notices WHERE id = ?1").run(id);
        }
        return { notices: ids.length, unheld: [...hashes].filter((h) => this.photoUses(h) === 0) };
      })
      .immediate();
  }

  /** How many notices deleteBefore would delete, and how many photo files go with them. */
  countBefore(cutoff: number): { notices: number; photos: number } {
    const q = this.sqlite
      .query<{ notices: number; photos: number }, [number]>(
        `WITH old AS (SELECT id FROM notices WHERE issued_at < ?1 AND (voided_at IS NULL OR voided_at < ?1))
         SELECT (SELECT count(*) FROM old) AS notices,
           (SELECT count(DISTINCT hash) FROM notice_photos p WHERE p.notice_id IN (SELECT id FROM old)
              AND NOT EXISTS (SELECT 1 FROM notice_photos q WHERE q.hash = p.hash
                AND q.notice_id NOT IN (SELECT id FROM old))) AS photos`,
      )
      .get(cutoff);
    return { notices: q?.notices ?? 0, photos: q?.photos ?? 0 };
  }

  /** Every photo file the notices hold, each hash once (a backup carries these files). */
  photoHashes(): string[] {
    return this.sqlite
      .query<{ hash: string }, []>("SELECT DISTINCT hash FROM notice_photos ORDER BY hash")
      .all()
      .map((r) => r.hash);
  }

  /** How many notices hold a file with this hash (a file is removed when none does). */
  photoUses(hash: string): number {
    return (
      this.sqlite
        .query<{ n: number }, [string]>("SELECT count(*) AS n FROM notice_photos WHERE hash = ?1")
        .get(hash)?.n ?? 0
    );
  }

  page(filter: NoticeFilter, before: number | undefined, limit: number): StoredNotice[] {
    const sql = noticePageSql(filter);
    let statement = this.pages.get(sql);
    if (!statement) {
      statement = this.sqlite.prepare<NoticeRow, [Params]>(sql);
      this.pages.set(sql, statement);
    }
    const params: Params = { before: before ?? Number.MAX_SAFE_INTEGER, limit };
    if (filter.plate !== undefined) params.plate = filter.plate;
    if (filter.issuedBy !== undefined) params.issuedBy = filter.issuedBy;
    if (filter.reason !== undefined) params.reason = filter.reason;
    if (filter.from !== undefined) params.from = filter.from;
    if (filter.to !== undefined) params.to = filter.to;
    return statement.all(params);
  }

  /**
   * The notices written (issued, voided, given a photo) after the sync cursor, in the order they
   * were written, each with its photos' records: one snapshot when called inside a transaction.
   */
  syncAfter(seq: number, limit: number): SyncedNotice[] {
    return this.sqlite
      .query<NoticeRow, [number, number]>(
        `SELECT ${NOTICE_COLUMNS} FROM notices WHERE sync_seq > ?1 ORDER BY sync_seq LIMIT ?2`,
      )
      .all(seq, limit)
      .map((n) => ({ ...n, photos: this.photosOf.all(n.id) }));
  }

  /**
   * The photos after (seq, hash) of the notices at or below `upTo` (the rows the office holds
   * already), in (sync_seq, hash) order. A notice written again moves past the cursor with all its
   * photos: the caller skips the ones the office has.
   */
  photosAfter(after: { seq: number; hash: string }, upTo: number, limit: number): SyncedPhoto[] {
    return this.sqlite
      .query<SyncedPhoto, [number, string, number, number]>(
        `SELECT ${PHOTO_COLUMNS_OF_P}, n.sync_seq AS syncSeq
         FROM notice_photos p JOIN notices n ON n.id = p.notice_id
         WHERE (n.sync_seq, p.hash) > (?1, ?2) AND n.sync_seq <= ?3
         ORDER BY n.sync_seq, p.hash LIMIT ?4`,
      )
      .all(after.seq, after.hash, upTo, limit);
  }

  /** The highest notice number and sync sequence this store ever handed out (retention keeps them). */
  lastIds(): { number: number; sync: number } {
    const q = this.sqlite
      .query<{ name: string; last: number }, []>("SELECT name, last FROM notice_counters")
      .all();
    const of = (name: string) => q.find((r) => r.name === name)?.last ?? 0;
    return { number: of("number"), sync: of("sync") };
  }

  /**
   * New notices get numbers, and writes sync sequences, above these: after the store was restored
   * from an older backup, the office holds numbers this store would hand out again.
   */
  continueAfter(ids: { number: number; sync: number }): void {
    const raise = this.sqlite.prepare<void, [string, number]>(
      `INSERT INTO notice_counters (name, last) VALUES (?1, ?2)
       ON CONFLICT (name) DO UPDATE SET last = max(last, excluded.last)`,
    );
    this.sqlite.transaction(() => {
      raise.run("number", ids.number);
      raise.run("sync", ids.sync);
    })();
  }

  private next(name: "number" | "sync"): number {
    return this.bumpCounter.get(name)!.last;
  }
}
