/**
 * Request bodies as they arrive, fixed-length or chunked (RFC 9112 sections 6 and 7), each held
 * in one buffer bounded by the body limit.
 */
import { LF, TOKEN, trimmedValue } from "./http1.ts";

/**
 * A body's bytes in one buffer that grows as they arrive, never past the body limit: a body
 * sent in many small pieces holds its own size, not the buffers it arrived in.
 */
export class BodyBytes {
  private data: Buffer;
  size = 0;

  constructor(
    private readonly limit: number,
    expected = 0,
  ) {
    this.data = Buffer.allocUnsafe(Math.min(limit, Math.max(expected, 1024)));
  }

  /** Bytes held, the buffer's spare room included. */
  get capacity(): number {
    return this.data.length;
  }

  /** False when `bytes` would take it past the limit (nothing is kept then). */
  append(buf: Buffer, from: number, to: number): boolean {
    const size = this.size + (to - from);
    if (size > this.limit) return false;
    if (size > this.data.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.limit, Math.max(size, this.data.length * 2)));
      this.data.copy(grown, 0, 0, this.size);
      this.data = grown;
    }
    buf.copy(this.data, this.size, from, to);
    this.size = size;
    return true;
  }

  bytes(): Uint8Array<ArrayBuffer> {
    return new Uint8Array(this.data.buffer as ArrayBuffer, this.data.byteOffset, this.size);
  }
}

const MAX_SIZE_LINE = 1024;
const CR = 13;

/** A size line of 1-8 hex digits and CRLF at `at`, read from the bytes; null for anything else. */
function plainSize(buf: Buffer, at: number): { value: number; next: number } | null {
  let value = 0;
  let i = at;
  for (; i < buf.length && i - at < 9; i++) {
    const c = buf[i]!;
    const digit =
      c >= 0x30 && c <= 0x39
        ? c - 0x30
        : c >= 0x61 && c <= 0x66
          ? c - 0x57
          : c >= 0x41 && c <= 0x46
            ? c - 0x37
            : -1;
    if (digit < 0) break;
    value = value * 16 + digit;
  }
  const digits = i - at;
  if (digits < 1 || digits > 8 || buf[i] !== CR || buf[i + 1] !== LF) return null;
  return { value, next: i + 2 };
}
const MAX_TRAILERS = 16 * 1024;

export type ChunkError = "malformed" | "too-large";

/**
 * A chunked body as it arrives: `feed` takes what it can from `buf` at `from` and returns how
 * many bytes it used; `done` once the last chunk and its trailers are in. Throws a ChunkError on
 * a bad size line or chunk framing ("malformed") or a body past the limit ("too-large"); chunk
 * sizes count against the limit when declared, before their data arrives.
 */
export class ChunkedBody {
  readonly body: BodyBytes;
  done = false;
  private state: "size" | "data" | "data-end" | "trailers" = "size";
  private line = "";
  private left = 0;
  private trailerBytes = 0;

  constructor(readonly limit: number) {
    this.body = new BodyBytes(limit);
  }

  get size(): number {
    return this.body.size;
  }

  private startChunk(size: number): void {
    if (this.body.size + size > this.limit) throw "too-large" satisfies ChunkError;
    this.left = size;
    this.state = size === 0 ? "trailers" : "data";
  }

  feed(buf: Buffer, from: number): number {
    let i = from;
    while (i < buf.length && !this.done) {
      if (this.state === "data") {
        const take = Math.min(this.left, buf.length - i);
        if (!this.body.append(buf, i, i + take)) throw "too-large" satisfies ChunkError;
        this.left -= take;
        i += take;
        if (this.left === 0) this.state = "data-end";
        continue;
      }
      if (this.line === "") {
        // Fast paths for a body of many small chunks: a data end or a plain size line whole in
        // this buffer is read from the bytes, without building strings.
        if (this.state === "data-end" && buf[i] === CR && buf[i + 1] === LF) {
          i += 2;
          this.state = "size";
          continue;
        }
        if (this.state === "size") {
          const size = plainSize(buf, i);
          if (size !== null) {
            this.startChunk(size.value);
            i = size.next;
            continue;
          }
        }
      }
      const nl = buf.indexOf(LF, i);
      const stop = nl < 0 ? buf.length : nl + 1;
      this.line += buf.toString("latin1", i, stop);
      i = stop;
      if (nl < 0) {
        if (this.line.length > (this.state === "trailers" ? MAX_TRAILERS : MAX_SIZE_LINE))
          throw "malformed" satisfies ChunkError;
        continue;
      }
      if (!this.line.endsWith("\r\n")) throw "malformed" satisfies ChunkError;
      const text = this.line.slice(0, -2);
      this.line = "";
      if (this.state === "data-end") {
        if (text !== "") throw "malformed" satisfies ChunkError;
        this.state = "size";
      } else if (this.state === "size") {
        const semicolon = text.indexOf(";");
        const hex = semicolon < 0 ? text : text.slice(0, semicolon);
        if (!/^[0-9A-Fa-f]{1,8}$/.test(hex)) throw "malformed" satisfies ChunkError;
        // Extensions are ignored, but must not hide control characters (a bare CR, a NUL).
        if (semicolon >= 0 && trimmedValue(text, semicolon + 1) === null)
          throw "malformed" satisfies ChunkError;
        this.startChunk(Number.parseInt(hex, 16));
      } else {
        this.trailerBytes += text.length + 2;
        if (this.trailerBytes > MAX_TRAILERS) throw "malformed" satisfies ChunkError;
        if (text === "") this.done = true;
        else {
          // Trailers are dropped, but must be well-formed fields.
          const colon = text.indexOf(":");
          if (colon <= 0 || !TOKEN.test(text.slice(0, colon)) || trimmedValue(text, colon + 1) === null)
            throw "malformed" satisfies ChunkError;
        }
      }
    }
    return i - from;
  }
}
