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

  constructor(private readonly limit: number) {
    this.body = new BodyBytes(limit);
  }

  get size(): number {
    return this.body.size;
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
        this.left = Number.parseInt(hex, 16);
        if (this.body.size + this.left > this.limit) throw "too-large" satisfies ChunkError;
        this.state = this.left === 0 ? "trailers" : "data";
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
