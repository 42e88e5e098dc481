/**
 * Synthetic camera frames of Swedish plates, the same for the same seed: what the plate reader's
 * bench measures and what the attendant page's browser test feeds its fake camera.
 *
 * - `plateSceneSpec(seed, index)` (pure, anywhere): everything random about scene `index` of
 *   `seed`: the plate (`ABC 123` or `ABC 12A`, Swedish letters), the camera resolution (1280×720,
 *   1920×1080, 640×480 or a portrait 720×1280), where the plate sits in the framing guide
 *   (55–95 % of its width, off centre, up to ±6° rotation, perspective and shear), the car around
 *   it, and up to three degradations of: blur, glare, shadow, dirt, low-light, noise, jpeg-low.
 * - `drawPlateScene(canvas, spec)` (browser): draws it on a canvas of spec.width × spec.height.
 *   It uses nothing outside its own body, so it can be sent into any page as source text.
 * - `renderPlateScenes(page, { seed, count, from? })` (Node, with a Playwright page on any
 *   origin, about:blank will do): the scenes as JPEG bytes (at spec.quality), with their plate,
 *   size and degradations. Concatenated, such JPEGs make a Chromium fake camera file
 *   (`--use-file-for-fake-video-capture=scenes.mjpeg`).
 *
 * The characters are DejaVu Sans Condensed Bold (fonts-dejavu-core, which Debian's Chromium has),
 * the closest condensed bold sans there is here to the Swedish plate type.
 */
import type { Page } from "playwright-core";
import { type GuideRect, guideRect, PLATE_ASPECT } from "../../src/client/plate-reader/guide.ts";
import { mulberry32 } from "./random.ts";

export const SCENE_DEGRADATIONS = [
  "blur",
  "glare",
  "shadow",
  "dirt",
  "low-light",
  "noise",
  "jpeg-low",
] as const;
export type SceneDegradation = (typeof SCENE_DEGRADATIONS)[number];

export interface PlateSceneSpec {
  seed: number;
  index: number;
  /** As matched: `ABC123`. */
  plate: string;
  /** As printed: `ABC 123`. */
  shown: string;
  width: number;
  height: number;
  guide: GuideRect;
  /** The plate's corners in the frame: top-left, top-right, bottom-right, bottom-left. */
  corners: [number, number][];
  /** Car paint, plate white (slightly off), 0..255 each. */
  paint: [number, number, number];
  plateWhite: [number, number, number];
  degradations: SceneDegradation[];
  /** Gaussian blur radius in frame px (0: sharp) and motion smear in px along `motionAngle`. */
  blur: number;
  motion: number;
  motionAngle: number;
  /** A bright spot over the plate: centre in plate units (0..1), radius in plate widths, strength. */
  glare: { u: number; v: number; r: number; strength: number } | null;
  /** A hard-edged shadow over part of the plate: a line across it (plate units) and its darkness. */
  shadow: { u0: number; u1: number; darkness: number; side: 1 | -1 } | null;
  /** Blotches on the plate, in plate units. */
  dirt: { u: number; v: number; r: number; alpha: number; tone: number }[];
  /** The light on the scene (1 daylight, down to about 0.3). */
  light: number;
  /** Sensor noise, standard deviation in levels. */
  noise: number;
  /** JPEG quality, 0..1. */
  quality: number;
  /** Seeds the noise and the car's clutter. */
  pixelSeed: number;
}

export interface RenderedPlateScene {
  plate: string;
  shown: string;
  jpeg: Uint8Array;
  width: number;
  height: number;
  degradations: SceneDegradation[];
  spec: PlateSceneSpec;
}

/** Swedish plate letters; the last position of the new format is never O. */
const LETTERS = "ABCDEFGHJKLMNOPRSTUWXYZ";
const LAST_LETTERS = "ABCDEFGHJKLMNPRSTUWXYZ";

const RESOLUTIONS: [number, number, number][] = [
  // width, height, weight
  [1280, 720, 4],
  [1920, 1080, 3],
  [640, 480, 2],
  [720, 1280, 1],
];

/** Everything random about scene `index` of `seed`. */
export function plateSceneSpec(seed: number, index: number): PlateSceneSpec {
  const rnd = mulberry32(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35));
  const range = (a: number, b: number) => a + (b - a) * rnd();
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

  let plate = "";
  for (let i = 0; i < 3; i++) plate += pick([...LETTERS]);
  plate += Math.floor(rnd() * 10);
  plate += Math.floor(rnd() * 10);
  plate += rnd() < 0.5 ? Math.floor(rnd() * 10) : pick([...LAST_LETTERS]);

  const total = RESOLUTIONS.reduce((s, r) => s + r[2], 0);
  let roll = rnd() * total;
  let [width, height] = [1280, 720];
  for (const [w, h, weight] of RESOLUTIONS) {
    roll -= weight;
    if (roll < 0) {
      [width, height] = [w, h];
      break;
    }
  }
  const guide = guideRect(width, height);

  // The plate in the guide: sized, tilted, seen a little from the side, kept inside the guide.
  const rotation = (range(-6, 6) * Math.PI) / 180;
  const yaw = range(0.9, 1.1);
  const shear = range(-0.07, 0.07);
  let share = range(0.55, 0.95);
  let corners: [number, number][] = [];
  for (let attempt = 0; attempt < 40; attempt++) {
    const pw = guide.width * share;
    const ph = pw / PLATE_ASPECT;
    const left = (ph * 2) / (1 + yaw);
    const right = (ph * 2 * yaw) / (1 + yaw);
    const local: [number, number][] = [
      [-pw / 2, -left / 2],
      [pw / 2, -right / 2],
      [pw / 2, right / 2],
      [-pw / 2, left / 2],
    ];
    const cos = Math.cos(rotation);
    const sin = Math.sin(rotation);
    const placed = local.map(([x, y]) => {
      const xs = x + shear * y;
      return [xs * cos - y * sin, xs * sin + y * cos] as [number, number];
    });
    const xs = placed.map((p) => p[0]);
    const ys = placed.map((p) => p[1]);
    const spanX = [guide.x - Math.min(...xs), guide.x + guide.width - Math.max(...xs)];
    const spanY = [guide.y - Math.min(...ys), guide.y + guide.height - Math.max(...ys)];
    if (spanX[1]! - spanX[0]! < 0 || spanY[1]! - spanY[0]! < 0) {
      share *= 0.97;
      continue;
    }
    const cx = range(spanX[0]!, spanX[1]!);
    const cy = range(spanY[0]!, spanY[1]!);
    corners = placed.map(([x, y]) => [x + cx, y + cy]);
    break;
  }

  const paint: [number, number, number] = pick([
    [200, 200, 205],
    [30, 30, 35],
    [150, 20, 25],
    [20, 50, 120],
    [235, 235, 230],
    [90, 95, 100],
    [160, 160, 150],
    [40, 80, 50],
  ] as [number, number, number][]);
  const whiteness = range(225, 250);
  const plateWhite: [number, number, number] = [whiteness, whiteness, whiteness - range(0, 12)];

  // At most three degradations, so a person could still read every plate at a glance.
  const degradations = SCENE_DEGRADATIONS.filter(() => rnd() < 0.27).slice(0, 3);
  const has = (d: SceneDegradation) => degradations.includes(d);
  const plateHeight = (guide.width * share) / PLATE_ASPECT;
  const blurKind = rnd();
  const blur = has("blur") && blurKind < 0.6 ? plateHeight * range(0.012, 0.03) : 0;
  const motion = has("blur") && blurKind >= 0.6 ? plateHeight * range(0.04, 0.09) : 0;
  const motionAngle = range(-0.5, 0.5);
  const glare = has("glare")
    ? { u: range(0.2, 0.9), v: range(0.2, 0.8), r: range(0.15, 0.35), strength: range(0.45, 0.75) }
    : null;
  const shadow = has("shadow")
    ? {
        u0: range(0.15, 0.85),
        u1: range(0.15, 0.85),
        darkness: range(0.35, 0.6),
        side: (rnd() < 0.5 ? 1 : -1) as 1 | -1,
      }
    : null;
  const dirt = has("dirt")
    ? Array.from({ length: 6 + Math.floor(rnd() * 14) }, () => ({
        u: range(0.05, 0.98),
        v: range(0.05, 0.95),
        r: range(0.01, 0.05),
        alpha: range(0.15, 0.45),
        tone: range(60, 130),
      }))
    : [];
  const light = has("low-light") ? range(0.28, 0.45) : range(0.85, 1.1);
  const noise = has("noise") ? range(7, 14) : has("low-light") ? range(3, 6) : range(1, 3);
  const quality = has("jpeg-low") ? range(0.3, 0.5) : range(0.75, 0.92);
  return {
    seed,
    index,
    plate,
    shown: `${plate.slice(0, 3)} ${plate.slice(3)}`,
    width,
    height,
    guide,
    corners,
    paint,
    plateWhite,
    degradations,
    blur,
    motion,
    motionAngle,
    glare,
    shadow,
    dirt,
    light,
    noise,
    quality,
    pixelSeed: Math.floor(rnd() * 2 ** 31),
  };
}

/**
 * Draws `spec` on `canvas` (resized to the spec). Self-contained: no name from outside its body,
 * so `String(drawPlateScene)` runs in any page.
 */
export function drawPlateScene(canvas: HTMLCanvasElement | OffscreenCanvas, spec: PlateSceneSpec): void {
  canvas.width = spec.width;
  canvas.height = spec.height;
  const g = canvas.getContext("2d", { willReadFrequently: true }) as
    | CanvasRenderingContext2D
    | OffscreenCanvasRenderingContext2D;
  const W = spec.width;
  const H = spec.height;
  let a = spec.pixelSeed >>> 0;
  const rnd = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rgb = (c: number[], k = 1) =>
    `rgb(${Math.round(Math.min(255, c[0]! * k))},${Math.round(Math.min(255, c[1]! * k))},${Math.round(Math.min(255, c[2]! * k))})`;
  const [tl, tr, br, bl] = spec.corners as [
    [number, number],
    [number, number],
    [number, number],
    [number, number],
  ];
  const plateW = Math.hypot(tr[0] - tl[0], tr[1] - tl[1]);
  const plateH = Math.hypot(bl[0] - tl[0], bl[1] - tl[1]);
  const angle = Math.atan2(tr[1] - tl[1], tr[0] - tl[0]);
  const cx = (tl[0] + tr[0] + br[0] + bl[0]) / 4;
  const cy = (tl[1] + tr[1] + br[1] + bl[1]) / 4;

  // The car: paint lit from above, the bumper, the plate's recess, a grille and lamps.
  const body = g.createLinearGradient(0, 0, 0, H);
  body.addColorStop(0, rgb(spec.paint, 1.25));
  body.addColorStop(0.55, rgb(spec.paint, 0.95));
  body.addColorStop(1, rgb(spec.paint, 0.6));
  g.fillStyle = body;
  g.fillRect(0, 0, W, H);
  g.save();
  g.translate(cx, cy);
  g.rotate(angle);
  g.fillStyle = "rgb(25,25,28)";
  g.fillRect(-W, plateH * 0.9, W * 2, plateH * 2.2);
  g.strokeStyle = rgb(spec.paint, 0.5);
  g.lineWidth = Math.max(2, plateH * 0.05);
  for (let i = 0; i < 5; i++) {
    const y = -plateH * (1.1 + i * 0.28);
    g.beginPath();
    g.moveTo(-plateW * (0.7 + rnd() * 0.3), y);
    g.lineTo(plateW * (0.7 + rnd() * 0.3), y);
    g.stroke();
  }
  g.fillStyle = rgb(spec.paint, 0.45);
  g.beginPath();
  g.roundRect(-plateW * 0.58, -plateH * 0.75, plateW * 1.16, plateH * 1.5, plateH * 0.2);
  g.fill();
  for (const side of [-1, 1]) {
    g.fillStyle = "rgba(255,240,220,0.85)";
    g.beginPath();
    g.ellipse(side * plateW * 1.05, -plateH * 1.4, plateW * 0.18, plateH * 0.35, 0, 0, Math.PI * 2);
    g.fill();
  }
  g.restore();

  // The plate, drawn flat at 2 px a millimetre, then warped onto its corners.
  const TW = 1040;
  const TH = 220;
  const tex = new OffscreenCanvas(TW, TH);
  const t = tex.getContext("2d")!;
  t.fillStyle = rgb(spec.plateWhite);
  t.beginPath();
  t.roundRect(0, 0, TW, TH, 12);
  t.fill();
  t.strokeStyle = "rgb(15,15,15)";
  t.lineWidth = 5;
  t.beginPath();
  t.roundRect(6, 6, TW - 12, TH - 12, 10);
  t.stroke();
  t.fillStyle = "rgb(0,51,153)";
  t.beginPath();
  t.roundRect(9, 9, 76, TH - 18, [8, 0, 0, 8]);
  t.fill();
  t.fillStyle = "rgb(255,204,0)";
  for (let i = 0; i < 12; i++) {
    const s = (i / 12) * Math.PI * 2;
    t.beginPath();
    t.arc(47 + Math.cos(s) * 22, 62 + Math.sin(s) * 22, 3.2, 0, Math.PI * 2);
    t.fill();
  }
  t.fillStyle = "#fff";
  t.font = "bold 64px 'DejaVu Sans'";
  t.fontStretch = "condensed";
  t.textAlign = "center";
  t.textBaseline = "alphabetic";
  t.fillText("S", 47, 180);
  // Characters 75 mm tall (cap height 0.729 em), fitted into the white field.
  t.fillStyle = "rgb(12,12,12)";
  t.font = "bold 206px 'DejaVu Sans'";
  t.fontStretch = "condensed";
  t.textAlign = "left";
  const text = spec.shown;
  // Plate type is spaced wider than DejaVu's: 8 mm between characters.
  const spacing = 16;
  const measured =
    [...text].reduce((sum, c) => sum + t.measureText(c).width, 0) + spacing * (text.length - 1);
  const room = 880;
  const squeeze = Math.min(1, room / measured);
  const fieldLeft = 100;
  const fieldRight = TW - 20;
  const startX = fieldLeft + (fieldRight - fieldLeft - measured * squeeze) / 2;
  // Glyph by glyph: plate type has no descenders, so a glyph that drops below the baseline
  // (DejaVu's J) is squeezed to stand on it, as the J on a Swedish plate does.
  const baseline = TH / 2 + 150 / 2;
  let x = startX;
  for (const c of text) {
    const m = t.measureText(c);
    const up = m.actualBoundingBoxAscent;
    const down = m.actualBoundingBoxDescent;
    t.save();
    t.translate(x, baseline);
    if (down > 4 && up > 0) {
      const k = up / (up + down);
      t.scale(squeeze, k);
      t.translate(0, -down);
      t.fillText(c, 0, 0);
    } else {
      t.scale(squeeze, 1);
      t.fillText(c, 0, 0);
    }
    t.restore();
    x += (m.width + spacing) * squeeze;
  }
  for (const d of spec.dirt) {
    const grad = t.createRadialGradient(d.u * TW, d.v * TH, 0, d.u * TW, d.v * TH, d.r * TW);
    grad.addColorStop(0, `rgba(${d.tone + 20},${d.tone},${d.tone * 0.7},${d.alpha})`);
    grad.addColorStop(1, `rgba(${d.tone + 20},${d.tone},${d.tone * 0.7},0)`);
    t.fillStyle = grad;
    t.fillRect(0, 0, TW, TH);
  }
  if (spec.dirt.length) {
    // Road grime: fine specks all over.
    for (let i = 0; i < 400; i++) {
      t.fillStyle = `rgba(90,75,55,${0.15 + rnd() * 0.3})`;
      t.fillRect(rnd() * TW, rnd() * TH, 1 + rnd() * 3, 1 + rnd() * 3);
    }
  }

  // Plate units to the frame: a homography through the four corners, drawn as thin strips.
  const solve = (m: number[][], v: number[]) => {
    const n = v.length;
    for (let c = 0; c < n; c++) {
      let p = c;
      for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
      [m[c], m[p]] = [m[p]!, m[c]!];
      [v[c], v[p]] = [v[p]!, v[c]!];
      for (let r = c + 1; r < n; r++) {
        const f = m[r]![c]! / m[c]![c]!;
        for (let k = c; k < n; k++) m[r]![k]! -= f * m[c]![k]!;
        v[r]! -= f * v[c]!;
      }
    }
    const x = new Array<number>(n).fill(0);
    for (let r = n - 1; r >= 0; r--) {
      let s = v[r]!;
      for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
      x[r] = s / m[r]![r]!;
    }
    return x;
  };
  const src: [number, number][] = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ];
  const m: number[][] = [];
  const v: number[] = [];
  spec.corners.forEach(([X, Y], i) => {
    const [u, w] = src[i]!;
    m.push([u, w, 1, 0, 0, 0, -u * X, -w * X]);
    v.push(X);
    m.push([0, 0, 0, u, w, 1, -u * Y, -w * Y]);
    v.push(Y);
  });
  const h = solve(m, v);
  const map = (u: number, w: number): [number, number] => {
    const d = h[6]! * u + h[7]! * w + 1;
    return [(h[0]! * u + h[1]! * w + h[2]!) / d, (h[3]! * u + h[4]! * w + h[5]!) / d];
  };
  const STRIPS = 80;
  for (let i = 0; i < STRIPS; i++) {
    const u0 = i / STRIPS;
    const u1 = (i + 1) / STRIPS;
    const p00 = map(u0, 0);
    const p10 = map(u1, 0);
    const p01 = map(u0, 1);
    const du = TW / STRIPS;
    g.setTransform(
      (p10[0] - p00[0]) / du,
      (p10[1] - p00[1]) / du,
      (p01[0] - p00[0]) / TH,
      (p01[1] - p00[1]) / TH,
      p00[0],
      p00[1],
    );
    const sx = u0 * TW;
    g.drawImage(tex, sx, 0, Math.min(du + 1, TW - sx), TH, 0, 0, Math.min(du + 1, TW - sx), TH);
  }
  g.setTransform(1, 0, 0, 1, 0, 0);

  if (spec.shadow) {
    // Something between the sun and the plate: a straight edge across it, dark on one side.
    const s = spec.shadow;
    const [ax, ay] = map(s.u0, -0.5);
    const [bx, by] = map(s.u1, 1.5);
    const nx = -(by - ay);
    const ny = bx - ax;
    const len = Math.hypot(nx, ny) || 1;
    const far = (W + H) * 2;
    const ox = (nx / len) * far * s.side;
    const oy = (ny / len) * far * s.side;
    const dx = ((bx - ax) / len) * far;
    const dy = ((by - ay) / len) * far;
    g.fillStyle = `rgba(0,0,10,${s.darkness})`;
    g.beginPath();
    g.moveTo(ax - dx, ay - dy);
    g.lineTo(bx + dx, by + dy);
    g.lineTo(bx + dx + ox, by + dy + oy);
    g.lineTo(ax - dx + ox, ay - dy + oy);
    g.closePath();
    g.fill();
  }
  if (spec.glare) {
    const gl = spec.glare;
    const [gx, gy] = map(gl.u, gl.v);
    const r = gl.r * plateW;
    const grad = g.createRadialGradient(gx, gy, 0, gx, gy, r);
    grad.addColorStop(0, `rgba(255,255,250,${gl.strength})`);
    grad.addColorStop(0.5, `rgba(255,255,250,${gl.strength * 0.55})`);
    grad.addColorStop(1, "rgba(255,255,250,0)");
    g.fillStyle = grad;
    g.fillRect(0, 0, W, H);
  }
  if (spec.blur > 0) {
    g.filter = `blur(${spec.blur.toFixed(2)}px)`;
    g.drawImage(canvas, 0, 0);
    g.filter = "none";
  }
  if (spec.motion > 0) {
    const copy = new OffscreenCanvas(W, H);
    copy.getContext("2d")!.drawImage(canvas, 0, 0);
    const steps = 9;
    g.clearRect(0, 0, W, H);
    for (let i = 0; i < steps; i++) {
      const f = (i / (steps - 1) - 0.5) * spec.motion;
      g.globalAlpha = 1 / (i + 1);
      g.drawImage(copy, f * Math.cos(spec.motionAngle), f * Math.sin(spec.motionAngle));
    }
    g.globalAlpha = 1;
  }

  // Light and sensor noise last, as the camera adds them.
  const img = g.getImageData(0, 0, W, H);
  const px = img.data;
  const warm = spec.light < 0.6;
  let spare: number | null = null;
  const gauss = () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = rnd() || 1e-9;
    const w = rnd();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * w);
    return r * Math.cos(2 * Math.PI * w);
  };
  for (let i = 0; i < px.length; i += 4) {
    const n = gauss() * spec.noise;
    // Street light is orange: in low light blue drops more than red.
    px[i] = px[i]! * spec.light + n;
    px[i + 1] = px[i + 1]! * spec.light * (warm ? 0.92 : 1) + n;
    px[i + 2] = px[i + 2]! * spec.light * (warm ? 0.75 : 1) + n;
  }
  g.putImageData(img, 0, 0);
}

/** Scenes `from` .. `from + count - 1` of `seed`, drawn in `page` and encoded there as JPEG. */
export async function renderPlateScenes(
  page: Page,
  opts: { seed: number; count: number; from?: number },
): Promise<RenderedPlateScene[]> {
  const from = opts.from ?? 0;
  const out: RenderedPlateScene[] = [];
  const BATCH = 16;
  for (let start = from; start < from + opts.count; start += BATCH) {
    const specs = Array.from({ length: Math.min(BATCH, from + opts.count - start) }, (_, i) =>
      plateSceneSpec(opts.seed, start + i),
    );
    // Sent as source text rather than a function: the page may forbid eval, but not this.
    const encoded = (await page.evaluate(`(async (specs) => {
      const draw = ${drawPlateScene.toString()};
      const out = [];
      for (const spec of specs) {
        const canvas = new OffscreenCanvas(spec.width, spec.height);
        draw(canvas, spec);
        const blob = await canvas.convertToBlob({ type: "image/jpeg", quality: spec.quality });
        const bytes = new Uint8Array(await blob.arrayBuffer());
        let s = "";
        for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        out.push(btoa(s));
      }
      return out;
    })(${JSON.stringify(specs)})`)) as string[];
    specs.forEach((spec, i) => {
      out.push({
        plate: spec.plate,
        shown: spec.shown,
        jpeg: Uint8Array.from(atob(encoded[i]!), (c) => c.charCodeAt(0)),
        width: spec.width,
        height: spec.height,
        degradations: spec.degradations,
        spec,
      });
    });
  }
  return out;
}
