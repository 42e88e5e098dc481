import { describe, expect, test } from "bun:test";
import type { GreyImage } from "../../src/client/plate-reader/preprocess.ts";
import { lastByShape } from "../../src/client/plate-reader/shape.ts";

const W = 30;
const H = 50;

/** A slot as plateLine makes it: paper 255, ink 0, the glyph drawn by `ink(x, y)`. */
function slot(ink: (x: number, y: number) => boolean): GreyImage {
  const pixels = new Uint8Array(W * H).fill(255);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (ink(x, y)) pixels[y * W + x] = 0;
  return { width: W, height: H, pixels };
}

const between = (v: number, lo: number, hi: number) => v >= lo && v <= hi;
/** A stroke from (x0,y0) to (x1,y1), `t` pixels thick. */
const stroke = (x0: number, y0: number, x1: number, y1: number, t: number) => (x: number, y: number) => {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const k = Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (x0 + k * dx), y - (y0 + k * dy)) <= t / 2;
};
const ring = (cx: number, cy: number, r: number, t: number) => (x: number, y: number) =>
  between(Math.hypot(x - cx, y - cy), r - t, r);
const any =
  (...parts: ((x: number, y: number) => boolean)[]) =>
  (x: number, y: number) =>
    parts.some((p) => p(x, y));

// Plate type: Z's top a straight bar to both corners; 2's top an arch; B's left one straight
// stem (also slanted, as from the side); 8's left bulging twice.
const Z = slot(any(stroke(2, 2, 27, 2, 5), stroke(26, 4, 3, 46, 5), stroke(2, 47, 27, 47, 5)));
const TWO = slot(
  any(
    (x, y) => y < 26 && ring(15, 13, 12, 5)(x, y) && !(x < 15 && y > 13),
    stroke(25, 20, 3, 46, 5),
    stroke(2, 47, 27, 47, 5),
  ),
);
const B = slot(
  any(
    stroke(4, 2, 4, 47, 5),
    stroke(4, 2, 20, 2, 5),
    stroke(4, 24, 22, 24, 5),
    stroke(4, 47, 22, 47, 5),
    (x, y) => x > 18 && ring(18, 13, 11, 5)(x, y),
    (x, y) => x > 18 && ring(18, 36, 12, 5)(x, y),
  ),
);
const SLANTED_B = slot((x, y) => {
  const shift = Math.round((H - y) * 0.1);
  return x - shift >= 0 && B.pixels[y * W + (x - shift)] === 0;
});
const EIGHT = slot(any(ring(15, 13, 11, 5), ring(15, 36, 13, 5)));

describe("a plate's last character by its shape", () => {
  test.each([
    { glyph: "Z", img: Z, read: "2", is: "Z" },
    { glyph: "Z", img: Z, read: "Z", is: "Z" },
    { glyph: "2", img: TWO, read: "Z", is: "2" },
    { glyph: "2", img: TWO, read: "2", is: "2" },
    { glyph: "B", img: B, read: "8", is: "B" },
    { glyph: "B slanted", img: SLANTED_B, read: "8", is: "B" },
    { glyph: "8", img: EIGHT, read: "B", is: "8" },
    { glyph: "8", img: EIGHT, read: "8", is: "8" },
  ])("a $glyph read as $read is $is", ({ img, read, is }) => {
    expect(lastByShape(img, read)).toBe(is);
  });

  test("another character is left as read; a slot with too little ink is not judged", () => {
    expect(lastByShape(Z, "A")).toBe("A");
    expect(
      lastByShape(
        slot((x, y) => x === 3 && y < 5),
        "8",
      ),
    ).toBeNull();
  });
});
