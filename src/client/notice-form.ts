/**
 * The handheld's control notice: started from a NO VALID PERMIT verdict, a reason from the site's
 * table, a note, up to three photos from the camera; kept on the phone first, then sent. The
 * summary shows the site's notice number once the box has it. A car whose plate the camera read
 * starts with the frame it was read from as its first photo, said to be from the scan.
 */
import { PHOTOS_PER_NOTICE, reasonsForVerdict } from "../domain/notices/rules.ts";
import { api } from "./api.ts";
import type { NoticeReasons, NoticeReceipt } from "./api-types.ts";
import { h, prevented, replace } from "./dom.ts";
import { money, t } from "./i18n.ts";
import { keep, phoneId, type WaitingNotice } from "./notice-queue.ts";
import { dataUrl, PhotoUnreadable, scaledPhoto } from "./photo-scale.ts";

const REASONS_KEY = "parkd.noticeReasons";

/** What a notice starts from: the verdict's car, zone and state. */
export interface NoticeStart {
  plate: string;
  zone: number;
  lotId: number | null;
  verdict: "none" | "over_time_limit";
}

/** The site's reasons as last heard from the box (kept, so a notice can be written offline). */
export function keptReasons(): NoticeReasons | null {
  const kept = localStorage.getItem(REASONS_KEY);
  return kept ? (JSON.parse(kept) as NoticeReasons) : null;
}

export async function loadReasons(): Promise<void> {
  try {
    const reasons = await api<NoticeReasons>("GET", "/api/v1/attendants/notice-reasons", undefined, 10_000);
    localStorage.setItem(REASONS_KEY, JSON.stringify(reasons));
  } catch {
    // Offline: the reasons kept from last time.
  }
}

/**
 * The form. `kept` is called once the notice is in the phone's storage (it is then sent by the
 * queue); `cancel` when the attendant gives it up. `scanPhoto`: the camera frame this car's plate
 * was read from, the first photo until the attendant removes it.
 */
export function noticeForm(
  start: NoticeStart,
  ctx: {
    owner: string;
    boxNow: () => number;
    kept: (n: WaitingNotice) => void;
    cancel: () => void;
    scanPhoto?: Blob | null;
  },
): HTMLElement {
  const reasons = keptReasons();
  // The reasons for this verdict only: the box refuses a notice under any other.
  const offered = reasons ? reasonsForVerdict(reasons.data, start.verdict) : [];
  const photos: Blob[] = ctx.scanPhoto ? [ctx.scanPhoto] : [];
  const error = h("p", { class: "error", id: "notice-error", role: "alert" });
  const thumbs = h("ul", { class: "notice-photos", id: "notice-photos" });
  const photoInput = h("input", {
    type: "file",
    id: "notice-photo",
    accept: "image/*",
    capture: "environment",
  });
  const photoLabel = h("label", { for: "notice-photo", id: "notice-photo-label" });
  const reason = h(
    "select",
    { id: "notice-reason", name: "reason", required: true },
    offered.map((r) => h("option", { value: r.code }, `${r.title} · ${money(r.amount, reasons!.currency)}`)),
  );
  const note = h("textarea", { id: "notice-note", name: "note", maxlength: 500, rows: 2 });
  const send = h("button", { type: "submit", class: "big", id: "notice-send" }, t("noticeIssue"));

  const showPhotos = () => {
    replace(photoLabel, t("noticeAddPhoto", { n: photos.length, max: PHOTOS_PER_NOTICE }));
    photoInput.disabled = photos.length >= PHOTOS_PER_NOTICE;
    replace(thumbs);
    photos.forEach((p, i) => {
      const li = h(
        "li",
        null,
        h("img", { alt: t("noticePhotoAlt", { n: i + 1 }), width: 96 }),
        // Not taken here: the attendant sees it is the camera's view of the car, before sending it.
        p === ctx.scanPhoto ? h("span", { class: "from-scan" }, t("noticeScanPhoto")) : null,
        h(
          "button",
          {
            type: "button",
            class: "remove-photo",
            onclick: () => {
              photos.splice(i, 1);
              showPhotos();
            },
          },
          t("noticeRemovePhoto", { n: i + 1 }),
        ),
      );
      thumbs.append(li);
      void dataUrl(p).then((url) => li.querySelector("img")!.setAttribute("src", url));
    });
  };

  photoInput.addEventListener("change", async () => {
    const file = photoInput.files?.[0];
    photoInput.value = "";
    if (!file || photos.length >= PHOTOS_PER_NOTICE) return;
    replace(error);
    try {
      photos.push(await scaledPhoto(file));
    } catch (e) {
      replace(error, e instanceof PhotoUnreadable ? t("noticePhotoBad", { why: e.message }) : String(e));
    }
    showPhotos();
  });

  async function submit(): Promise<void> {
    const picked = offered.find((r) => r.code === reason.value);
    if (!reasons || !picked) {
      replace(error, t("noticeNoReasons"));
      return;
    }
    send.disabled = true;
    const waiting: WaitingNotice = {
      input: {
        id: phoneId(),
        registration_number: start.plate,
        zone: start.zone,
        parking_lot_id: start.lotId,
        verdict: start.verdict,
        reason: picked.code,
        ...(note.value.trim() ? { note: note.value.trim() } : {}),
        observed_at: new Date(ctx.boxNow()).toISOString(),
      },
      photos: [...photos],
      owner: ctx.owner,
      reasonTitle: picked.title,
      amount: picked.amount,
      currency: reasons.currency,
      photosSent: 0,
      number: null,
      refused: null,
    };
    try {
      await keep(waiting);
    } catch (e) {
      // Not kept (the phone's storage refused it): said plainly, nothing pretends it was issued.
      send.disabled = false;
      replace(error, t("noticeNotKept", { why: (e as Error)?.message ?? String(e) }));
      return;
    }
    ctx.kept(waiting);
  }

  showPhotos();
  return h(
    "section",
    { class: "notice-form", id: "notice", "aria-labelledby": "notice-title" },
    h("h2", { id: "notice-title" }, t("noticeTitle", { plate: start.plate, zone: start.zone })),
    offered.length
      ? h(
          "form",
          { id: "notice-form", onsubmit: prevented(() => void submit()) },
          h("label", { for: "notice-reason" }, t("noticeReason")),
          reason,
          h("label", { for: "notice-note" }, t("noticeNote")),
          note,
          photoLabel,
          photoInput,
          thumbs,
          error,
          h(
            "div",
            { class: "notice-buttons" },
            send,
            h("button", { type: "button", id: "notice-cancel", onclick: ctx.cancel }, t("noticeCancel")),
          ),
        )
      : h(
          "div",
          null,
          h(
            "p",
            { class: "error", id: "notice-error" },
            reasons
              ? t("noticeNoReasonsFor", { verdict: t(`verdict_${start.verdict}`) })
              : t("noticeNoReasons"),
          ),
          h("button", { type: "button", id: "notice-cancel", onclick: ctx.cancel }, t("noticeCancel")),
        ),
  );
}

/** The notice as issued (the box's number), or kept on the phone and waiting to be sent. */
export function noticeSummary(
  n: WaitingNotice,
  receipt: NoticeReceipt | null,
  refused: string | null,
): HTMLElement {
  const number = receipt?.number ?? n.number;
  const amount = receipt ? money(receipt.amount, receipt.currency) : money(n.amount, n.currency);
  return h(
    "section",
    {
      class: `notice-summary ${receipt ? "sent" : refused ? "refused" : "waiting"}`,
      id: "notice-summary",
      "data-id": n.input.id,
      "data-number": number ?? "",
      role: "status",
    },
    h("h2", null, number !== null ? t("noticeNumber", { number }) : t("noticeWaitingTitle")),
    h("p", { class: "plate-shown" }, n.input.registration_number.toUpperCase()),
    h("p", null, `${t("zone")} ${n.input.zone} · ${receipt?.reason_title ?? n.reasonTitle} · ${amount}`),
    h("p", null, t("noticePhotos", { n: receipt ? receipt.photos.length : n.photos.length })),
    h(
      "p",
      { class: "notice-state", id: "notice-state" },
      receipt ? t("noticeSent") : refused ? t("noticeRefused", { why: refused }) : t("noticeKept"),
    ),
  );
}
