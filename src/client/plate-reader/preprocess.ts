/**
 * From the framing guide's crop to one clean line of plate characters, black on white, level and
 * of a set height: what the recogniser reads best and fastest. Pure arithmetic on pixel arrays,
 * so it runs alike in the page, in a worker and under `bun test`.
 *
 * The steps, and why each:
 * 1. Grey, lightly smoothed: sensor noise in a dim picture would otherwise break strokes apart.
 * 2. Each pixel against its own background, found by a morphological closing (a max then a min
 *    filter wider than a stroke): a closing keeps the edge of a shadow where it is, so a plate
 *    half in shadow is judged by the white of its own half. A local mean would mark a band along
 *    the shadow's edge as ink. Under glare the ink is lifted nearly as much as the paper, so a
 *    pixel is also ink when it lies well down from its paper towards the darkest ink near it.
 * 3. The dark pieces, as connected components; the characters are the largest set of pieces of
 *    one height lying along one line. The blue EU band, the border, the car and dirt are not of
 *    that height or not on that line, so they drop out without finding the plate's outline. A
 *    shorter piece within the line's band is a character broken by glare or dirt.
 * 4. The line's slope and the run of the characters' tops and bottoms give the rotation and the
 *    perspective; the line is resampled level, the characters made one height, and only the
 *    chosen pieces (and broken-off bits of them) are drawn.
 */

/** A grey picture, one byte a pixel, row by row. */
export interface GreyImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

export interface LineOptions {
  /** How tall the characters come out, in pixels. */
  charHeight: number;
  /** A pixel is ink when darker than this share of its background. */
  inkRatio: number;
  /**
   * Or when it lies more than this share of the way down from its background to the darkest
   * pixel near it (0 or absent: not used): under glare the ink is lifted nearly as much as the
   * paper, and no share of the paper alone tells it.
   */
  contrastShare?: number;
  /** Levels the background and that darkest pixel must stand apart for the second test (noise). */
  minContrast?: number;
}

export const DEFAULT_LINE_OPTIONS: LineOptions = {
  charHeight: 40,
  inkRatio: 0.72,
  contrastShare: 0.5,
  minContrast: 32,
};

/** The crop is brought to this width first: enough for the smallest plate the guide takes. */
export const WORK_WIDTH = 512;

/** Luma from RGBA bytes (BT.601 weights, in integers). */
export function greyOf(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number): GreyImage {
  const n = width * height;
  const pixels = new Uint8Array(n);
  for (let i = 0, p = 0; i < n; i++, p += 4) {
    pixels[i] = (77 * rgba[p]! + 150 * rgba[p + 1]! + 29 * rgba[p + 2]!) >> 8;
  }
  return { width, height, pixels };
}

/**
 * How much bluer than red and green each pixel is (0 when not): the EU band at a Swedish plate's
 * left is as dark as the characters in grey, and a character-sized piece of it would be read as
 * one more character; in colour it stands out.
 */
export function blueOf(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number): Uint8Array {
  const n = width * height;
  const out = new Uint8Array(n);
  for (let i = 0, p = 0; i < n; i++, p += 4) {
    const excess = rgba[p + 2]! - ((rgba[p]! + rgba[p + 1]!) >> 1);
    out[i] = Math.max(excess, 0);
  }
  return out;
}

/** A 3 × 3 box blur: takes the sting out of sensor noise before anything is counted as ink. */
export function smooth3(img: GreyImage): GreyImage {
  const { width: w, height: h, pixels: src } = img;
  const tmp = new Uint16Array(w * h);
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const l = x > 0 ? x - 1 : x;
      const r = x < w - 1 ? x + 1 : x;
      tmp[row + x] = src[row + l]! + src[row + x]! + src[row + r]!;
    }
  }
  for (let y = 0; y < h; y++) {
    const up = (y > 0 ? y - 1 : y) * w;
    const row = y * w;
    const down = (y < h - 1 ? y + 1 : y) * w;
    for (let x = 0; x < w; x++) {
      out[row + x] = ((tmp[up + x]! + tmp[row + x]! + tmp[down + x]!) / 9 + 0.5) | 0;
    }
  }
  return { width: w, height: h, pixels: out };
}

/**
 * Max (or min) over a run of `size` along rows or columns, in three comparisons a pixel whatever
 * the size (van Herk / Gil-Werman), so a wide window costs no more than a narrow one.
 */
function runFilter(
  src: Uint8Array,
  w: number,
  h: number,
  size: number,
  along: "row" | "column",
  max: boolean,
): Uint8Array {
  const out = new Uint8Array(w * h);
  const len = along === "row" ? w : h;
  const lines = along === "row" ? h : w;
  const step = along === "row" ? 1 : w;
  const half = size >> 1;
  const padded = len + size;
  const f = new Uint8Array(padded);
  const g = new Uint8Array(padded);
  const line = new Uint8Array(padded);
  const pick = max ? Math.max : Math.min;
  const edge = max ? 0 : 255;
  for (let l = 0; l < lines; l++) {
    const start = along === "row" ? l * w : l;
    // Padding with the neutral value lets the window hang over the picture's edge.
    for (let i = 0; i < padded; i++) {
      const k = i - half;
      line[i] = k >= 0 && k < len ? src[start + k * step]! : edge;
    }
    for (let b = 0; b < padded; b += size) {
      const end = Math.min(b + size, padded);
      f[b] = line[b]!;
      for (let i = b + 1; i < end; i++) f[i] = pick(f[i - 1]!, line[i]!);
      g[end - 1] = line[end - 1]!;
      for (let i = end - 2; i >= b; i--) g[i] = pick(g[i + 1]!, line[i]!);
    }
    for (let k = 0; k < len; k++) {
      // Window [k, k + size - 1] in padded terms is centred on picture pixel k.
      const a = g[k]!;
      const e = k + size - 1;
      const v = e < padded ? pick(a, f[e]!) : a;
      out[start + k * step] = v;
    }
  }
  return out;
}

/** The paper under the ink: a closing (max, then min) with a square of side `size`. */
export function background(img: GreyImage, size: number): Uint8Array {
  const { width: w, height: h, pixels } = img;
  const s = size | 1;
  const dilated = runFilter(runFilter(pixels, w, h, s, "row", true), w, h, s, "column", true);
  return runFilter(runFilter(dilated, w, h, s, "row", false), w, h, s, "column", false);
}

/** The darkest level near each pixel (near characters, their ink): a min filter, a square of side `size`. */
export function nearestInk(img: GreyImage, size: number): Uint8Array {
  const { width: w, height: h, pixels } = img;
  const s = size | 1;
  return runFilter(runFilter(pixels, w, h, s, "row", false), w, h, s, "column", false);
}

/**
 * Below which level each pixel is ink: darker than `ratio` of its background, or (given the
 * darkest ink near it, `dark`) past `share` of the way down from the background to that ink
 * where the two stand `minContrast` apart; and in either case by at least a few levels, so the
 * grain of a plain dim surface is not taken for ink. The second test only counts where the
 * nearby ink is pale next to its paper (glare, haze): elsewhere the first is the higher limit.
 */
export function inkLimits(
  bg: Uint8Array,
  ratio: number,
  dark?: Uint8Array,
  share = 0,
  minContrast = 0,
): Float32Array {
  const limits = new Float32Array(bg.length);
  for (let i = 0; i < bg.length; i++) {
    const b = bg[i]!;
    let limit = b * ratio;
    if (dark && share > 0) {
      const d = dark[i]!;
      if (b - d >= minContrast) limit = Math.max(limit, b - (b - d) * share);
    }
    limits[i] = Math.min(limit, b - 12);
  }
  return limits;
}

/** Ink: each pixel darker than its limit (inkLimits). */
export function inkBelow(img: GreyImage, limits: Float32Array): Uint8Array {
  const n = img.width * img.height;
  const mask = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (img.pixels[i]! < limits[i]!) mask[i] = 1;
  return mask;
}

/** Ink by its background alone: darker than `ratio` of it (inkLimits). */
export function inkMask(img: GreyImage, bg: Uint8Array, ratio: number): Uint8Array {
  return inkBelow(img, inkLimits(bg, ratio));
}

/** A connected piece of ink. */
export interface Piece {
  label: number;
  left: number;
  top: number;
  right: number;
  bottom: number;
  area: number;
  touchesEdge: boolean;
}

/** Labels the 8-connected pieces of `mask` (labels from 1; 0 is paper). */
export function pieces(mask: Uint8Array, w: number, h: number): { labels: Int32Array; pieces: Piece[] } {
  const labels = new Int32Array(w * h);
  const found: Piece[] = [];
  const stack = new Int32Array(w * h);
  let next = 1;
  for (let start = 0; start < w * h; start++) {
    if (!mask[start] || labels[start]) continue;
    const label = next++;
    const p: Piece = { label, left: w, top: h, right: -1, bottom: -1, area: 0, touchesEdge: false };
    let sp = 0;
    stack[sp++] = start;
    labels[start] = label;
    while (sp > 0) {
      const i = stack[--sp]!;
      const x = i % w;
      const y = (i - x) / w;
      p.area++;
      if (x < p.left) p.left = x;
      if (x > p.right) p.right = x;
      if (y < p.top) p.top = y;
      if (y > p.bottom) p.bottom = y;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) p.touchesEdge = true;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const j = yy * w + xx;
          if (mask[j] && !labels[j]) {
            labels[j] = label;
            stack[sp++] = j;
          }
        }
      }
    }
    found.push(p);
  }
  return { labels, pieces: found };
}

/**
 * A character stands on paper: just above and just below it the plate is white. The band at the
 * plate's left and the dark rim just outside the plate's edge run on up and down as ink.
 */
function onPaper(p: Piece, mask: Uint8Array, w: number, h: number): boolean {
  const ph = p.bottom - p.top + 1;
  if (ph < h * 0.12) return true;
  const gap = Math.max(2, Math.round(ph * 0.07));
  let ink = 0;
  let seen = 0;
  for (const y of [p.top - gap, p.bottom + gap]) {
    if (y < 0 || y >= h) continue;
    for (let x = p.left; x <= p.right; x++) {
      seen++;
      if (mask[y * w + x]) ink++;
    }
  }
  return seen === 0 || ink <= seen * 0.3;
}

/** The characters found, and the line they stand on. */
export interface PlateLine {
  /** The chosen pieces, left to right. */
  chars: Piece[];
  /** The line's slope, radians, positive going down to the right. */
  angle: number;
}

const heightOf = (p: Piece) => p.bottom - p.top + 1;
const widthOf = (p: Piece) => p.right - p.left + 1;

/**
 * The largest set of pieces of about one height along one straight line, or null when fewer
 * than four such pieces are there (no plate a reader should guess at).
 */
export function findLine(all: Piece[], h: number): PlateLine | null {
  const minH = h * 0.12;
  const maxH = h * 0.85;
  const cands = all.filter((p) => {
    const ph = heightOf(p);
    const pw = widthOf(p);
    // Up to three characters wide: blur and JPEG run neighbours (AA, MW) into one piece.
    if (p.touchesEdge || ph < minH || ph > maxH || pw > ph * 2.8 || pw < 2) return false;
    const fill = p.area / (ph * pw);
    return fill > 0.12 && fill < 0.95;
  });
  if (cands.length < 4) return null;
  const cx = cands.map((p) => (p.left + p.right) / 2);
  const cy = cands.map((p) => (p.top + p.bottom) / 2);
  const ch = cands.map(heightOf);
  let best: number[] = [];
  let bestSpread = Number.POSITIVE_INFINITY;
  for (let i = 0; i < cands.length; i++) {
    for (let j = i + 1; j < cands.length; j++) {
      const ratio = ch[i]! / ch[j]!;
      if (ratio < 0.75 || ratio > 1.33) continue;
      const ref = (ch[i]! + ch[j]!) / 2;
      const dx = cx[j]! - cx[i]!;
      const dy = cy[j]! - cy[i]!;
      if (Math.abs(dx) < ref * 0.3 || Math.abs(dy) > Math.abs(dx) * 0.27) continue;
      const len = Math.hypot(dx, dy);
      const members: number[] = [];
      let spread = 0;
      for (let k = 0; k < cands.length; k++) {
        if (Math.abs(ch[k]! / ref - 1) > 0.25) continue;
        const dist = Math.abs((cx[k]! - cx[i]!) * dy - (cy[k]! - cy[i]!) * dx) / len;
        if (dist > ref * 0.2) continue;
        members.push(k);
        spread += dist;
      }
      if (members.length > best.length || (members.length === best.length && spread < bestSpread)) {
        best = members;
        bestSpread = spread;
      }
    }
  }
  if (best.length < 4) return null;
  const medH = [...best.map((k) => ch[k]!)].sort((a, b) => a - b)[best.length >> 1]!;
  const whole = new Set(best);
  // A character broken by glare or dirt across a stroke leaves a shorter piece, still within the
  // line's band: it is a character too (left out, it would be read as part of a neighbour, and
  // the gap it leaves would cut the plate in two below).
  const fit = fitLine(
    best.map((k) => cx[k]!),
    best.map((k) => cy[k]!),
  );
  const overlaps = (k: number, m: number) =>
    Math.min(cands[k]!.right, cands[m]!.right) - Math.max(cands[k]!.left, cands[m]!.left) >
    widthOf(cands[k]!) * 0.3;
  const shorter = cands
    .map((_, k) => k)
    .filter((k) => !best.includes(k) && ch[k]! >= medH * 0.45 && ch[k]! <= medH * 1.25)
    .sort((a, b) => ch[b]! - ch[a]!);
  for (const k of shorter) {
    const mid = fit.a + fit.b * cx[k]!;
    const p = cands[k]!;
    if (p.top < mid - medH * 0.6 || p.bottom > mid + medH * 0.6) continue;
    if (best.some((m) => overlaps(k, m))) continue;
    best.push(k);
  }
  // Pieces on the line but far from the rest (a grille slat, a sticker) are not the plate's.
  best.sort((a, b) => cx[a]! - cx[b]!);
  let run: number[] = [];
  let current: number[] = [];
  for (const k of best) {
    const prev = current[current.length - 1];
    if (prev !== undefined && cands[k]!.left - cands[prev]!.right > medH * 1.4) {
      if (current.length > run.length) run = current;
      current = [];
    }
    current.push(k);
  }
  if (current.length > run.length) run = current;
  if (run.length < 4) return null;
  // The slope from the whole characters: a broken one's centre is off the line.
  const wholeRun = run.filter((k) => whole.has(k));
  const level = wholeRun.length >= 2 ? wholeRun : run;
  const slope = fitLine(
    level.map((k) => cx[k]!),
    level.map((k) => cy[k]!),
  ).b;
  return { chars: run.map((k) => cands[k]!), angle: Math.atan(slope) };
}

/** Least squares y = a + b x. */
function fitLine(xs: number[], ys: number[]): { a: number; b: number } {
  const n = xs.length;
  const mx = xs.reduce((s, v) => s + v, 0) / n;
  const my = ys.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  const b = sxx > 0 ? sxy / sxx : 0;
  return { a: my - b * mx, b };
}

export interface PreparedLine {
  image: GreyImage;
  /** How many characters were found. */
  chars: number;
  angle: number;
  /** Where each character was drawn in the image, left to right. */
  slots: { x: number; width: number }[];
}

/**
 * The crop's plate characters as one level line of black on white, `charHeight` tall with a
 * margin, or null when no line of characters is found.
 */
export function plateLine(
  img: GreyImage,
  options: LineOptions = DEFAULT_LINE_OPTIONS,
  /** blueOf the same picture, when it is in colour. */
  blue?: Uint8Array,
): PreparedLine | null {
  const { width: w, height: h } = img;
  const grey = smooth3(img);
  // Wider than where two strokes of the largest plate the guide holds meet (the foot of a W).
  const size = Math.max(9, Math.round(h / 4));
  const bg = background(grey, size);
  const dark = options.contrastShare ? nearestInk(grey, size) : undefined;
  const limits = inkLimits(bg, options.inkRatio, dark, options.contrastShare, options.minContrast);
  const mask = inkBelow(grey, limits);
  const { labels, pieces: found } = pieces(mask, w, h);
  let all = found;
  if (blue) {
    const sums = new Float64Array(found.length + 1);
    for (let i = 0; i < labels.length; i++) if (labels[i]) sums[labels[i]!]! += blue[i]!;
    // Black ink has little blue excess (a shadow in daylight gives it some: 5 or 6 levels); the
    // band keeps 20 or more even in orange street light.
    all = found.filter((p) => sums[p.label]! / p.area < 11);
  }
  all = all.filter((p) => onPaper(p, mask, w, h));
  const line = findLine(all, h);
  if (!line) return null;
  const cos = Math.cos(line.angle);
  const sin = Math.sin(line.angle);

  // Every piece's extent along (u) and across (v) the line, in one pass over the picture.
  const count = found.length + 1;
  const uMin = new Float32Array(count).fill(Number.POSITIVE_INFINITY);
  const uMax = new Float32Array(count).fill(Number.NEGATIVE_INFINITY);
  const vMin = new Float32Array(count).fill(Number.POSITIVE_INFINITY);
  const vMax = new Float32Array(count).fill(Number.NEGATIVE_INFINITY);
  for (let y = 0, i = 0; y < h; y++) {
    for (let x = 0; x < w; x++, i++) {
      const l = labels[i]!;
      if (!l) continue;
      const u = x * cos + y * sin;
      const v = -x * sin + y * cos;
      if (u < uMin[l]!) uMin[l] = u;
      if (u > uMax[l]!) uMax[l] = u;
      if (v < vMin[l]!) vMin[l] = v;
      if (v > vMax[l]!) vMax[l] = v;
    }
  }
  const chosen = line.chars.map((p) => p.label);
  // The lines are fitted to the characters of the common height: a letter with a descender
  // (DejaVu's J) would pull the bottom line down.
  const heights = chosen.map((l) => vMax[l]! - vMin[l]!);
  const common = [...heights].sort((a, b) => a - b)[heights.length >> 1]!;
  const level = chosen.filter((_, i) => Math.abs(heights[i]! / common - 1) < 0.12);
  const fitted = level.length >= 3 ? level : chosen;
  const centres = fitted.map((l) => (uMin[l]! + uMax[l]!) / 2);
  const top = fitLine(
    centres,
    fitted.map((l) => vMin[l]!),
  );
  const bottom = fitLine(
    centres,
    fitted.map((l) => vMax[l]! + 1),
  );
  const from = Math.min(...chosen.map((l) => uMin[l]!));
  const to = Math.max(...chosen.map((l) => uMax[l]! + 1));
  const mid = (from + to) / 2;
  const lineHeight = bottom.a + bottom.b * mid - (top.a + top.b * mid);
  if (!(lineHeight > 4)) return null;

  // Broken-off bits of a character (dirt or glare across a stroke) are kept if they lie within
  // the characters' band; specks smaller than a full stop are not.
  const keep = new Uint8Array(count);
  for (const l of chosen) keep[l] = 1;
  const minArea = (lineHeight * lineHeight) / 60;
  for (const p of all) {
    const l = p.label;
    if (keep[l] || p.touchesEdge || p.area < minArea) continue;
    const u = (uMin[l]! + uMax[l]!) / 2;
    // Beyond the chosen run only a character-tall piece counts: two end characters run together
    // by blur are one piece too wide to have been chosen, and are still the plate's.
    const beyond = u < from || u > to;
    if (beyond && (u < from - lineHeight * 1.2 || u > to + lineHeight * 1.2)) continue;
    const t = top.a + top.b * u;
    const b = bottom.a + bottom.b * u;
    const slack = (b - t) * 0.12;
    // Room below for a descender.
    if (vMin[l]! < t - slack || vMax[l]! > b + slack * 3) continue;
    if (beyond && vMax[l]! - vMin[l]! < (b - t) * 0.6) continue;
    keep[l] = 1;
  }

  // Each character with its broken-off bits is drawn in a slot of its own, a gap between slots:
  // touching neighbours (a J leaning on a 9) are read as one glyph otherwise. A kept bit goes
  // with the chosen character nearest along the line.
  const scale = options.charHeight / lineHeight;
  const centreOf = (l: number) => (uMin[l]! + uMax[l]!) / 2;
  const order = [...chosen].sort((x, y) => centreOf(x) - centreOf(y));
  const slotOf = new Int32Array(count).fill(-1);
  const slots = order.map((l, k) => {
    slotOf[l] = k;
    return { from: uMin[l]!, to: uMax[l]! + 1, x: 0 };
  });
  for (let l = 1; l < count; l++) {
    if (!keep[l] || slotOf[l]! >= 0) continue;
    let best = 0;
    for (let k = 1; k < order.length; k++)
      if (Math.abs(centreOf(order[k]!) - centreOf(l)) < Math.abs(centreOf(order[best]!) - centreOf(l)))
        best = k;
    slotOf[l] = best;
    slots[best]!.from = Math.min(slots[best]!.from, uMin[l]!);
    slots[best]!.to = Math.max(slots[best]!.to, uMax[l]! + 1);
  }
  const margin = Math.round(options.charHeight * 0.3);
  const minGap = Math.round(options.charHeight * 0.12);
  let at = margin;
  slots.forEach((slot, k) => {
    if (k > 0) at += Math.max(minGap, Math.round((slot.from - slots[k - 1]!.to) * scale));
    slot.x = at;
    at += Math.round((slot.to - slot.from) * scale);
  });
  const outW = at + margin;
  const outH = options.charHeight + 2 * margin;
  const out = new Uint8Array(outW * outH).fill(255);
  const gp = grey.pixels;
  slots.forEach((slot, k) => {
    const width = Math.round((slot.to - slot.from) * scale);
    for (let ox = slot.x; ox < slot.x + width; ox++) {
      const u = slot.from + (ox - slot.x + 0.5) / scale;
      const t = top.a + top.b * u;
      const b = bottom.a + bottom.b * u;
      const step = (b - t) / options.charHeight;
      for (let oy = 0; oy < outH; oy++) {
        const v = t + (oy - margin + 0.5) * step;
        const x = u * cos - v * sin;
        const y = u * sin + v * cos;
        const x0 = Math.floor(x - 0.5);
        const y0 = Math.floor(y - 0.5);
        if (x0 < 0 || y0 < 0 || x0 + 1 >= w || y0 + 1 >= h) continue;
        const i = y0 * w + x0;
        if (
          slotOf[labels[i]!] !== k &&
          slotOf[labels[i + 1]!] !== k &&
          slotOf[labels[i + w]!] !== k &&
          slotOf[labels[i + w + 1]!] !== k
        )
          continue;
        const fx = x - 0.5 - x0;
        const fy = y - 0.5 - y0;
        const grey2 =
          (gp[i]! * (1 - fx) + gp[i + 1]! * fx) * (1 - fy) +
          (gp[i + w]! * (1 - fx) + gp[i + w + 1]! * fx) * fy;
        const limit =
          (limits[i]! * (1 - fx) + limits[i + 1]! * fx) * (1 - fy) +
          (limits[i + w]! * (1 - fx) + limits[i + w + 1]! * fx) * fy;
        if (grey2 < limit) out[oy * outW + ox] = 0;
      }
    }
  });
  return {
    image: { width: outW, height: outH, pixels: out },
    chars: chosen.length,
    angle: line.angle,
    slots: slots.map((slot) => ({ x: slot.x, width: Math.round((slot.to - slot.from) * scale) })),
  };
}

/** One character's slot of a prepared line, on its own with the line's margin round it. */
export function slotImage(line: PreparedLine, k: number): GreyImage {
  const slot = line.slots[k]!;
  const margin = Math.round(line.image.height * 0.2);
  const width = slot.width + 2 * margin;
  const { width: lw, height, pixels: src } = line.image;
  const pixels = new Uint8Array(width * height).fill(255);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < slot.width; x++) pixels[y * width + margin + x] = src[y * lw + slot.x + x]!;
  return { width, height, pixels };
}

/** A binary PGM (P5): the recogniser's image library reads it without any decoding work. */
export function pgm(img: GreyImage): Uint8Array {
  const head = new TextEncoder().encode(`P5\n${img.width} ${img.height}\n255\n`);
  const out = new Uint8Array(head.length + img.pixels.length);
  out.set(head, 0);
  out.set(img.pixels, head.length);
  return out;
}
