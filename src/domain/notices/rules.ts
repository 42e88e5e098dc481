import { type Inflate, imageStructureProblem } from "./image-structure.ts";

/**
 * Control notices (penalty notices) an attendant issues after a verdict, and the site's table of
 * reasons and amounts they are issued under. Pure: what a notice, a reason and a photo must be.
 */

/** At most this many photos on one notice. */
export const PHOTOS_PER_NOTICE = 3;
/** A photo's bytes: the phone scales it to this before sending it. */
export const PHOTO_MAX_BYTES = 500 * 1024;
/** Smaller than any real photo: a header, a thumbnail, or a mistake. */
export const PHOTO_MIN_BYTES = 100;
/** A photo's longest side, in pixels (the phone scales to it). */
export const PHOTO_MAX_SIDE = 1600;
/** The note an attendant adds (valve positions, a description). */
export const NOTE_MAX = 500;
/** The operator's reason for voiding a notice. */
export const VOID_REASON_MAX = 500;

/** The verdicts a notice may follow. */
export const NOTICE_VERDICTS = ["none", "over_time_limit"] as const;
export type NoticeVerdict = (typeof NOTICE_VERDICTS)[number];

/**
 * The reasons a notice may be issued under after this verdict: the active ones whose verdicts
 * include it. A reason without a list (a phone's copy from an older box) follows every verdict.
 * The handheld offers these, and the box refuses any other, so both decide alike.
 */
export function reasonsForVerdict<R extends { active?: boolean; verdicts?: readonly NoticeVerdict[] }>(
  reasons: readonly R[],
  verdict: NoticeVerdict,
): R[] {
  return reasons.filter((r) => r.active !== false && (r.verdicts ?? NOTICE_VERDICTS).includes(verdict));
}

/** An id the phone makes (a UUID, or any 8 to 64 letters, digits, `-` and `_`): a retry carries it again. */
export const NOTICE_ID_PATTERN = "^[A-Za-z0-9_-]{8,64}$";
/** The pattern in words, as a refused id's message says it (before the description's first `;`). */
export const NOTICE_ID_WORDS = "an id made on the phone: 8 to 64 letters, digits, - or _ (a UUID)";
/** A reason's code, as the operator names it (`no-permit`, `over-time`). */
export const REASON_CODE_PATTERN = "^[a-z0-9][a-z0-9_-]{0,31}$";

export interface ImageFacts {
  type: "image/jpeg" | "image/png";
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * What a photo's bytes are, read from its header alone: a PNG's IHDR, a JPEG's first frame
 * header (SOF0-SOF15 except the DHT, JPG and DAC markers). Null when it is neither, or says no
 * size: the box keeps only what a browser can show as the photo it claims to be.
 */
export function imageFacts(b: Uint8Array): ImageFacts | null {
  if (b.length >= 24 && PNG_SIGNATURE.every((v, i) => b[i] === v)) {
    // The IHDR chunk comes first: length 13, "IHDR", then width and height big-endian.
    if (b[12] !== 0x49 || b[13] !== 0x48 || b[14] !== 0x44 || b[15] !== 0x52) return null;
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    return { type: "image/png", width: dv.getUint32(16), height: dv.getUint32(20) };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1]!;
      if (marker === 0xff) {
        i++; // fill byte
        continue;
      }
      const length = (b[i + 2]! << 8) | b[i + 3]!;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        const height = (b[i + 5]! << 8) | b[i + 6]!;
        const width = (b[i + 7]! << 8) | b[i + 8]!;
        return { type: "image/jpeg", width, height };
      }
      if (marker === 0xd9 || marker === 0xda || length < 2) return null;
      i += 2 + length;
    }
  }
  return null;
}

/**
 * Why these bytes are not a photo a notice may carry; null when they are: a JPEG or PNG of a
 * size the phone sends, as its Content-Type says, and whole (image-structure.ts).
 */
export async function photoProblem(
  bytes: Uint8Array,
  contentType: string | null,
  inflate: Inflate,
): Promise<string | null> {
  if (bytes.length < PHOTO_MIN_BYTES)
    return `A photo has at least ${PHOTO_MIN_BYTES} bytes; this has ${bytes.length}`;
  if (bytes.length > PHOTO_MAX_BYTES)
    return `A photo has at most ${PHOTO_MAX_BYTES} bytes (the phone scales it); this has ${bytes.length}`;
  const facts = imageFacts(bytes);
  if (!facts) return "The body is not a JPEG or PNG image";
  const declared = contentType?.split(";")[0]?.trim().toLowerCase();
  if (declared !== facts.type)
    return `The body is ${facts.type}, but Content-Type says ${declared ?? "nothing"}`;
  if (facts.width < 1 || facts.height < 1) return "The image has no size";
  if (Math.max(facts.width, facts.height) > PHOTO_MAX_SIDE)
    return `A photo's longest side is at most ${PHOTO_MAX_SIDE} px; this is ${facts.width}×${facts.height}`;
  return imageStructureProblem(bytes, facts.type, inflate);
}
