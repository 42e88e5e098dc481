import { createHash } from "node:crypto";
import type { Actor } from "../../../domain/changes.ts";
import { mbOf } from "../../../domain/disk-room.ts";
import { type FieldError, invalid, refuse } from "../../../domain/errors.ts";
import { lotOfZone } from "../../../domain/lots/rules.ts";
import {
  imageFacts,
  PHOTOS_PER_NOTICE,
  photoProblem,
  reasonsForVerdict,
} from "../../../domain/notices/rules.ts";
import { noticeHistoryFields, noticeView, photoRef } from "../../../domain/notices/view.ts";
import { normalizePlate, plateFieldError } from "../../../domain/plates.ts";
import { parseInstant, startOfDay } from "../../../domain/time/zoned.ts";
import { inflateStreaming } from "../../../platform/inflate.ts";
import type { StoredNotice, StoredPhoto } from "../../../platform/store/notices.ts";
import { PhotoStorageFull } from "../../../platform/store/photos.ts";
import type { EnforcementContext } from "../module-context.ts";
import type { AttendantReasons, NoticeInput, NoticeReceipt } from "./model.ts";

/** The verdicts as the handheld shows them, for a refusal's words. */
const VERDICT_WORDS = { none: "NO VALID PERMIT", over_time_limit: "OVER TIME LIMIT" } as const;

/** A notice this long into a day may follow a verdict of the day before (its mark is that day's). */
const MARK_DAY_OVERLAP_MS = 30 * 60_000;

/** How far ahead of the box's clock a phone's clock may run before its time is refused. */
const CLOCK_AHEAD_MS = 10 * 60_000;

type NoticeContext = Pick<EnforcementContext, "store" | "now" | "config" | "lookupRecorder">;

/**
 * What an attendant issues: a notice, sent exactly once whatever the network does (the phone's
 * id makes a retry an answer with what is stored), and its photos, each kept once by its hash.
 */
export class AttendantNotices {
  constructor(private readonly ctx: NoticeContext) {}

  reasons(): AttendantReasons {
    return {
      data: this.ctx.store.notices
        .reasons()
        .filter((r) => r.active)
        .map((r) => ({ code: r.code, title: r.title, amount: r.amount, verdicts: r.verdicts })),
      currency: this.ctx.config.currency,
    };
  }

  /** Stores the notice, or finds it stored by an earlier try; `created` tells which. */
  issue(input: NoticeInput, actor: Actor): { receipt: NoticeReceipt; created: boolean } {
    const now = this.ctx.now();
    const errors: FieldError[] = [];
    const plateNorm = normalizePlate(input.registration_number);
    const plateError = plateFieldError(input.registration_number);
    if (plateError) errors.push(plateError);
    const observedAt = parseInstant(input.observed_at, this.ctx.config.timezone, { dateOnly: false });
    if (observedAt === null)
      errors.push({
        pointer: "/observed_at",
        message: "Expected an ISO 8601 date-time, e.g. 2026-06-15T10:02:00Z",
      });
    else if (observedAt > now + CLOCK_AHEAD_MS)
      errors.push({
        pointer: "/observed_at",
        message: "observed_at is later than the box's clock; check the phone's time",
      });
    // Not given: the zone's lot when one lot has the zone, so that the operator sees where it was.
    const lotId = input.parking_lot_id ?? lotOfZone(this.ctx.store.lots.all(), input.zone);
    if (lotId !== null && this.ctx.store.lots.nameOf(lotId) === null)
      errors.push({ pointer: "/parking_lot_id", message: `There is no parking lot ${lotId}` });
    if (errors.length > 0) throw invalid(errors);
    const values = {
      id: input.id,
      plate: input.registration_number.trim(),
      plateNorm,
      zone: input.zone,
      lotId,
      verdict: input.verdict,
      note: input.note ?? "",
      observedAt: observedAt!,
      issuedBy: actor.who,
    };
    const store = this.ctx.store;
    const issued = store
      .transaction(() => {
        const held = store.notices.get(input.id);
        if (held) {
          // Another handheld's notice: not this one's to learn anything of, its number included.
          if (held.issuedBy !== values.issuedBy)
            throw refuse(
              "notice-exists",
              `Notice id ${input.id} is already taken by another handheld's notice; a new notice needs a new id`,
            );
          const same =
            held.plateNorm === values.plateNorm &&
            held.zone === values.zone &&
            // A retry without a lot of a notice stored before lots were taken from zones.
            (held.lotId === values.lotId || (input.parking_lot_id === undefined && held.lotId === null)) &&
            held.verdict === values.verdict &&
            held.reasonCode === input.reason &&
            held.note === values.note &&
            held.observedAt === values.observedAt &&
            held.issuedBy === values.issuedBy;
          if (!same)
            throw refuse(
              "notice-exists",
              `Notice id ${input.id} is already stored (number ${held.number}) with other content; a retry must send the same notice`,
            );
          return { receipt: this.receipt(held), created: false };
        }
        const reason = store.notices.reason(input.reason);
        if (!reason?.active)
          throw refuse(
            "reason-unknown",
            `The site has no active reason "${input.reason}"; GET /api/v1/attendants/notice-reasons lists them`,
            { errors: [{ pointer: "/reason", message: "Not one of the site's active reasons" }] },
          );
        if (reasonsForVerdict([reason], values.verdict).length === 0)
          throw refuse(
            "reason-not-for-verdict",
            `The reason "${reason.code}" is not for a notice after the verdict ${VERDICT_WORDS[values.verdict]}; GET /api/v1/attendants/notice-reasons says which verdicts each reason follows`,
            {
              errors: [{ pointer: "/reason", message: `Not a reason for ${VERDICT_WORDS[values.verdict]}` }],
            },
          );
        const row = store.notices.insert({
          ...values,
          ...this.markThatLedTo(values),
          reasonCode: reason.code,
          reasonTitle: reason.title,
          amount: reason.amount,
          currency: this.ctx.config.currency,
          issuedAt: now,
        });
        store.changes.record({
          at: now,
          actor: actor.who,
          via: actor.via,
          subject: "notice",
          subjectId: String(row.number),
          action: "issue",
          before: null,
          after: noticeHistoryFields(row),
        });
        return { receipt: this.receipt(row), created: true };
      })
      .immediate();
    // The audit's record of the notice, as of a mark: who acted on which car, and after what.
    this.ctx.lookupRecorder.record({
      at: now,
      credential: actor.who,
      by: "notice",
      query: `${plateNorm}@${input.zone}`,
      results: issued.created ? 1 : 0,
      verdict: input.verdict,
      cameraRead: null,
    });
    return issued;
  }

  /**
   * The car's mark in the notice's zone made before the notice, on the notice's site-local day or,
   * for a notice written in the first minutes of a day, the day before (a verdict seen at 23:59
   * and its notice sent at 00:01, or a phone's clock a few minutes fast): what an OVER TIME
   * LIMIT verdict was measured from. Copied, as the mark is replaced when the car moves and goes
   * with retention while the notice stays.
   */
  private markThatLedTo(n: { plateNorm: string; zone: number; verdict: string; observedAt: number }) {
    if (n.verdict !== "over_time_limit") return {};
    const tz = this.ctx.config.timezone;
    const days = new Set([startOfDay(n.observedAt, tz), startOfDay(n.observedAt - MARK_DAY_OVERLAP_MS, tz)]);
    for (const day of days) {
      const mark = this.ctx.store.observations.ofCarOn(n.plateNorm, day);
      if (mark && mark.zone === n.zone && mark.firstSeenAt <= n.observedAt)
        return { markSeenAt: mark.firstSeenAt, markLimitSeconds: mark.limitSeconds, markedBy: mark.markedBy };
    }
    return {};
  }

  /**
   * Adds a photo to a notice this credential issued. The same photo again (a retry) is answered
   * with what is stored; a fourth is refused. The file is on disk before its record commits.
   */
  async addPhoto(
    id: string,
    bytes: Uint8Array,
    contentType: string | null,
    actor: Actor,
  ): Promise<{ photo: ReturnType<typeof photoRef>; created: boolean }> {
    const store = this.ctx.store;
    const notice = store.notices.get(id);
    // Another handheld's notice is not this one's to add to: as if it were not there.
    if (!notice || notice.issuedBy !== actor.who)
      throw refuse("notice-not-found", `There is no notice ${id} issued by ${actor.who}`);
    // The cheap refusals first: proving an image whole reads all of it.
    if (notice.voidedAt !== null)
      throw refuse("notice-voided", `Notice ${notice.number} was voided; it takes no photos`);
    const hash = createHash("sha256").update(bytes).digest("hex");
    const keepFile = () => {
      try {
        store.photos.put(hash, bytes);
      } catch (e) {
        if (e instanceof PhotoStorageFull)
          throw refuse(
            "photo-storage-full",
            e.reserveBytes
              ? `The disk holding the photos is down to the ${mbOf(e.reserveBytes)} MB it keeps for ticket events; notice ${notice.number} itself is stored. Send the photo again once space is freed`
              : `The disk holding the photos is full; notice ${notice.number} itself is stored. Send the photo again later`,
            { retryAfterSeconds: 60 },
          );
        throw e;
      }
    };
    const held = store.notices.photos(id);
    const same = held.find((p) => p.hash === hash);
    if (same) {
      // Sent again after its file was lost (below): the record is there, the file is written again.
      if (!store.photos.has(hash)) keepFile();
      return { photo: photoRef(same), created: false };
    }
    if (held.length >= PHOTOS_PER_NOTICE)
      throw refuse(
        "too-many-photos",
        `Notice ${notice.number} already has ${held.length} photos, the most it may have`,
      );
    const problem = await photoProblem(bytes, contentType, inflateStreaming);
    if (problem) throw refuse("photo-invalid", problem);
    const facts = photoFacts(bytes, contentType);
    const newFile = store.notices.photoUses(hash) === 0;
    if (newFile) keepFile();
    const photo: StoredPhoto = { noticeId: id, hash, ...facts, bytes: bytes.length, addedAt: this.ctx.now() };
    try {
      store
        .transaction(() => {
          // Checked again under the write lock: two tries of the same photo at once store it once,
          // and a notice voided while its photo was being read takes none.
          if (store.notices.get(id)?.voidedAt !== null)
            throw refuse("notice-voided", `Notice ${notice.number} was voided; it takes no photos`);
          const now = store.notices.photos(id);
          if (now.some((p) => p.hash === hash)) return;
          if (now.length >= PHOTOS_PER_NOTICE)
            throw refuse("too-many-photos", `Notice ${notice.number} already has ${now.length} photos`);
          store.notices.addPhoto(photo);
        })
        .immediate();
    } catch (e) {
      if (newFile && store.notices.photoUses(hash) === 0) store.photos.remove(hash);
      throw e;
    }
    // A purge run by hand beside serve can have removed the file after its uses were counted and
    // before this record committed: the same photo held by another notice (not written again,
    // that notice deleted), or a new file written here (the purge had it from its own deletion,
    // or listed it as a leftover before this write). The purge removes a file only under the
    // write lock, once no record names it, so the file is there now or its removal came first:
    // then it is written again.
    if (!store.photos.has(hash)) keepFile();
    return { photo: photoRef(photo), created: true };
  }

  private receipt(n: StoredNotice): NoticeReceipt {
    return { data: noticeView(n, this.ctx.store.notices.photos(n.id)) };
  }
}

/** What the stored record says of a photo already checked by photoProblem. */
function photoFacts(bytes: Uint8Array, contentType: string | null) {
  const f = imageFacts(bytes)!;
  const type = contentType?.split(";")[0]?.trim().toLowerCase() === "image/png" ? "image/png" : "image/jpeg";
  return { contentType: type as StoredPhoto["contentType"], width: f.width, height: f.height };
}
