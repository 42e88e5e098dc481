/**
 * Point the phone at the plate: the rear camera with a framing guide, the plate read on the phone
 * (src/client/plate-reader, its files from the box alone) and held against the country's plate
 * formats (src/domain/plate-formats.ts). A read is only ever put into the plate field: the
 * attendant sees it and taps Check (or corrects it first), so no car is judged by a read nobody
 * looked at. A read the formats take fills the field at once; an unsure one is offered, to be
 * taken, retaken (keep pointing) or typed instead. The whole frame a read came from goes along
 * with it, as a notice photo, so the car's notice need not have its photo taken again.
 */
import { type PlateCountryCode, readPlate, SURE_CORRECTIONS } from "../domain/plate-formats.ts";
import { h, replace, svg } from "./dom.ts";
import { t } from "./i18n.ts";
import { scaledPicture } from "./photo-scale.ts";
import { createPlateReader, guideRect, type PlateReader } from "./plate-reader/index.ts";

/** The plates the box's site has: Swedish, the formats every read is held against. */
const COUNTRY: PlateCountryCode = "se";
/*
 * The engine's confidence does not tell a right read from a wrong one (bench/plate-reads/README.md:
 * 165 of 471 exact reads scored 0, and any cut-off dropped far more right reads than wrong ones),
 * so it is shown but decides nothing: a read the plate formats take with at most one correction
 * fills the field; one with two is offered as unsure; a last character one look-alike from another
 * plate fills it with a word to look at that character.
 */
/** Between reads: the engine's worker has one frame at a time, and a phone's battery matters. */
const PAUSE_MS = 120;

export interface CameraRead {
  /** The plate as matched (normalizePlate's form), what the lookup record keeps as the camera's. */
  plate: string;
  /** As people write it: what goes into the field. */
  shown: string;
  confidence: number;
  /** Another plate one look-alike away (`ABC 12B` for `ABC 128`): the attendant is told to look. */
  lookAlike: string | null;
  /**
   * The whole camera frame the plate was read from (not only the guide's crop: the car shows),
   * made small as a notice photo; null when it could not be. Memory only: it is for this car's
   * notice, kept on the phone only if it goes into one.
   */
  frame: Promise<Blob | null>;
}

/** A read as the loop has it: the frame it came from, made a photo only if the read is taken. */
type Candidate = Omit<CameraRead, "frame"> & { picture: HTMLCanvasElement };

/** Scaled once, for the read taken: encoding every frame would slow the reading. */
const taken = ({ picture, ...read }: Candidate): CameraRead => ({
  ...read,
  frame: scaledPicture(picture).catch(() => null),
});

export interface PlateCamera {
  /** The button beside the plate field; hidden where the phone has no camera or cannot read. */
  readonly button: HTMLButtonElement;
  /** The camera's view, shown while it reads. */
  readonly view: HTMLElement;
  /** Starts the reader in the background (after sign-in, once the page has drawn), if a camera is there. */
  warm(): void;
  close(): void;
}

let reader: Promise<PlateReader> | null = null;
/** One reader a page: its worker holds the engine and the model (some 10 MB) once. */
function theReader(): Promise<PlateReader> {
  if (reader) return reader;
  const base = document.querySelector<HTMLMetaElement>('meta[name="plate-reader"]')?.content;
  const starting = base
    ? createPlateReader({ base })
    : Promise.reject(new Error("no plate reader on this box"));
  // A reader that failed to start is tried again at the next tap (the box may be back).
  starting.catch(() => {
    if (reader === starting) reader = null;
  });
  reader = starting;
  return starting;
}

/** The engine's confidence as the page words it. */
export const percent = (c: number) => Math.round(c * 100);

export function plateCamera(opts: {
  /** A read the attendant is to check: put it in the field. */
  onRead(read: CameraRead): void;
  /** The view closed without a read; `why` says why when it was not the attendant's choice. */
  onClosed(why: string | null): void;
}): PlateCamera {
  const video = h("video", { class: "camera-video", playsinline: true, muted: true, autoplay: true });
  video.muted = true;
  const guide = h("div", { class: "camera-guide", "aria-hidden": "true" });
  const frame = h("div", { class: "camera-frame" }, video, guide);
  const status = h("p", { class: "camera-status", id: "camera-status", role: "status" });
  const offer = h("div", { class: "camera-offer" });
  const typeInstead = h(
    "button",
    { type: "button", id: "camera-type", class: "secondary", onclick: () => stop(null) },
    t("cameraType"),
  );
  const view = h(
    "section",
    { class: "camera", id: "camera", hidden: true, "aria-label": t("cameraTitle") },
    frame,
    status,
    offer,
    typeInstead,
  );
  const button = h(
    "button",
    {
      type: "button",
      id: "camera-button",
      class: "camera-button",
      "aria-label": t("cameraButton"),
      title: t("cameraButton"),
      onclick: () => void open(),
    },
    cameraIcon(),
  );

  let stream: MediaStream | null = null;
  /** Each opening's number: a loop of an earlier opening stops at its next turn. */
  let opening = 0;

  function stop(why: string | null, read?: Candidate): void {
    opening++;
    for (const track of stream?.getTracks() ?? []) track.stop();
    stream = null;
    video.srcObject = null;
    view.hidden = true;
    replace(offer);
    if (read) opts.onRead(taken(read));
    else opts.onClosed(why);
  }

  async function open(): Promise<void> {
    const mine = ++opening;
    if (!navigator.mediaDevices?.getUserMedia) {
      // Browsers give the camera to secure pages only: over plain HTTP there is none to ask for.
      stop(t(window.isSecureContext ? "cameraNone" : "cameraInsecure"));
      return;
    }
    view.hidden = false;
    replace(offer);
    status.textContent = t("cameraStarting");
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } },
        audio: false,
      });
    } catch (e) {
      const name = (e as DOMException).name;
      if (mine !== opening) return;
      stop(
        t(
          name === "NotAllowedError" || name === "SecurityError"
            ? "cameraRefused"
            : name === "NotFoundError" || name === "OverconstrainedError"
              ? "cameraNone"
              : "cameraFailed",
        ),
      );
      return;
    }
    if (mine !== opening) {
      for (const track of stream.getTracks()) track.stop();
      return;
    }
    video.srcObject = stream;
    await video.play().catch(() => {});
    status.textContent = t("cameraLoading");
    let engine: PlateReader;
    try {
      engine = await theReader();
    } catch {
      if (mine === opening) stop(t("readerFailed"));
      return;
    }
    if (mine === opening) status.textContent = t("cameraHint");
    await readFrames(engine, mine);
  }

  async function readFrames(engine: PlateReader, mine: number): Promise<void> {
    let canvas: HTMLCanvasElement | null = null;
    /** The whole frame being read: the guide's crop is cut from it, so a read's photo is its frame. */
    let picture: HTMLCanvasElement | null = null;
    let unsure: Candidate | null = null;
    while (mine === opening) {
      const w = video.videoWidth;
      const hgt = video.videoHeight;
      if (w > 0 && hgt > 0) {
        const g = guideRect(w, hgt);
        placeGuide(w, hgt, g);
        picture ??= document.createElement("canvas");
        picture.width = w;
        picture.height = hgt;
        picture.getContext("2d")?.drawImage(video, 0, 0, w, hgt);
        canvas ??= document.createElement("canvas");
        canvas.width = g.width;
        canvas.height = g.height;
        canvas.getContext("2d")?.drawImage(picture, g.x, g.y, g.width, g.height, 0, 0, g.width, g.height);
        let text: { text: string; confidence: number };
        try {
          text = await engine.read(canvas);
        } catch {
          if (mine === opening) stop(t("readerFailed"));
          return;
        }
        if (mine !== opening) return;
        const r = readPlate(text.text, COUNTRY);
        if (r.ok) {
          const read: Candidate = {
            plate: r.plate,
            shown: r.shown,
            confidence: text.confidence,
            lookAlike: r.lookAlike,
            picture,
          };
          if (r.corrected <= SURE_CORRECTIONS) {
            stop(null, read);
            return;
          }
          if (!unsure || read.confidence > unsure.confidence) {
            unsure = read;
            // The offered read keeps its frame; the next frame is drawn on a canvas of its own.
            picture = null;
            offerUnsure(unsure);
          }
        }
      }
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  }

  /** A read with more corrections than a sure one: said to be unsure, taken only by a tap; reading goes on. */
  function offerUnsure(read: Candidate): void {
    status.textContent = t("cameraUnsure", { plate: read.shown, pct: percent(read.confidence) });
    replace(
      offer,
      h(
        "button",
        { type: "button", id: "camera-use", onclick: () => stop(null, read) },
        t("cameraUse", { plate: read.shown }),
      ),
    );
  }

  /** The guide drawn where the crop is taken: in shares of the picture, whatever its shown size. */
  function placeGuide(
    w: number,
    hgt: number,
    g: { x: number; y: number; width: number; height: number },
  ): void {
    guide.style.left = `${(g.x / w) * 100}%`;
    guide.style.top = `${(g.y / hgt) * 100}%`;
    guide.style.width = `${(g.width / w) * 100}%`;
    guide.style.height = `${(g.height / hgt) * 100}%`;
    frame.style.aspectRatio = `${w} / ${hgt}`;
  }

  return {
    button,
    view,
    warm() {
      // Only a phone with a camera fetches the reader (some 4 MB, once: the service worker keeps it).
      void navigator.mediaDevices
        ?.enumerateDevices?.()
        .then((devices) => {
          if (devices.some((d) => d.kind === "videoinput")) void theReader().catch(() => {});
        })
        .catch(() => {});
    },
    close: () => {
      if (!view.hidden) stop(null);
    },
  };
}

/** A camera, drawn: an emoji is a blank box on a phone without an emoji font. */
function cameraIcon(): SVGElement {
  return svg(
    "svg",
    { viewBox: "0 0 24 24", width: 28, height: 28, "aria-hidden": "true", focusable: "false" },
    svg("path", {
      d: "M4 7h3l2-3h6l2 3h3a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z",
      fill: "none",
      stroke: "currentColor",
      "stroke-width": 2,
      "stroke-linejoin": "round",
    }),
    svg("circle", { cx: 12, cy: 13, r: 4, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
  );
}
