import { type Actor, fieldChanges } from "../../../domain/changes.ts";
import { refuse } from "../../../domain/errors.ts";
import { NOTICE_VERDICTS, type NoticeVerdict } from "../../../domain/notices/rules.ts";
import { noticeFields, photoRef } from "../../../domain/notices/view.ts";
import { normalizePlate } from "../../../domain/plates.ts";
import { formatMicros } from "../../../domain/time/zoned.ts";
import type {
  NoticeFilter,
  StoredNotice,
  StoredPhoto,
  StoredReason,
} from "../../../platform/store/notices.ts";
import type { AdminDeps } from "../deps.ts";
import { instant, iso, isoOrNull, rowPage } from "../paging.ts";
import {
  type CsvVariant,
  decimalAmount,
  field,
  siteTimeCell,
  textCell,
  timeHeading,
} from "../reports/csv.ts";
import type { Notice, NoticeCsvQuery, NoticeQuery, NoticeReasonInput, NoticeReasonPatch } from "./model.ts";

type Filters = Omit<NoticeQuery, "cursor" | "limit">;

const notFound = (number: number | string) =>
  refuse("notice-not-found", `There is no notice number ${number}`);
const reasonNotFound = (code: string) => refuse("reason-not-found", `There is no reason "${code}"`);

function reasonView(r: StoredReason) {
  return {
    code: r.code,
    title: r.title,
    amount: r.amount,
    active: r.active,
    verdicts: r.verdicts,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

/** What the change history keeps of a reason. */
const reasonFields = (r: StoredReason) => ({
  title: r.title,
  amount: r.amount,
  active: r.active,
  verdicts: r.verdicts,
});

/** The verdicts as given, in the one order (a set: the order it was sent in means nothing). */
const verdictSet = (v: readonly NoticeVerdict[]) => NOTICE_VERDICTS.filter((x) => v.includes(x));

/** The operator's side of control notices: search, open, export, void; the table of reasons. */
export class NoticeAdmin {
  constructor(private readonly ctx: AdminDeps) {}

  private filterOf(q: Filters): NoticeFilter {
    const tz = this.ctx.config.timezone;
    return {
      plate: q.registration_number === undefined ? undefined : normalizePlate(q.registration_number),
      issuedBy: q.attendant,
      reason: q.reason,
      state: q.state as NoticeFilter["state"],
      from: instant(q.from, "from", tz),
      to: instant(q.to, "to", tz),
    };
  }

  /** The one view of a notice, with who issued it, its state and where its photos are served. */
  private view(n: StoredNotice, photos: StoredPhoto[]): Notice {
    return {
      ...noticeFields(n),
      parking_lot_name: n.lotId === null ? null : this.ctx.store.lots.nameOf(n.lotId),
      issued_by: n.issuedBy,
      state: n.voidedAt === null ? "issued" : "voided",
      voided_at: isoOrNull(n.voidedAt),
      voided_by: n.voidedBy,
      void_reason: n.voidReason,
      photos: photos.map((p) => ({ ...photoRef(p), url: `/api/v1/notices/${n.number}/photos/${p.hash}` })),
    };
  }

  private load(number: number): StoredNotice {
    const n = this.ctx.store.notices.getByNumber(number);
    if (!n) throw notFound(number);
    return n;
  }

  list(q: NoticeQuery) {
    const notices = this.ctx.store.notices;
    return rowPage("notices", q, notices, this.filterOf(q), (n) => this.view(n, notices.photos(n.id)));
  }

  get(number: number): Notice {
    const n = this.load(number);
    return this.view(n, this.ctx.store.notices.photos(n.id));
  }

  photo(number: number, hash: string): { bytes: Uint8Array; contentType: string } {
    const n = this.load(number);
    const p = this.ctx.store.notices.photos(n.id).find((x) => x.hash === hash);
    const bytes = p ? this.ctx.store.photos.read(p.hash) : null;
    if (!p || !bytes) throw refuse("photo-not-found", `Notice ${n.number} has no photo with this hash`);
    return { bytes, contentType: p.contentType };
  }

  void(number: number, reason: string, actor: Actor): Notice {
    const store = this.ctx.store;
    const n = this.load(number);
    const at = this.ctx.now();
    store
      .transaction(() => {
        if (!store.notices.markVoided(n.id, at, actor.who, reason)) {
          const held = store.notices.get(n.id)!;
          throw refuse(
            "notice-voided",
            `Notice ${n.number} was voided at ${formatMicros(held.voidedAt!)} by ${held.voidedBy}`,
          );
        }
        store.changes.record({
          at,
          actor: actor.who,
          via: actor.via,
          subject: "notice",
          subjectId: String(n.number),
          action: "void",
          before: { state: "issued" },
          after: { state: "voided", void_reason: reason },
        });
      })
      .immediate();
    return this.get(n.number);
  }

  /** Every notice the filters name, oldest first, as the revenue report's CSV is written. */
  csv(q: NoticeCsvQuery): { text: string; name: string } {
    const filter = this.filterOf(q);
    const variant: CsvVariant = q.variant === "rfc4180" ? "rfc4180" : "se";
    const se = variant === "se";
    const sep = se ? ";" : ",";
    const head = se
      ? [
          "Nummer",
          timeHeading("Utfärdad", this.ctx.config.timezone),
          "Registreringsnummer",
          "Zon",
          "Parkering",
          "Beslut",
          "Orsak",
          "Belopp",
          "Valuta",
          "Kontrollant",
          "Status",
          timeHeading("Makulerad", this.ctx.config.timezone),
          "Makuleringsorsak",
          "Foton",
          "Anteckning",
        ]
      : [
          "number",
          timeHeading("issued_at", this.ctx.config.timezone),
          "registration_number",
          "zone",
          "parking_lot_id",
          "verdict",
          "reason",
          "amount",
          "currency",
          "issued_by",
          "state",
          timeHeading("voided_at", this.ctx.config.timezone),
          "void_reason",
          "photos",
          "note",
        ];
    const rows: StoredNotice[] = [];
    let before: number | undefined;
    for (;;) {
      const batch = this.ctx.store.notices.page(filter, before, 500);
      rows.push(...batch);
      if (batch.length < 500) break;
      before = batch[batch.length - 1]!.number;
    }
    rows.reverse();
    const local = (ms: number) => siteTimeCell(ms, this.ctx.config.timezone, variant);
    const lines = [head.map((h) => field(h, sep)).join(sep)];
    for (const n of rows) {
      const cells = [
        String(n.number),
        local(n.issuedAt),
        textCell(n.plate),
        String(n.zone),
        n.lotId === null ? "" : String(n.lotId),
        n.verdict,
        textCell(n.reasonCode),
        decimalAmount(n.amount, se),
        textCell(n.currency),
        textCell(n.issuedBy),
        n.voidedAt === null ? "issued" : "voided",
        n.voidedAt === null ? "" : local(n.voidedAt),
        textCell(n.voidReason ?? ""),
        String(this.ctx.store.notices.photos(n.id).length),
        textCell(n.note),
      ];
      lines.push(cells.map((c) => field(c, sep)).join(sep));
    }
    const span = `${q.from ?? "start"}-${q.to ?? "now"}`.replace(/[^0-9A-Za-z_-]/g, "");
    return { text: `${se ? "\uFEFF" : ""}${lines.join("\r\n")}\r\n`, name: `notices-${span}.csv` };
  }

  reasons() {
    return { data: this.ctx.store.notices.reasons().map(reasonView), currency: this.ctx.config.currency };
  }

  addReason(input: NoticeReasonInput, actor: Actor) {
    const store = this.ctx.store;
    const now = this.ctx.now();
    const r: StoredReason = {
      code: input.code,
      title: input.title.trim(),
      amount: input.amount,
      active: input.active ?? true,
      verdicts: verdictSet(input.verdicts ?? NOTICE_VERDICTS),
      createdAt: now,
      updatedAt: now,
    };
    store
      .transaction(() => {
        if (store.notices.reason(r.code))
          throw refuse("reason-exists", `A reason "${r.code}" already exists`);
        store.notices.addReason(r);
        store.changes.record({
          at: now,
          actor: actor.who,
          via: actor.via,
          subject: "notice_reason",
          subjectId: r.code,
          action: "create",
          before: null,
          after: reasonFields(r),
        });
      })
      .immediate();
    return { data: reasonView(r) };
  }

  changeReason(code: string, patch: NoticeReasonPatch, actor: Actor) {
    const store = this.ctx.store;
    const now = this.ctx.now();
    const changed = store
      .transaction(() => {
        const was = store.notices.reason(code);
        if (!was) throw reasonNotFound(code);
        const next: StoredReason = {
          ...was,
          title: patch.title?.trim() ?? was.title,
          amount: patch.amount ?? was.amount,
          active: patch.active ?? was.active,
          verdicts: patch.verdicts ? verdictSet(patch.verdicts) : was.verdicts,
          updatedAt: now,
        };
        const fields = fieldChanges(reasonFields(was), reasonFields(next));
        if (!fields) return was;
        store.notices.changeReason(next);
        store.changes.record({
          at: now,
          actor: actor.who,
          via: actor.via,
          subject: "notice_reason",
          subjectId: code,
          action: "update",
          ...fields,
        });
        return next;
      })
      .immediate();
    return { data: reasonView(changed) };
  }
}
