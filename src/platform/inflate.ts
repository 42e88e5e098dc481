import { createInflate } from "node:zlib";

/**
 * Inflates zlib data as a stream, handing each piece of output to `onPiece` and keeping none of
 * it: the runtime inflates off the event loop, in pieces of 16 KB, so a photo whose pixels are
 * 20 MB costs no more memory than a piece and never holds the loop more than a few ms. Resolves
 * with the bytes made and the input the zlib stream took (less than the input when something
 * follows its end), or null when it is corrupt, does not end, or would make more than
 * `maxBytes` (inflating stops there, so a zlib bomb costs no more).
 */
export function inflateStreaming(
  data: Uint8Array,
  maxBytes: number,
  onPiece: (piece: Uint8Array) => void,
): Promise<{ made: number; taken: number } | null> {
  return new Promise((resolve) => {
    const stream = createInflate();
    let made = 0;
    let over = false;
    stream.on("data", (piece: Buffer) => {
      if (over) return;
      made += piece.length;
      if (made > maxBytes) {
        over = true;
        stream.destroy();
        resolve(null);
        return;
      }
      onPiece(piece);
    });
    stream.on("error", () => resolve(null));
    stream.on("end", () => resolve(over ? null : { made, taken: stream.bytesWritten }));
    stream.end(data);
  });
}
