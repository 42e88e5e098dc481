import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { trimOws } from "./http1.ts";

/**
 * Every answer of 1 KB or more goes out compressed as the request allows (br, else gzip): the
 * site's Wi-Fi carries a busy zone's saved list to every handheld, and JSON of plates shrinks
 * 15-30 times. One rule for the app's answers and the front end's direct ones, applied where
 * they are written (socket-answer.ts).
 *
 * - A kept answer (shared bytes, shared-body.ts) is compressed once per encoding and kept as long
 *   as its owner keeps the answer; any other answer is compressed for its request.
 * - Brotli at quality 5 and gzip at level 6: a 3.4 MB list of 20,000 plates in 26 ms (br, 120 KB)
 *   or 11 ms (gzip, 211 KB) on the bench's machine, a 1.7 KB answer in 0.02 ms. Quality 11 took
 *   6 s for that list.
 * - The ETag stays the content's: the same strong tag for every encoding, so `If-None-Match` and
 *   `If-Match` hold whatever encoding a client took (a weak tag for the compressed form, as some
 *   servers make it, would fail every `If-Match` a browser's console sends). `Vary:
 *   Accept-Encoding` keeps shared caches apart.
 */
export type Encoding = "br" | "gzip";

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_FROM = 1024;

const BROTLI = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};

/**
 * The encoding to answer in, from the request's Accept-Encoding (RFC 9110 §12.5.3): br before
 * gzip at equal weight, neither when refused (`q=0`) or not named (`*` names both).
 */
export function chosenEncoding(acceptEncoding: string | null | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  let br = -1;
  let gzip = -1;
  let any = -1;
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.split(";");
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split("=");
      if (trimOws(k ?? "").toLowerCase() === "q") q = Number(trimOws(v ?? ""));
    }
    if (!Number.isFinite(q) || q < 0 || q > 1) continue;
    const coding = trimOws(name).toLowerCase();
    if (coding === "br") br = q;
    else if (coding === "gzip" || coding === "x-gzip") gzip = q;
    else if (coding === "*") any = q;
  }
  if (br < 0) br = any;
  if (gzip < 0) gzip = any;
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? "br" : "gzip";
}

/** Whether answers of this content type are text worth compressing (not images, not streams). */
export function compressibleType(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "text/event-stream") return false;
  return (
    type.startsWith("text/") ||
    type === "image/svg+xml" ||
    type.endsWith("+json") ||
    type === "application/json" ||
    type === "application/javascript" ||
    type === "application/xml" ||
    // The handheld's plate reader engine: 2.9 MB that shrinks to about a third.
    type === "application/wasm"
  );
}

/**
 * How an answer of `length` bytes and `contentType` goes out: whether it varies by encoding (it
 * is one that gets compressed), and the encoding the request allows (null: as it is). The one
 * rule for the app's answers and the direct ones.
 */
export function encodingFor(
  length: number,
  contentType: string | null | undefined,
  acceptEncoding: string | null | undefined,
): { varies: boolean; encoding: Encoding | null } {
  if (length < COMPRESS_FROM || !compressibleType(contentType)) return { varies: false, encoding: null };
  return { varies: true, encoding: chosenEncoding(acceptEncoding) };
}

const kept = new WeakMap<Uint8Array, Partial<Record<Encoding, Uint8Array<ArrayBuffer>>>>();

/**
 * `body` in `encoding`. `shared`: the body is kept by its owner and sent many times (its bytes
 * never change): compressed once, and the result kept with it.
 */
export function compressed(body: Uint8Array, encoding: Encoding, shared: boolean): Uint8Array<ArrayBuffer> {
  if (shared) {
    let forms = kept.get(body);
    const had = forms?.[encoding];
    if (had) return had;
    const made = encode(body, encoding);
    if (!forms) {
      forms = {};
      kept.set(body, forms);
    }
    forms[encoding] = made;
    return made;
  }
  return encode(body, encoding);
}

function encode(body: Uint8Array, encoding: Encoding): Uint8Array<ArrayBuffer> {
  const out = encoding === "br" ? brotliCompressSync(body, BROTLI) : gzipSync(body, { level: 6 });
  return out as Uint8Array<ArrayBuffer>;
}
