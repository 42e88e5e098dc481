/**
 * A second opinion on a plate's last character from the glyph's shape. That position may hold a
 * letter or a digit (`ABC 12Z` and `ABC 122` are both plates), so the formats cannot correct it,
 * and the engine, having just read digits, reads a Z as 2 and a B as 8; read again alone it is
 * as sure of the wrong answer (bench/plate-reads/README.md). Plate type draws these pairs apart
 * where a ruler was used:
 * - Z's top is a straight bar out to both corners; 2's top is an arch, set in on both sides from
 *   the bowl beneath it.
 * - B's left is one straight stem (slanted at most, when the plate is seen from the side); 8's
 *   left side bulges out twice.
 * Measured on the bench's scenes, every degradation, each measure keeps the pairs apart with room
 * to spare: with the bounds here it named all 1,186 Z, 2, B and 8 slots of seeds 1, 2 and 3 (500
 * scenes each) rightly. Between the bounds it is not sure, and neither is a reader that should
 * not guess.
 */
import type { GreyImage } from "./preprocess.ts";

/** The last characters the shape decides between, each with its look-alike. */
export const SHAPE_PAIRS: Readonly<Record<string, string>> = { Z: "2", "2": "Z", B: "8", "8": "B" };

/** Z below, 2 above; between, unsure. Measured: Z at most 0.07 (nearly all 0), 2 from 0.12. */
const ARCH = { letter: 0.075, digit: 0.115 };
/** B below, 8 above; between, unsure. Measured: B at most 0.03, 8 from 0.08. */
const BULGE = { letter: 0.045, digit: 0.07 };

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The box round the glyph: the longest run of rows with ink (a speck or a bit of the plate's
 * border drawn in the slot above or below it is left out), and the ink's columns in those rows;
 * null when there is too little of it to judge.
 */
function inkBox(img: GreyImage): Box | null {
  const { width: w, height: h, pixels } = img;
  const inkRow = (y: number) => {
    for (let x = 0; x < w; x++) if (pixels[y * w + x] === 0) return true;
    return false;
  };
  let top = 0;
  let bottom = -1;
  for (let y = 0, from = -1; y <= h; y++) {
    if (y < h && inkRow(y)) {
      if (from < 0) from = y;
    } else if (from >= 0) {
      if (y - 1 - from > bottom - top) [top, bottom] = [from, y - 1];
      from = -1;
    }
  }
  let left = w;
  let right = -1;
  for (let y = top; y <= bottom; y++)
    for (let x = 0; x < w; x++)
      if (pixels[y * w + x] === 0) {
        if (x < left) left = x;
        if (x > right) right = x;
      }
  if (right - left < 4 || bottom - top < 10) return null;
  return { left, top, right, bottom };
}

const leftmost = (img: GreyImage, box: Box, y: number) => {
  let x = box.left;
  while (x <= box.right && img.pixels[y * img.width + x] !== 0) x++;
  return x;
};
const rightmost = (img: GreyImage, box: Box, y: number) => {
  let x = box.right;
  while (x >= box.left && img.pixels[y * img.width + x] !== 0) x--;
  return x;
};

/**
 * How far the top of the glyph is set in from the widest of its upper half, both sides, as a
 * share of its width: about 0 for Z's bar, 0.2 for 2's arch.
 */
function archInset(img: GreyImage, box: Box): number {
  const height = box.bottom - box.top + 1;
  const band = Math.max(1, Math.round(height * 0.08));
  let topLeft = img.width;
  let topRight = -1;
  for (let y = box.top; y < box.top + band; y++) {
    topLeft = Math.min(topLeft, leftmost(img, box, y));
    topRight = Math.max(topRight, rightmost(img, box, y));
  }
  let minLeft = img.width;
  let maxRight = -1;
  for (let y = box.top; y <= box.top + height / 2; y++) {
    minLeft = Math.min(minLeft, leftmost(img, box, y));
    maxRight = Math.max(maxRight, rightmost(img, box, y));
  }
  return (topLeft - minLeft + (maxRight - topRight)) / (box.right - box.left + 1);
}

/**
 * How far the glyph's left edge strays from a straight line fitted to it (a slanted stem is
 * straight too), at most, as a share of its width: about 0.02 for B, 0.13 for 8. The ends,
 * where a stem's corner is rounded by blur, are left out.
 */
function leftBulge(img: GreyImage, box: Box): number {
  const height = box.bottom - box.top + 1;
  const ys: number[] = [];
  const xs: number[] = [];
  for (let y = Math.round(box.top + height * 0.08); y <= Math.round(box.bottom - height * 0.08); y++) {
    ys.push(y);
    xs.push(leftmost(img, box, y));
  }
  const n = ys.length;
  const my = ys.reduce((s, v) => s + v, 0) / n;
  const mx = xs.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (ys[i]! - my) * (xs[i]! - mx);
    syy += (ys[i]! - my) ** 2;
  }
  const slant = syy > 0 ? sxy / syy : 0;
  let most = 0;
  for (let i = 0; i < n; i++) most = Math.max(most, Math.abs(xs[i]! - (mx + slant * (ys[i]! - my))));
  return most / (box.right - box.left + 1);
}

/**
 * What the shape of a last character read as `read` (Z, 2, B or 8) says it is: `read` itself,
 * its look-alike, or null when the shape does not tell them apart. Any other character is
 * returned as it is: the shape has no opinion on it.
 */
export function lastByShape(slot: GreyImage, read: string): string | null {
  const other = SHAPE_PAIRS[read];
  if (!other) return read;
  const box = inkBox(slot);
  if (!box) return null;
  const [letter, digit] = read === "Z" || read === "B" ? [read, other] : [other, read];
  const [measure, bounds] = letter === "Z" ? [archInset(slot, box), ARCH] : [leftBulge(slot, box), BULGE];
  if (measure <= bounds.letter) return letter;
  if (measure >= bounds.digit) return digit;
  return null;
}
