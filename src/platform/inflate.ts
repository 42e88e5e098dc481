import { inflateSync } from "node:zlib";

/**
 * Inflates zlib data whole: null when it is corrupt, does not end, or would inflate past
 * `maxBytes` (the runtime stops there, so a small bomb costs no more than that).
 */
export function inflateWithin(data: Uint8Array, maxBytes: number): Uint8Array | null {
  try {
    return inflateSync(data, { maxOutputLength: Math.max(1, maxBytes) });
  } catch {
    return null;
  }
}
