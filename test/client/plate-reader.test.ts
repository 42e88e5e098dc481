import { describe, expect, test } from "bun:test";
import { GUIDE_ASPECT, guideRect, PLATE_ASPECT } from "../../src/client/plate-reader/guide.ts";
import {
  background,
  type GreyImage,
  inkMask,
  pgm,
  pieces,
  plateLine,
  slotImage,
} from "../../src/client/plate-reader/preprocess.ts";
import { readPlate } from "../../src/domain/plate-formats.ts";
import { plateSceneSpec } from "../support/plate-scene.ts";

describe("the framing guide", () => {
  test.each([
    [1280, 720],
    [1920, 1080],
    [640, 480],
    [720, 1280],
    [320, 240],
  ])("%p × %p: centred, inside the picture, wider than tall by the guide's aspect", (w, h) => {
    const g = guideRect(w, h);
    expect(g.x).toBeGreaterThanOrEqual(0);
    expect(g.y).toBeGreaterThanOrEqual(0);
    expect(g.x + g.width).toBeLessThanOrEqual(w);
    expect(g.y + g.height).toBeLessThanOrEqual(h);
    expect(Math.abs(g.x * 2 + g.width - w)).toBeLessThanOrEqual(1);
    expect(Math.abs(g.y * 2 + g.height - h)).toBeLessThanOrEqual(1);
    expect(Math.abs(g.width / g.height - GUIDE_ASPECT)).toBeLessThan(0.05);
    expect(Number.isInteger(g.x + g.y + g.width + g.height)).toBe(true);
  });

  test("a plate filling the guide's width and held 6° off level still fits its height", () => {
    const g = guideRect(1280, 720);
    const w = g.width * 0.95;
    const a = (6 * Math.PI) / 180;
    expect(w * Math.sin(a) + (w / PLATE_ASPECT) * Math.cos(a)).toBeLessThan(g.height);
  });

  test("no picture, no guide", () => {
    expect(guideRect(0, 0)).toEqual({ x: 0, y: 0, width: 0, height: 0 });
  });
});

/** A white picture with black bars of `h` × `w` at the given lefts, `tilt` px down per px across. */
function bars(
  lefts: number[],
  opts: { w?: number; h?: number; tilt?: number; shadowFrom?: number } = {},
): GreyImage {
  const width = 512;
  const height = 155;
  const pixels = new Uint8Array(width * height).fill(220);
  const bw = opts.w ?? 20;
  const bh = opts.h ?? 50;
  for (const left of lefts) {
    for (let x = left; x < left + bw; x++) {
      const top = Math.round(50 + (opts.tilt ?? 0) * x);
      for (let y = top; y < top + bh; y++) {
        // A hollow bar (a stroke round a counter), as a letter has.
        const inner = x > left + 6 && x < left + bw - 7 && y > top + 8 && y < top + bh - 9;
        if (!inner) pixels[y * width + x] = 25;
      }
    }
  }
  if (opts.shadowFrom !== undefined)
    for (let y = 0; y < height; y++)
      for (let x = opts.shadowFrom; x < width; x++)
        pixels[y * width + x] = Math.round(pixels[y * width + x]! * 0.45);
  return { width, height, pixels };
}

describe("preparing the line", () => {
  test("the background under ink is the paper, and the ink is what is darker than it", () => {
    const img = bars([100]);
    const bg = background(img, 26);
    expect(bg[75 * 512 + 103]).toBe(220);
    const mask = inkMask(img, bg, 0.72);
    expect(mask[75 * 512 + 103]).toBe(1);
    expect(mask[10 * 512 + 10]).toBe(0);
  });

  test("a shadow's edge is paper on both sides, not a band of ink", () => {
    const img = bars([60, 90, 120, 180, 210, 240], { shadowFrom: 300 });
    const mask = inkMask(img, background(img, 26), 0.72);
    for (let x = 290; x < 320; x++) expect(mask[20 * 512 + x]).toBe(0);
  });

  test("six characters are found as six pieces on a line, and come out level at the set height", () => {
    const img = bars([60, 90, 120, 180, 210, 240], { tilt: 0.08 });
    const line = plateLine(img, { charHeight: 40, inkRatio: 0.72 });
    expect(line).not.toBeNull();
    expect(line!.chars).toBe(6);
    expect(line!.angle).toBeCloseTo(Math.atan(0.08), 1);
    // Level: every column's ink lies within the margin band of the set height.
    const { width, height, pixels } = line!.image;
    const margin = Math.round(40 * 0.3);
    expect(height).toBe(40 + 2 * margin);
    let inkRows = 0;
    for (let y = 0; y < height; y++) {
      let any = false;
      for (let x = 0; x < width; x++) if (pixels[y * width + x] === 0) any = true;
      if (any) inkRows++;
    }
    expect(inkRows).toBeGreaterThanOrEqual(38);
    expect(inkRows).toBeLessThanOrEqual(44);
  });

  test("each character gets a slot of its own, at least the set gap from the next", () => {
    const line = plateLine(bars([60, 110, 140, 200, 230, 260]), { charHeight: 40, inkRatio: 0.72 })!;
    expect(line.slots.length).toBe(6);
    for (let k = 1; k < line.slots.length; k++) {
      const prev = line.slots[k - 1]!;
      expect(line.slots[k]!.x - (prev.x + prev.width)).toBeGreaterThanOrEqual(Math.round(40 * 0.12));
    }
    const alone = slotImage(line, 2);
    expect(alone.height).toBe(line.image.height);
    expect(alone.pixels.some((v) => v === 0)).toBe(true);
  });

  test("a single piece, or pieces of unlike heights, are no line", () => {
    expect(plateLine(bars([100]))).toBeNull();
    const mixed = bars([60, 150]);
    const more = bars([300, 400], { h: 20 });
    for (let i = 0; i < mixed.pixels.length; i++)
      mixed.pixels[i] = Math.min(mixed.pixels[i]!, more.pixels[i]!);
    expect(plateLine(mixed)).toBeNull();
  });

  test("pieces are labelled 8-connected, with their boxes", () => {
    // Joined only corner to corner at (0,0)-(1,1); the one at (3,0) stands alone.
    const mask = new Uint8Array([1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0]);
    const found = pieces(mask, 4, 3);
    expect(found.pieces.length).toBe(2);
    expect(found.pieces[0]).toMatchObject({
      left: 0,
      top: 0,
      right: 1,
      bottom: 2,
      area: 4,
      touchesEdge: true,
    });
    expect(found.pieces[1]).toMatchObject({ left: 3, top: 0, right: 3, bottom: 0, area: 1 });
  });

  test("the PGM is a header and the bytes", () => {
    const bytes = pgm({ width: 2, height: 1, pixels: new Uint8Array([0, 255]) });
    expect(new TextDecoder().decode(bytes.subarray(0, 11))).toBe("P5\n2 1\n255\n");
    expect([...bytes.subarray(11)]).toEqual([0, 255]);
  });
});

describe("the synthetic scenes", () => {
  test("the same seed gives the same scenes, another seed others", () => {
    expect(plateSceneSpec(7, 3)).toEqual(plateSceneSpec(7, 3));
    expect(plateSceneSpec(7, 3).plate).not.toBe(plateSceneSpec(8, 3).plate);
  });

  test("every plate is a Swedish plate, and the plate lies inside the guide", () => {
    for (let i = 0; i < 300; i++) {
      const s = plateSceneSpec(1, i);
      const r = readPlate(s.plate, "se");
      expect(r.ok && r.plate === s.plate && r.corrected === 0).toBe(true);
      for (const [x, y] of s.corners) {
        expect(x).toBeGreaterThanOrEqual(s.guide.x - 0.5);
        expect(x).toBeLessThanOrEqual(s.guide.x + s.guide.width + 0.5);
        expect(y).toBeGreaterThanOrEqual(s.guide.y - 0.5);
        expect(y).toBeLessThanOrEqual(s.guide.y + s.guide.height + 0.5);
      }
      expect(s.degradations.length).toBeLessThanOrEqual(3);
    }
  });
});
