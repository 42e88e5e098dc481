import { describe, expect, test } from "bun:test";
import { imageStructureProblem } from "../../src/domain/notices/image-structure.ts";
import { photoProblem } from "../../src/domain/notices/rules.ts";
import { inflateWithin } from "../../src/platform/inflate.ts";
import { jpegHead, notPhotos, pngPhoto } from "../support/photos.ts";

describe("what the box accepts as a photo", () => {
  test.each([
    ["a PNG", pngPhoto(64, 48, 1), "image/png"],
    ["a tall PNG", pngPhoto(3, 700, 2), "image/png"],
    ["a JPEG with a comment", jpegHead(1600, 1200, 40_000), "image/jpeg"],
    ["a JPEG of odd size", jpegHead(13, 7, 2_003), "image/jpeg"],
  ] as const)("%s is whole", (_, bytes, type) => {
    expect(imageStructureProblem(bytes, type, inflateWithin)).toBeNull();
    expect(photoProblem(bytes, type, inflateWithin)).toBeNull();
  });

  test.each(notPhotos().map((p) => [p.kind, p] as const))("%s is refused, saying why", (_, p) => {
    const why = photoProblem(p.bytes, p.type, inflateWithin);
    expect(why).not.toBeNull();
    expect(why!).toContain(p.why);
  });

  test("a PNG whose pixels would inflate past its size stops there: a bomb costs no more", () => {
    const bomb = notPhotos().find((p) => p.kind.includes("fewer pixels"))!;
    let asked = 0;
    imageStructureProblem(bomb.bytes, "image/png", (data, max) => {
      asked = max;
      return inflateWithin(data, max);
    });
    expect(asked).toBe((64 * 3 + 1) * 48);
  });
});
