import { describe, expect, test } from "bun:test";
import { imageStructureProblem } from "../../src/domain/notices/image-structure.ts";
import { photoProblem } from "../../src/domain/notices/rules.ts";
import { inflateStreaming } from "../../src/platform/inflate.ts";
import { jpegHead, notPhotos, pngPhoto } from "../support/photos.ts";

describe("what the box accepts as a photo", () => {
  test.each([
    ["a PNG", pngPhoto(64, 48, 1), "image/png"],
    ["a tall PNG", pngPhoto(3, 700, 2), "image/png"],
    ["a JPEG with a comment", jpegHead(1600, 1200, 40_000), "image/jpeg"],
    ["a JPEG of odd size", jpegHead(13, 7, 2_003), "image/jpeg"],
  ] as const)("%s is whole", async (_, bytes, type) => {
    expect(await imageStructureProblem(bytes, type, inflateStreaming)).toBeNull();
    expect(await photoProblem(bytes, type, inflateStreaming)).toBeNull();
  });

  test.each(notPhotos().map((p) => [p.kind, p] as const))("%s is refused, saying why", async (_, p) => {
    const why = await photoProblem(p.bytes, p.type, inflateStreaming);
    expect(why).not.toBeNull();
    expect(why!).toContain(p.why);
  });

  test("a PNG's pixels are inflated as a stream, none kept, and never past what its size needs", async () => {
    const png = pngPhoto(200, 100, 3);
    let asked = 0;
    let largest = 0;
    const problem = await imageStructureProblem(png, "image/png", (data, max, onPiece) => {
      asked = max;
      return inflateStreaming(data, max, (piece) => {
        largest = Math.max(largest, piece.length);
        onPiece(piece);
      });
    });
    expect(problem).toBeNull();
    expect(asked).toBe((200 * 3 + 1) * 100);
    expect(largest).toBeLessThanOrEqual(64 * 1024);
  });
});
