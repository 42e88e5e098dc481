import { PATROL_URGENCY, patrolOrder } from "../domain/permits/patrol.ts";
import { applyChanges } from "../domain/permits/saved-list-changes.ts";
import { normalizePlate } from "../domain/plates.ts";
import { ApiError, api, Offline, query } from "./api.ts";
import type {
  Found,
  KnownZones,
  OfflineCheck,
  PlateChecks,
  Verdict,
  ZonePermitChanges,
  ZonePermits,
} from "./api-types.ts";
import { nearest } from "./distance.ts";
import { type Child, h, prevented, replace } from "./dom.ts";
import { age, t, when } from "./i18n.ts";
import { applyChange, type ZoneChange } from "./live-list.ts";
import { loadReasons, type NoticeStart, noticeForm, noticeSummary } from "./notice-form.ts";
import {
  discard,
  isMark,
  keep,
  phoneId,
  type Sent,
  sendWaiting,
  type WaitingMark,
  type WaitingNotice,
  waiting,
} from "./notice-queue.ts";
import { keepOfflineCheck, offlineChecksWaiting, sendOfflineChecks } from "./offline-checks.ts";
import { offlineUse } from "./offline-use.ts";
import { offlineVerdict, type SavedZone, savedZone } from "./offline-verdict.ts";
import { dueCars, type PatrolCar } from "./patrol-list.ts";
import { percent, plateCamera } from "./plate-camera.ts";
import { ownerNow, sessionNow } from "./session-now.ts";
import { siteDay, siteZone } from "./site-zone.ts";
import {
  checkedText,
  checkTicketsView,
  hhmm,
  instant,
  LOOKS,
  STALE_MS,
  span,
  verdictView,
} from "./verdict-view.ts";
import {
  listBytes,
  savedPermits,
  savedZone as savedPlates,
  savePermits,
  saveZone,
  zonePermitsPath,
} from "./zone-cache.ts";
import { openFeed } from "./zone-feed.ts";

const ZONE_KEY = "parkd.zone";
type KnownZoneList = { data: KnownZones; complete: boolean };
const KNOWN_KEY = "parkd.knownZones";
const GEO_ASKED = "parkd.geoAsked";
const CLOCK_OFFSET_KEY = "parkd.clockOffset";
/** An offline answer from a list older than this is never green: a cancel may have been missed. */
export const LIST_TRUSTED_MS = 2 * 3_600_000;
/** A check with no answer by then is answered from the saved list: an attendant cannot wait. */
export const CHECK_TIMEOUT_MS = 3_000;
/**
 * The saved list is asked for again this often while live (a 304 when unchanged); a change of
 * the zone asks sooner, but never more often than every SAVED_LIST_SOONEST_MS: a big zone's list
 * is a second's work for the box, and every handheld in the zone asks.
 */
const SAVED_LIST_EVERY_MS = 60_000;
const SAVED_LIST_SOONEST_MS = 15_000;
/** Offline checks waiting on the phone are offered to the box this often (and at once when it answers). */
const CHECKS_EVERY_MS = 10_000;
/** Notices waiting on the phone are offered to the box this often (and at once when back online). */
const NOTICES_EVERY_MS = 30_000;
/** Lets the page answer what waits (a tap, a check) before the next long step. */
const nextTask = () => new Promise<void>((go) => setTimeout(go, 0));

/** The zone's plates (or its patrol list's cars) drawn at most; the search finds the others. */
const PLATES_DRAWN = 60;
/** The patrol list is made again this often: time alone moves cars onto it and off it. */
const PATROL_EVERY_MS = 30_000;
/**
 * The patrol list is judged PATROL_STEP plates at a time, and the page is let go after
 * PATROL_SLICE_MS: in a zone where cars come and go, a run of plates can all be due, and judging
 * 1,000 of them held a phone slowed 4× for over 200 ms.
 */
const PATROL_STEP = 50;
const PATROL_SLICE_MS = 12;
/** The live list is written to the phone's cache at most this often. */
const ZONE_KEPT_MS = 5_000;
/** A pause in typing the zone this long moves the live list to it. */
const ZONE_TYPED_MS = 300;

/** Known zones nearest first from `here` (zones without a map point last, by number). */
export function byDistance(
  zones: KnownZones,
  here: { latitude: number; longitude: number } | null,
): KnownZones {
  const distance = (z: KnownZones[number]) =>
    nearest(
      here,
      z.lots.flatMap((l) => l.locations),
    ) ?? Number.POSITIVE_INFINITY;
  return [...zones]
    .map((z) => ({ z, d: distance(z) }))
    .sort((a, b) => a.d - b.d || a.z.zone - b.z.zone)
    .map((x) => x.z);
}

const clockTime = (ms: number) =>
  new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", timeZone: siteZone() });
const sameDay = (a: number, b: number) => siteDay(a) === siteDay(b);

/** After the page is drawn: the plate reader's files (some 4 MB, once) never slow the first check. */
const READER_WARM_MS = 3_000;

/**
 * The attendant's page: check a plate where the attendant stands, watch that zone. Made for one
 * thumb and sunlight. The zone judged is the one in the field when Check is tapped; an answer
 * that does not come within 3 s is given from the saved list, by the box's own rules.
 * `sessionLost` leads back to sign-in when the box answers 401.
 */
export function attendantPage(root: HTMLElement, sessionLost: () => void): () => void {
  const result = h("section", { class: "result", id: "result", "aria-live": "assertive" });
  const earlier = h("section", { class: "earlier", id: "earlier" });
  // Control notices: only for a credential that may issue them (scope notices:write).
  const owner = sessionNow()?.scopes.includes("notices:write") ? ownerNow() : null;
  /** Whoever is signed in: the verdicts this page answers offline are theirs, and sent by them. */
  const checker = ownerNow();
  /** Offline checks wait on the phone (read once from storage; set as one is kept). */
  let checksWaiting = checker !== null && offlineChecksWaiting(checker) > 0;
  function keepCheck(c: OfflineCheck): void {
    if (!checker) return;
    keepOfflineCheck(checker, c);
    checksWaiting = true;
  }
  /** The box answers again: the checks answered without it go to its records. */
  function sendChecks(): void {
    if (!checker || !checksWaiting) return;
    checksWaiting = false;
    void sendOfflineChecks(checker).then(() => {
      if (offlineChecksWaiting(checker) > 0) checksWaiting = true;
    });
  }
  const noticeArea = h("div", { class: "notice-area", id: "notice-area" });
  const noticesWaiting = h("p", { class: "notices-waiting", id: "notices-waiting", hidden: true });
  const marksWaiting = h("section", { class: "marks-waiting", id: "marks-waiting", hidden: true });
  const plate = h("input", {
    id: "plate",
    name: "plate",
    class: "plate-input",
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: "false",
    enterkeyhint: "search",
    placeholder: t("platePlaceholder"),
    "aria-label": t("plate"),
    required: true,
    maxlength: 32,
  });
  const checkButton = h("button", { type: "submit", class: "big", id: "check-button" }, t("check"));
  /** What the camera said under the field: a read to check, or why there is none. */
  const cameraNote = h("p", { class: "camera-note", id: "camera-note", role: "status", hidden: true });
  /** The camera's read of the plate in the field, until a check takes it along (lookup record). */
  let cameraRead: string | null = null;
  /**
   * The frame the camera read a plate from, for that car's notice: in memory only, until the next
   * read, a check of another plate, a notice for the car, or sign-out. The same car is the same
   * plate as the box matches it: a read corrected to another plate, or another plate typed, is
   * another car, and its notice gets no photo of this one.
   */
  let scan: { plate: string; photo: Promise<Blob | null> } | null = null;
  const scanned = (p: string) => (scan && normalizePlate(p) === scan.plate ? scan : null);
  const camera = plateCamera({
    onRead(read) {
      plate.value = read.shown;
      cameraRead = read.plate;
      scan = { plate: read.plate, photo: read.frame };
      cameraNote.hidden = false;
      cameraNote.className = "camera-note";
      cameraNote.textContent = read.lookAlike
        ? t("cameraReadLookAlike", {
            plate: read.shown,
            other: read.lookAlike.slice(-1),
            last: read.plate.slice(-1),
          })
        : t("cameraRead", { plate: read.shown, pct: percent(read.confidence) });
      // The attendant looks at the read and taps Check: no keyboard in the way.
      checkButton.focus();
    },
    onClosed(why) {
      cameraNote.hidden = why === null;
      cameraNote.className = "camera-note warn";
      cameraNote.textContent = why ?? "";
      plate.focus();
    },
  });
  plate.addEventListener("input", () => {
    if (plate.value.trim() === "") cameraRead = null;
    cameraNote.hidden = true;
  });
  const checkForm = h(
    "form",
    { class: "check", id: "check-form", onsubmit: prevented(() => check(plate.value)) },
    plate,
    camera.button,
    checkButton,
  );

  // The zone, as typed or picked from the site's known zones.
  const zoneInput = h("input", {
    id: "zone",
    name: "zone",
    inputmode: "numeric",
    autocomplete: "off",
    list: "known-zones",
    class: "zone-input",
    "aria-label": t("pickZone"),
    value: localStorage.getItem(ZONE_KEY) ?? "",
  });
  const knownList = h("datalist", { id: "known-zones" });
  let known: Map<number, KnownZones[number]> | null = null;
  /** Each listed zone's time limit (null: none, so no marks there); a zone not in it: the box decides. */
  let limits = new Map<number, number | null>();
  let here: { latitude: number; longitude: number } | null = null;
  /** Unknown zones the attendant said to check anyway: asked once each. */
  const confirmed = new Set<number>();

  function showKnown(answer: KnownZoneList): void {
    const zones = Array.isArray(answer.data) ? answer.data : [];
    // Not all listed (a site with over a thousand zones): a zone missing is not surely a typo.
    known = answer.complete ? new Map(zones.map((z) => [z.zone, z])) : null;
    // A list kept by an older page has no limits: then every zone is offered, as before.
    limits = new Map(
      zones.filter((z) => z.time_limit_seconds !== undefined).map((z) => [z.zone, z.time_limit_seconds]),
    );
    replace(
      knownList,
      byDistance(zones, here).map((z) =>
        h(
          "option",
          { value: String(z.zone) },
          z.lots.length
            ? t("knownZoneLots", { zone: z.zone, lots: z.lots.map((l) => l.name).join(", ") })
            : String(z.zone),
        ),
      ),
    );
  }

  async function loadKnown(): Promise<void> {
    const kept = localStorage.getItem(KNOWN_KEY);
    if (kept) showKnown(JSON.parse(kept) as KnownZoneList);
    try {
      const answer = await api<KnownZoneList>("GET", "/api/v1/attendants/zones", undefined, 10_000);
      localStorage.setItem(KNOWN_KEY, JSON.stringify(answer));
      showKnown(answer);
      const zones = answer.data;
      // Asked once: nearest zones first where lots have map points.
      const located = zones.some((z) => z.lots.some((l) => l.locations.length));
      const permission = await navigator.permissions?.query({ name: "geolocation" }).catch(() => null);
      if (
        located &&
        "geolocation" in navigator &&
        (!localStorage.getItem(GEO_ASKED) || permission?.state === "granted")
      ) {
        localStorage.setItem(GEO_ASKED, "1");
        navigator.geolocation.getCurrentPosition(
          (pos) => {
            here = { latitude: pos.coords.latitude, longitude: pos.coords.longitude };
            showKnown(answer);
          },
          () => {},
          { maximumAge: 60_000, timeout: 15_000 },
        );
      }
    } catch {
      // Offline: the zones kept from last time, or none (then no zone is taken for a typo).
    }
  }

  /** The zone field as a zone: undefined when empty, null when it is not a zone number. */
  function typedZone(): number | undefined | null {
    const text = zoneInput.value.trim();
    if (text === "") return undefined;
    return /^\d{1,9}$/.test(text) ? Number(text) : null;
  }

  function showBlock(className: string, ...children: Child[]): void {
    result.className = `result ${className}`;
    replace(result, ...children);
  }

  async function check(text: string): Promise<void> {
    const p = text.trim();
    if (!p) return;
    // This check takes the camera's read along (taken as read, or corrected); the next car's is its own.
    const read = cameraRead;
    cameraRead = null;
    camera.close();
    // Only a check of the camera's own read keeps its frame: a plate typed later, even the same
    // one, is another look at the car, maybe hours and a zone away.
    scan = read !== null ? scanned(p) : null;
    const z = typedZone();
    replace(earlier);
    replace(noticeArea);
    shownMark = null;
    if (refusedMarks.length) {
      refusedMarks = [];
      void showWaiting();
    }
    if (z === null) {
      showBlock("warn", h("p", { class: "verdict", "data-verdict": "bad_zone" }, t("zoneDigits")));
      zoneInput.focus();
      return;
    }
    if (z !== undefined && known && !known.has(z) && !confirmed.has(z)) {
      showBlock(
        "warn ask",
        h("p", { class: "verdict", "data-verdict": "unknown_zone" }, t("unknownZone", { zone: z })),
        h(
          "div",
          { class: "ask-buttons" },
          h(
            "button",
            {
              type: "button",
              id: "check-anyway",
              onclick: () => {
                confirmed.add(z);
                void check(p);
              },
            },
            t("checkAnyway"),
          ),
          h(
            "button",
            {
              type: "button",
              id: "change-zone",
              onclick: () => {
                replace(result);
                result.className = "result";
                zoneInput.select();
              },
            },
            t("changeZone"),
          ),
        ),
      );
      return;
    }
    if (z !== undefined && z !== zone) watch(z);
    showBlock("pending-answer", h("p", { class: "pending" }, "…"));
    // Only the latest check's answer is shown: a late answer to an earlier car never replaces it.
    const mine = ++checks;
    const latest = () => mine === checks;
    try {
      if (z === undefined) {
        const found = await api<Found[]>(
          "GET",
          `/api/v1/attendants/check-tickets${query({ registration_number: p })}`,
          undefined,
          CHECK_TIMEOUT_MS,
        );
        if (!latest()) return;
        showBlock(found.some((f) => f.active) ? "warn" : "bad", ...checkTicketsView(p, found, Date.now()));
      } else {
        const v = await api<Verdict>(
          "GET",
          `/api/v1/attendants/verdict${query({ registration_number: p, zone: z, ...(read ? { camera_read: read } : {}) })}`,
          undefined,
          CHECK_TIMEOUT_MS,
        );
        if (!latest()) return;
        showBlock(
          LOOKS[v.state].tone,
          ...verdictView(v, Date.now()),
          noticeButton(v),
          v.observation === null ? markControls(v.registration_number, v.zone) : null,
        );
        void showEarlier(v.registration_number, v.checked_at);
        sendChecks();
      }
    } catch (e) {
      if (!latest()) return;
      if (e instanceof ApiError && e.status === 401) return; // the app signs in again (api.ts)
      if (e instanceof Offline && z !== undefined) await showOffline(p, z, e.silent, latest, read);
      else if (e instanceof Offline)
        showBlock("warn", h("p", { class: "verdict", "data-verdict": "offline" }, t("offlineCheck")));
      else showBlock("warn", h("p", { class: "verdict", "data-verdict": "error" }, (e as Error).message));
    }
    // The next car's plate replaces this one as it is typed.
    plate.select();
  }

  /** The box does not answer: the verdict the saved list gives, by the box's own rules. */
  async function showOffline(
    p: string,
    z: number,
    silent: boolean,
    latest: () => boolean,
    read: string | null,
  ): Promise<void> {
    const saved = await loadSaved(z);
    if (!latest()) return;
    if (!saved) {
      showBlock(
        "warn",
        h("p", { class: "verdict", "data-verdict": "no_saved_list" }, t("noListForZone", { zone: z })),
      );
      return;
    }
    // Judged at the box's time as the phone last learnt it, not the phone's own clock.
    const at = Date.now() + clockOffset();
    const old = at - saved.takenAt > LIST_TRUSTED_MS;
    const listTime = sameDay(saved.takenAt, at) ? clockTime(saved.takenAt) : when(saved.takenAt);
    const band = h(
      "p",
      { class: "offline-band", id: "offline-band" },
      t(silent ? "silentBand" : "offlineBand", { time: listTime }),
      old ? ` · ${t("listOld")}` : "",
    );
    const v = offlineVerdict(saved, p, at);
    keepCheck({
      registration_number: p,
      zone: z,
      checked_at: new Date(at).toISOString(),
      verdict: v ? v.state : "not_in_list",
      list_taken_at: new Date(saved.takenAt).toISOString(),
      ...(read ? { camera_read: read } : {}),
    });
    if (v) {
      // An old list may have missed a cancel or a revoked permit: it never answers in green.
      const tone = old && LOOKS[v.state].tone === "ok" ? "warn" : LOOKS[v.state].tone;
      showBlock(
        `${tone} offline-answer`,
        ...verdictView(v, at, band),
        noticeButton(v),
        v.observation === null ? markControls(p, z) : null,
      );
      return;
    }
    showBlock(
      "unknown offline-answer",
      band,
      h("p", { class: "verdict", "data-verdict": "not_in_list", "data-zone": z }, t("notInList")),
      h("p", { class: "plate-shown" }, p.toUpperCase()),
      h("p", { class: "detail" }, t("notInListDetail", { zone: z, time: clockTime(saved.takenAt) })),
      h("p", { class: "checked", id: "checked-at", "data-at": at }, checkedText(at, at)),
      markControls(p, z),
    );
  }

  /** "Write notice" under a verdict that a notice may follow, for a credential that may issue one. */
  function noticeButton(v: Verdict): HTMLElement | null {
    if (!owner || (v.state !== "none" && v.state !== "over_time_limit")) return null;
    const start: NoticeStart = {
      plate: v.permits[0]?.registration_number ?? v.registration_number,
      zone: v.zone,
      lotId: null,
      verdict: v.state,
    };
    return h(
      "div",
      { class: "ask-buttons" },
      h(
        "button",
        { type: "button", id: "write-notice", onclick: () => void openNotice(start) },
        t("writeNotice"),
      ),
    );
  }

  /**
   * "Mark" under a verdict for a car not marked in this zone today, for a credential that may
   * issue notices: the box keeps when it was first seen, and a later check here says how long ago.
   * The mark is kept on the phone first, with the time of marking (the box's time as the phone
   * knows it), and sent by the queue the notices use: at once, or when the box answers again.
   */
  function markControls(plateText: string, z: number): HTMLElement | null {
    // A zone without a time limit has nothing to mark: the box would refuse it.
    if (!owner || (limits.has(z) && limits.get(z) === null)) return null;
    const note = h("input", {
      id: "mark-note",
      name: "mark-note",
      autocomplete: "off",
      maxlength: 500,
      placeholder: t("markNote"),
      "aria-label": t("markNote"),
    });
    const said = h("p", { class: "detail", id: "mark-said", role: "status" });
    const button = h("button", { type: "button", id: "mark" }, t("mark"));
    const area = h(
      "div",
      { class: "mark-area", id: "mark-area" },
      note,
      h("div", { class: "ask-buttons" }, button),
      said,
    );
    const tell = (state: string, words: string) =>
      replace(area, h("p", { class: `detail mark-${state}`, id: "mark-said", role: "status" }, words));
    button.addEventListener("click", async () => {
      button.setAttribute("disabled", "");
      const mark: WaitingMark = {
        kind: "mark",
        input: {
          id: phoneId(),
          registration_number: plateText.trim(),
          zone: z,
          ...(note.value.trim() ? { note: note.value.trim() } : {}),
          marked_at: new Date(Date.now() + clockOffset()).toISOString(),
        },
        owner: owner!,
        refused: null,
      };
      try {
        await keep(mark);
      } catch (e) {
        button.removeAttribute("disabled");
        replace(said, t("markNotKept", { why: (e as Error).message }));
        return;
      }
      const markedAt = Date.parse(mark.input.marked_at);
      const kept = () => tell("waiting", t("markKept", { time: hhmm(markedAt), zone: z }));
      // Said at once when the box is slow to answer; a box that answers at once is not "waiting".
      const slow = setTimeout(kept, 800);
      shownMark = {
        id: mark.input.id,
        show: (outcome) => {
          clearTimeout(slow);
          if (!outcome.done) {
            if (outcome.refused) tell("refused", t("markRefused", { why: outcome.refused }));
            else kept();
            return;
          }
          if (!("mark" in outcome)) return;
          const data = outcome.mark;
          const first = Date.parse(instant(data.first_seen_at)!);
          const words = { time: hhmm(first), zone: data.zone, limit: span(data.limit_seconds) };
          // Seen before this mark (another handheld, this morning): that first time stands. A
          // phone a little fast is moved back to the box's time, up to 2 minutes: not "before".
          tell("sent", t(markedAt - first > 150_000 ? "markedBefore" : "marked", words));
          // The saved list carries the mark, so an offline check later says it too.
          if (zone === data.zone) void askSaved(data.zone);
        },
      };
      // A round already on its way when the mark was kept does not take it: one more then.
      const sent = await sendAll();
      if (
        !sent.some((x) => x.id === mark.input.id) &&
        !(await sendAll()).some((x) => x.id === mark.input.id)
      ) {
        // Behind an older notice or mark the box did not take: it waits its turn.
        clearTimeout(slow);
        kept();
      }
    });
    return area;
  }

  /** The mark just made, shown under its verdict; it follows what the queue learns of it. */
  let shownMark: { id: string; show: (outcome: Sent) => void } | null = null;
  /** Refused marks already said under their verdict. */
  const toldRefused = new Set<string>();
  /** Refused marks said above the page until the next check. */
  let refusedMarks: string[] = [];

  async function openNotice(start: NoticeStart): Promise<void> {
    if (!owner) return;
    const fromScan = scanned(start.plate);
    // Made as the plate filled the field; almost always ready by the time the verdict is in.
    const mine = checks;
    const scanPhoto = fromScan ? await fromScan.photo : null;
    if (mine !== checks || !owner) return;
    const form = noticeForm(start, {
      owner,
      boxNow: () => Date.now() + clockOffset(),
      scanPhoto,
      kept: (n) => {
        // One notice per verdict: a second tap would be a second notice for the same car.
        result.querySelector("#write-notice")?.parentElement?.remove();
        // The frame is in this notice, or was left out of it: either way it has had its use.
        if (fromScan && scan === fromScan) scan = null;
        showNotice(n, null, null);
        void sendAll();
      },
      cancel: () => {
        replace(noticeArea);
        plate.focus();
      },
    });
    replace(noticeArea, form);
    form.scrollIntoView({ block: "start" });
    form.querySelector<HTMLElement>("select, button")?.focus();
  }

  /** The summary of the notice just made; it follows what the queue learns of it. */
  let shownNotice: WaitingNotice | null = null;
  function showNotice(
    n: WaitingNotice,
    receipt: Parameters<typeof noticeSummary>[1],
    refused: string | null,
  ): void {
    shownNotice = n;
    replace(noticeArea, noticeSummary(n, receipt, refused));
  }

  /**
   * Offers the waiting notices and marks to the box; the notice's summary and what waits follow.
   * What was sent in the round.
   */
  async function sendAll(): Promise<Sent[]> {
    if (!owner) return [];
    let sent: Sent[] = [];
    try {
      sent = await sendWaiting(owner);
    } catch {
      // The phone's storage could not be read: tried again with the next round.
    }
    const markOutcome = shownMark && sent.find((s) => s.id === shownMark?.id);
    if (shownMark && markOutcome) {
      shownMark.show(markOutcome);
      // Said under its verdict: not said again above the next one.
      if (!markOutcome.done && markOutcome.refused) toldRefused.add(markOutcome.id);
    }
    const mine = shownNotice;
    const outcome = mine && sent.find((s) => s.id === mine.input.id);
    if (mine && outcome)
      showNotice(
        mine,
        outcome.done && "receipt" in outcome ? outcome.receipt : null,
        outcome.done ? null : outcome.refused,
      );
    await showWaiting();
    return sent;
  }

  /** The notices waiting, as a line; the marks waiting, each with its car, zone and time. */
  async function showWaiting(): Promise<void> {
    const left = (await waiting().catch(() => [])).filter((n) => n.owner === owner);
    const notices = left.filter((n) => !isMark(n));
    // A mark the box refused is said once, with why, and goes: it cannot be sent again, and a
    // panel of refusals above every later verdict only hides the verdicts.
    for (const m of left.filter(isMark)) {
      if (!m.refused) continue;
      if (!toldRefused.delete(m.input.id))
        refusedMarks.push(
          t("markRefusedOf", {
            plate: m.input.registration_number.toUpperCase(),
            zone: m.input.zone,
            why: m.refused,
          }),
        );
      await discard(m.input.id).catch(() => {});
    }
    const marks = left.filter((m) => isMark(m) && !m.refused) as WaitingMark[];
    const refused = notices.filter((n) => n.refused).length;
    noticesWaiting.hidden = notices.length === 0;
    replace(
      noticesWaiting,
      notices.length ? t("noticesWaiting", { n: notices.length - refused }) : "",
      refused ? ` · ${t("noticesRefused", { n: refused })}` : "",
    );
    marksWaiting.hidden = marks.length === 0 && refusedMarks.length === 0;
    replace(
      marksWaiting,
      refusedMarks.length
        ? h(
            "div",
            { id: "marks-refused", role: "status" },
            h(
              "ul",
              null,
              refusedMarks.map((why) => h("li", { class: "refused" }, why)),
            ),
          )
        : null,
      marks.length ? h("h2", null, t("marksWaiting", { n: marks.length })) : null,
      marks.length
        ? h(
            "ul",
            { id: "marks-waiting-list" },
            marks.map((m) =>
              h(
                "li",
                { class: "waiting", "data-id": m.input.id },
                h("span", { class: "plate-chip" }, m.input.registration_number.toUpperCase()),
                ` ${t("zone")} ${m.input.zone} · ${t("markedAt", { time: hhmm(Date.parse(m.input.marked_at)) })}`,
              ),
            ),
          )
        : null,
    );
  }

  /** How far the box's clock is ahead of the phone's, as learnt from its answers (ms). */
  function clockOffset(): number {
    return Number(localStorage.getItem(CLOCK_OFFSET_KEY)) || 0;
  }

  function learnClock(res: Response): void {
    const date = Date.parse(res.headers.get("date") ?? "");
    // The Date header is cut to the second: half a second is its mean loss.
    if (Number.isFinite(date)) localStorage.setItem(CLOCK_OFFSET_KEY, String(date + 500 - Date.now()));
  }

  /** The car's earlier checks today at this site: a returning car, or a new one. */
  async function showEarlier(plateNorm: string, checkedAt: string): Promise<void> {
    try {
      const { data } = await api<{ data: PlateChecks }>(
        "GET",
        `/api/v1/attendants/checks${query({ registration_number: plateNorm })}`,
        undefined,
        CHECK_TIMEOUT_MS,
      );
      // The check just made is among them: the earlier ones are those before it (one format, so
      // the text orders as the instant does).
      const before = data.filter((c) => c.at < checkedAt);
      replace(
        earlier,
        h("h2", null, t("earlierToday")),
        before.length
          ? h(
              "ul",
              null,
              before.map((c) =>
                h(
                  "li",
                  null,
                  `${clockTime(Date.parse(c.at.replace(/(\.\d{3})\d+Z$/, "$1Z")))} · ${c.zone === null ? "–" : `${t("zone")} ${c.zone}`} · ${c.credential.replace(/^(token|user):/, "")} · ${t(c.verdict ? (`verdict_${c.verdict}` as const) : c.offline ? "verdict_not_in_list" : "verdict_plate")}${c.offline ? ` · ${t("answeredOffline")}` : ""}`,
                ),
              ),
            )
          : h("p", null, t("earlierNone")),
      );
    } catch {
      replace(earlier);
    }
  }

  // Verdicts age on screen: grey past two minutes, with how long ago.
  const checkedTimer = setInterval(() => {
    const el = result.querySelector<HTMLElement>("#checked-at");
    if (!el) return;
    const at = Number(el.dataset.at);
    el.textContent = checkedText(at, Date.now());
    result.classList.toggle("stale", Date.now() - at >= STALE_MS);
  }, 5_000);

  // The zone list, live.
  const zoneState = h("p", { class: "zone-state", id: "zone-state", role: "status", "aria-live": "polite" });
  const filter = h("input", {
    id: "zone-filter",
    type: "search",
    placeholder: t("filter"),
    "aria-label": t("filter"),
  });
  const plates = h("ul", { class: "plates", id: "plates" });
  /** How many of the zone's plates are not drawn: the filter narrows to them. */
  const platesMore = h("p", { class: "detail plates-more", id: "plates-more", hidden: true });
  let current: string[] = [];
  let feed: { close(): void } | undefined;
  let zone: number | undefined;
  let listId = "";
  let lastHeard = 0;
  /** The feed is delivering: the list shown is the box's, not the saved one. */
  let live = false;
  const saved = new Map<number, SavedZone>();
  /**
   * The watched zone's saved list as last kept, parsed: read back from the Cache API only when the
   * page starts or the zone changes (a busy zone's list is megabytes of JSON to parse).
   */
  let heldList: { zone: number; list: ZonePermits; etag: string | null } | null = null;
  let savedTimer: ReturnType<typeof setTimeout> | undefined;
  let savedAsking = false;
  /** Asked while an ask was on its way (a mark made meanwhile): ask once more after it. */
  let askAgain = false;
  let lastAsked = 0;
  let savedDue = 0;
  let checks = 0;

  /**
   * The zone's plates as found, at most PLATES_DRAWN of them, only while the attendant searches:
   * a busy zone has 20,000, and drawing them all on every change of the feed stopped the phone
   * for seconds. Otherwise the patrol list is shown. Changes that come together are drawn once.
   */
  let drawDue = false;
  const renderPlates = () => {
    if (drawDue) return;
    drawDue = true;
    setTimeout(drawPlates, 0);
  };
  const plateButton = (p: string, ...more: (Node | string | null)[]) =>
    h(
      "button",
      {
        type: "button",
        onclick: () => {
          plate.value = p;
          window.scrollTo(0, 0);
          void check(p);
        },
      },
      h("span", { class: "plate-text" }, p),
      ...more,
    );
  const drawPlates = () => {
    drawDue = false;
    const f = filter.value.replace(/[\s-]/g, "").toUpperCase();
    patrolArea.hidden = f !== "";
    plates.hidden = f === "";
    if (!f) {
      platesMore.hidden = true;
      replace(plates);
      drawPatrol();
      return;
    }
    const kept: string[] = [];
    let matching = 0;
    for (const p of current) {
      if (!p.replace(/[\s-]/g, "").toUpperCase().includes(f)) continue;
      matching++;
      if (kept.length < PLATES_DRAWN) kept.push(p);
    }
    platesMore.hidden = matching <= kept.length;
    replace(platesMore, matching > kept.length ? t("platesMore", { n: matching - kept.length }) : "");
    replace(
      plates,
      kept.map((p) => h("li", null, plateButton(p))),
    );
  };

  // The patrol list: what needs the attendant in the zone now, made on the phone from the saved list.
  const patrolHead = h("h2", { class: "patrol-head", id: "patrol-head" }, t("patrolHead"));
  const patrol = h("ul", { class: "patrol", id: "patrol" });
  const patrolNote = h("p", { class: "detail patrol-note", id: "patrol-note" });
  const patrolArea = h("div", { class: "patrol-area" }, patrolHead, patrolNote, patrol);
  let patrolCars: PatrolCar[] | null = null;
  let patrolAt = 0;
  let patrolRun = 0;
  /** The patrol list is made again this often (time moves cars onto it), and at each new saved list. */
  const patrolTimer = setInterval(() => void makePatrol(), PATROL_EVERY_MS);

  /** Where each of the zone's lots is, for nearest first. */
  function lotPoints(z: number): Map<number, KnownZones[number]["lots"][number]["locations"]> {
    return new Map((known?.get(z)?.lots ?? []).map((l) => [l.id, l.locations]));
  }

  /**
   * The watched zone's patrol list, judged a slice of plates at a time with the page free to
   * answer a check between slices; a run overtaken by a newer one (a new list, a new zone) stops.
   */
  async function makePatrol(): Promise<void> {
    const run = ++patrolRun;
    const z = zone;
    const list = z === undefined ? undefined : saved.get(z);
    if (z === undefined || !list) {
      patrolCars = null;
      renderPlates();
      return;
    }
    const at = Date.now() + clockOffset();
    const place = { here, lots: lotPoints(z) };
    const keys = [...list.byPlate.keys()];
    const found: PatrolCar[] = [];
    let sliceStart = performance.now();
    for (let i = 0; i < keys.length; i += PATROL_STEP) {
      if (performance.now() - sliceStart > PATROL_SLICE_MS) {
        await nextTask();
        if (run !== patrolRun) return;
        sliceStart = performance.now();
      }
      found.push(...dueCars(list, keys.slice(i, i + PATROL_STEP), at, place));
    }
    patrolCars = found.sort(patrolOrder);
    patrolAt = at;
    renderPlates();
  }

  function patrolWords(c: PatrolCar): string {
    const time = c.at === null ? "" : hhmm(c.at);
    const reason =
      c.reason === "outside_hours" && c.at === null
        ? t("patrol_outside_hours_closed")
        : t(`patrol_${c.reason}` as const, { time });
    const parts = [reason];
    if (c.at !== null && c.reason !== "outside_hours")
      parts.push(
        c.at <= patrolAt
          ? t("patrolAgo", { age: age(patrolAt - c.at) })
          : t("patrolIn", { age: age(c.at - patrolAt) }),
      );
    if (c.lotName) parts.push(c.lotName);
    if (c.distance !== null) parts.push(t("patrolMetres", { n: Math.round(c.distance) }));
    return parts.join(" · ");
  }

  function drawPatrol(): void {
    if (patrolCars === null) {
      replace(patrolNote, zone === undefined ? "" : t("patrolWaiting"));
      replace(patrol);
      return;
    }
    const shown = patrolCars.slice(0, PLATES_DRAWN);
    replace(
      patrolNote,
      patrolCars.length === 0
        ? t("patrolNone")
        : patrolCars.length > shown.length
          ? t("patrolMore", { n: patrolCars.length - shown.length })
          : "",
    );
    replace(
      patrol,
      shown.map((c) =>
        h(
          "li",
          { "data-reason": c.reason },
          plateButton(
            c.plate,
            h("span", { class: `patrol-why urgency-${PATROL_URGENCY[c.reason]}` }, patrolWords(c)),
          ),
        ),
      ),
    );
  }

  async function loadSaved(z: number): Promise<SavedZone | null> {
    const held = saved.get(z);
    if (held) return held;
    const kept = await savedPermits(z).catch(() => null);
    if (!kept) return null;
    const ready = savedZone(kept.list);
    saved.set(z, ready);
    return ready;
  }

  /**
   * The live list is kept on the phone at most every ZONE_KEPT_MS: writing a busy zone's plates
   * to the Cache API at each of five changes a second was most of the page's work.
   */
  let zoneKeptTimer: ReturnType<typeof setTimeout> | undefined;
  function keepZoneSoon(z: number): void {
    if (zoneKeptTimer !== undefined) return;
    zoneKeptTimer = setTimeout(() => {
      zoneKeptTimer = undefined;
      if (zone === z) void saveZone(z, current).catch(() => {});
    }, ZONE_KEPT_MS);
  }

  /** Asks the box for the zone's saved list (a 304 when it has not changed), and keeps it. */
  function refreshSaved(z: number, soon = false): void {
    const at = Math.max(Date.now(), lastAsked + (soon ? SAVED_LIST_SOONEST_MS : SAVED_LIST_EVERY_MS));
    // An ask already due sooner stands; a later one is brought forward.
    if (savedTimer !== undefined && savedDue <= at) return;
    clearTimeout(savedTimer);
    savedDue = at;
    savedTimer = setTimeout(() => {
      savedTimer = undefined;
      void askSaved(z);
    }, at - Date.now());
  }

  async function askSaved(z: number): Promise<void> {
    if (zone !== z) return;
    if (savedAsking) {
      askAgain = true;
      return;
    }
    savedAsking = true;
    lastAsked = Date.now();
    refreshSaved(z);
    try {
      const kept = heldList?.zone === z ? heldList : await savedPermits(z).catch(() => null);
      await nextTask();
      const headers: Record<string, string> = { accept: "application/json" };
      if (kept?.etag) headers["if-none-match"] = kept.etag;
      // The version held: the box answers only what changed since, while it knows that version.
      const since = kept?.etag ? `?since=${encodeURIComponent(kept.etag)}` : "";
      const res = await fetch(`${zonePermitsPath(z)}${since}`, {
        headers,
        credentials: "same-origin",
        cache: "no-store",
        signal: AbortSignal.timeout(15_000),
      });
      learnClock(res);
      if (res.status === 200) {
        const answer = (await res.json()) as ZonePermits | ZonePermitChanges;
        let list: ZonePermits | null = null;
        if (!("since" in answer)) list = answer;
        else if (kept && answer.since === kept.etag) {
          // The changes from the version held, applied by the code the box tests them with.
          const { zone: _, since: __, removed: ___, ...now } = answer;
          list = { ...kept.list, ...now, ...applyChanges(kept.list, answer) };
        }
        // Changes from a version not held here any more: the next ask takes the list whole.
        if (!list) return;
        // A busy zone's list is megabytes: each step in a task of its own, so a check typed
        // meanwhile is answered between them.
        await savePermits(z, await listBytes(list, nextTask), res.headers.get("etag"));
        heldList = { zone: z, list, etag: res.headers.get("etag") };
        await nextTask();
        saved.set(z, savedZone(list));
        void makePatrol();
      } else if (res.status === 304 && kept) {
        // Unchanged, as the box says now: the list is current as of now.
        const list = { ...kept.list, taken_at: new Date(Date.now() + clockOffset()).toISOString() };
        await savePermits(z, await listBytes(list, nextTask), kept.etag);
        heldList = { zone: z, list, etag: kept.etag };
        await nextTask();
        saved.set(z, savedZone(list));
        void makePatrol();
      }
    } catch {
      // Kept as it was; asked again with the next change or minute.
    } finally {
      savedAsking = false;
      if (askAgain) {
        askAgain = false;
        void askSaved(z);
      }
    }
  }

  function showLive(z: number): void {
    sendChecks();
    zoneState.className = "zone-state live";
    replace(zoneState, `● ${t("live")} · ${t("activeInZone", { n: current.length, zone: z })}`);
  }

  /** The feed is gone: the saved list, and how long the box has been silent. */
  async function showSaved(z: number): Promise<void> {
    const list = await savedPlates(z).catch(() => null);
    if (zone !== z || live) return;
    zoneState.className = "zone-state offline";
    // The phone's own network gone says so; a box gone silent says how long.
    const lost =
      lastHeard && navigator.onLine
        ? `${t("notLive", { age: age(Date.now() - lastHeard) })} · `
        : `${t("offline")} · `;
    if (!list) {
      current = [];
      replace(zoneState, `${lost}${t("noSavedList")}`);
    } else {
      current = list.plates;
      replace(zoneState, `${lost}${t("savedAt", { time: when(list.at), age: age(Date.now() - list.at) })}`);
    }
    renderPlates();
  }

  // While the feed is down, the saved list's age and the silence are told again every 5 s.
  const ageTimer = setInterval(() => {
    if (zone !== undefined && !live && zoneState.className.includes("offline")) void showSaved(zone);
  }, 5_000);

  function watch(z: number): void {
    feed?.close();
    clearTimeout(savedTimer);
    savedTimer = undefined;
    zone = z;
    listId = "";
    current = [];
    lastHeard = 0;
    lastAsked = 0;
    live = false;
    localStorage.setItem(ZONE_KEY, String(z));
    zoneState.className = "zone-state";
    replace(zoneState, t("reconnecting"));
    patrolCars = null;
    // The patrol list from the list kept on the phone, until the box sends a newer one.
    void loadSaved(z).then(() => {
      if (zone === z) void makePatrol();
    });
    // While connecting, the saved list is shown (the state says it is not live yet).
    void savedPlates(z)
      .then((list) => {
        if (list && zone === z && !live) {
          current = list.plates;
          renderPlates();
        }
      })
      .catch(() => {});
    // After the first list, only what changed comes (?changes=1); the id of the list held so far
    // tells whether a change follows on from it.
    feed = openFeed(`/api/v1/tickets/zone/${z}/events?changes=1`, () => listId, {
      event: (ev) => {
        lastHeard = Date.now();
        if (ev.event === "ended") {
          feed?.close();
          sessionLost();
          return;
        }
        if (ev.event === "plates") current = (JSON.parse(ev.data) as { data: string[] }).data;
        else if (ev.event === "changes") {
          const change = JSON.parse(ev.data) as ZoneChange;
          // A change that does not follow on from the list held: start again from the server's list.
          if (change.from !== listId) return watch(z);
          current = applyChange(current, change);
        } else return;
        listId = ev.id;
        live = true;
        showLive(z);
        renderPlates();
        keepZoneSoon(z);
        refreshSaved(z, true);
      },
      alive: () => {
        lastHeard = Date.now();
        // Resumed with nothing missed: the list held is current again.
        if (listId) {
          live = true;
          showLive(z);
        }
        refreshSaved(z, true);
      },
      lost: () => {
        live = false;
        // The last list heard is the one to keep, not one up to ZONE_KEPT_MS older.
        if (listId && zone === z) void saveZone(z, current).catch(() => {});
        if (zone === z) void showSaved(z);
      },
      unauthorized: () => {
        // Closed for good: ask the box why (a revoked token, an ended session).
        void api("GET", "/api/v1/session").catch((e) => {
          if (e instanceof ApiError && e.status === 401) sessionLost();
        });
      },
    });
  }

  function watchTyped(): void {
    const z = typedZone();
    if (z !== undefined && z !== null && z !== zone) watch(z);
  }

  const zoneForm = h(
    "form",
    { class: "zone-pick", id: "zone-form", onsubmit: prevented(watchTyped) },
    h("label", { for: "zone" }, t("pickZone")),
    zoneInput,
    knownList,
    h("button", { type: "submit" }, t("show")),
  );
  // A zone picked or typed counts at once for the list below; the check reads the field anyway.
  zoneInput.addEventListener("change", watchTyped);
  // The zone as typed moves the live list once typing pauses, not only when the field loses focus
  // (the verdict already judges the zone in the field): an attendant who types a zone and looks
  // at the list sees that zone's.
  let typedTimer: ReturnType<typeof setTimeout> | undefined;
  zoneInput.addEventListener("input", () => {
    clearTimeout(typedTimer);
    typedTimer = setTimeout(watchTyped, ZONE_TYPED_MS);
  });
  filter.addEventListener("input", renderPlates);
  // The browser knows before the feed does: no waiting out the silence or the backoff.
  const onOffline = () => {
    live = false;
    if (zone !== undefined) void showSaved(zone);
  };
  const onOnline = () => {
    if (owner) void sendAll();
    sendChecks();
    if (zone !== undefined) watch(zone);
  };
  window.addEventListener("offline", onOffline);
  window.addEventListener("online", onOnline);

  replace(
    root,
    h(
      "div",
      { class: "attendant" },
      checkForm,
      cameraNote,
      camera.view,
      noticesWaiting,
      marksWaiting,
      result,
      noticeArea,
      earlier,
      h("section", { class: "zone" }, zoneForm, zoneState, filter, plates, platesMore, patrolArea),
    ),
  );
  plate.focus();
  void loadKnown();
  // The plate reader loads after the page is drawn and idle, never in the way of the first check.
  const warmTimer = setTimeout(() => camera.warm(), READER_WARM_MS);
  // Notices left waiting (made offline, or the page closed while sending) go first.
  const noticeTimer = owner ? setInterval(() => void sendAll(), NOTICES_EVERY_MS) : undefined;
  // Offline checks a first try could not send (the box not yet answering writes) are tried again.
  const checksTimer = setInterval(sendChecks, CHECKS_EVERY_MS);
  if (owner) void loadReasons().then(sendAll);
  watchTyped();
  // Said plainly, once, where the attendant looks: without it a lost Wi-Fi empties the page.
  void offlineUse.then((ok) => {
    if (!ok)
      root.prepend(
        h(
          "p",
          { class: "warning", id: "no-offline", role: "status" },
          t("noOfflineUse"),
          " ",
          h("a", { href: "#/setup" }, t("setupLink")),
        ),
      );
  });

  return () => {
    clearTimeout(warmTimer);
    camera.close();
    scan = null;
    clearInterval(ageTimer);
    clearInterval(patrolTimer);
    clearInterval(checkedTimer);
    clearInterval(noticeTimer);
    clearInterval(checksTimer);
    clearTimeout(savedTimer);
    clearTimeout(zoneKeptTimer);
    feed?.close();
    window.removeEventListener("offline", onOffline);
    window.removeEventListener("online", onOnline);
  };
}
