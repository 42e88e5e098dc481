/**
 * HTTP/1.1 request heads and bodies, read from raw bytes by the front end (server.ts), over TCP
 * and TLS alike. Strict where leniency lets two readers of the same bytes disagree (request
 * smuggling): bare LF, obs-fold, whitespace before a colon, Content-Length beside
 * Transfer-Encoding, differing Content-Lengths and codings other than chunked are all refused.
 */

export interface RequestHead {
  method: string;
  /** As sent: origin-form (`/path?q`), absolute-form or `*`. */
  target: string;
  /** The target's path and query, raw UTF-8 percent-encoded: what follows the origin in a URL. */
  path: string;
  /** Names in lower case, in the order sent. */
  headers: [string, string][];
  /** The Host header's name, lower case and without its port; null when none was sent (HTTP/1.0). */
  host: string | null;
  /** null: no Content-Length (chunked, or no body). */
  contentLength: number | null;
  chunked: boolean;
  keepAlive: boolean;
  /** HTTP/1.0: no interim answers, and no chunked answers (the end is marked by closing). */
  http10: boolean;
  expectContinue: boolean;
  /** Bytes the head took, its blank line included. */
  length: number;
}

/** A field's value in the head (the first, where the reader keeps only one), or undefined. */
export function headerOf(head: RequestHead, name: string): string | undefined {
  return head.headers.find(([n]) => n === name)?.[1];
}

export type HeadError = "malformed" | "not-utf8" | "too-large" | "expectation-failed";
export type HeadRead = RequestHead | "incomplete" | { error: HeadError; why: string };

/** Longest head read (request line and headers), as node:http's default. */
export const MAX_HEAD_BYTES = 16 * 1024;
const MAX_HEADERS = 200;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const VERSION = /^HTTP\/1\.([01])$/;
const DIGITS = /^\d{1,15}$/;
/** RFC 9112 3.2 / RFC 3986: an IP literal or a reg-name, then an optional port. */
const HOST = /^(?:\[[0-9A-Za-z:.%~_-]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::[0-9]*)?$/;
const ABSOLUTE = /^https?:\/\/([^/?#]*)/i;

const SP = 0x20;
const HTAB = 0x09;
const CR = 13;
const LF = 10;

/** Whether `c` is optional whitespace (RFC 9110 5.6.3): SP or HTAB, never NBSP or other Unicode space. */
const isOws = (c: number) => c === SP || c === HTAB;

/** `text` without the spaces and tabs around it. JavaScript's trim() would also strip NBSP. */
export function trimOws(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isOws(text.charCodeAt(start))) start++;
  while (end > start && isOws(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/** A comma-separated list's elements, each without its OWS, in lower case. */
function listOf(value: string): string[] {
  return value.split(",").map((e) => trimOws(e).toLowerCase());
}

/**
 * The value after `from` without the spaces and tabs around it, or null when it holds anything
 * but visible characters, spaces, tabs and obs-text (bytes above 0x7F).
 */
function trimmedValue(line: string, from: number): string | null {
  const value = trimOws(line.slice(from));
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 && c !== HTAB) || c === 0x7f) return null;
  }
  return value;
}

/**
 * The methods served. Others are refused rather than passed on: the fetch Request the app is
 * given would read `head` as HEAD and an unknown method as GET, and answer for the wrong one.
 */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Sent twice, the first counts (as node:http does); a second Authorization must not merge in. */
const SINGLE = new Set([
  "authorization",
  "content-type",
  "user-agent",
  "referer",
  "if-modified-since",
  "if-unmodified-since",
  "proxy-authorization",
  "max-forwards",
  "from",
]);

/**
 * Header names as clients usually spell them, with their lower case: every request sends a few,
 * and toLowerCase makes a new string each time. Any other spelling is lowered as it comes.
 */
const USUAL_NAMES = new Map(
  [
    "Host",
    "User-Agent",
    "Accept",
    "Accept-Encoding",
    "Accept-Language",
    "Authorization",
    "Connection",
    "Content-Length",
    "Content-Type",
    "Cookie",
    "If-None-Match",
    "Origin",
    "Referer",
    "X-Request-Id",
  ].flatMap((name) => [
    [name, name.toLowerCase()],
    [name.toLowerCase(), name.toLowerCase()],
  ]),
);

const malformed = (why: string) => ({ error: "malformed" as const, why });

/** How many empty lines (CRLF pairs) start `buf`: ignored before a request line (RFC 9112, 2.2). */
export function blankLines(buf: Buffer): number {
  let start = 0;
  while (start + 1 < buf.length && buf[start] === CR && buf[start + 1] === LF) start += 2;
  return start;
}

/**
 * What can be refused before a head is whole, so that a client that will never send a valid
 * one (bare LF line ends, a TLS ClientHello on the plain port) is answered at once rather than
 * at its header deadline.
 */
function refusedEarly(buf: Buffer, start: number, end: number, from = start): string | null {
  const first = buf[start];
  if (first !== undefined && (first < 0x41 || first > 0x5a) && first !== CR)
    return "a request line starts with a method in capitals";
  for (let i = buf.indexOf(LF, from); i >= 0 && i < end; i = buf.indexOf(LF, i + 1))
    if (i === start || buf[i - 1] !== CR) return "lines end with CRLF, not a bare LF";
  return null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const HEX = Array.from({ length: 256 }, (_, b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`);

/**
 * The request target's bytes (read as latin1) with raw UTF-8 percent-encoded, as a browser would
 * have sent it: `?p=ÖZB771` from curl is read as `?p=%C3%96ZB771`. Null when the bytes above
 * 0x7F are not UTF-8.
 */
function encodeTarget(target: string): string | null {
  let high = false;
  for (let i = 0; i < target.length && !high; i++) high = target.charCodeAt(i) > 0x7f;
  if (!high) return target;
  const bytes = Buffer.from(target, "latin1");
  try {
    utf8.decode(bytes);
  } catch {
    return null;
  }
  let out = "";
  for (const b of bytes) out += b > 0x7f ? HEX[b] : String.fromCharCode(b);
  return out;
}

/** The path and query of an origin-form, absolute-form or asterisk-form target. */
function pathOf(target: string, method: string): string | null {
  if (target.startsWith("/")) return target;
  if (target === "*") return method === "OPTIONS" ? "/*" : null;
  const absolute = ABSOLUTE.exec(target);
  if (!absolute) return null;
  const rest = target.slice(absolute[0].length);
  if (rest.startsWith("#")) return null;
  return rest.startsWith("/") ? rest : `/${rest}`;
}

/** A Host value's name, lower case, without its port. */
function hostName(value: string): string {
  const v = value.toLowerCase();
  if (v.startsWith("[")) return v.slice(0, v.indexOf("]") + 1);
  const colon = v.lastIndexOf(":");
  return colon < 0 ? v : v.slice(0, colon);
}

/**
 * The head at the start of `buf`, "incomplete" while its blank line has not arrived. `scanned`:
 * how many bytes at the start an earlier call found incomplete (and without a bare LF), so that a
 * head arriving a byte at a time is searched once, not once per byte.
 */
export function readHead(buf: Buffer, maxHead = MAX_HEAD_BYTES, scanned = 0): HeadRead {
  // The caller drops empty lines before a request line as they come (blankLines); they count
  // against the limit here, so a stream of them cannot grow the input.
  const start = blankLines(buf);
  const from = Math.max(start, scanned - 3);
  const end = buf.indexOf("\r\n\r\n", from, "latin1");
  const early = refusedEarly(buf, start, end < 0 ? buf.length : end, Math.max(start, scanned - 1));
  if (early !== null) return malformed(early);
  if (end < 0)
    return buf.length > maxHead
      ? { error: "too-large", why: "The request headers are too large" }
      : "incomplete";
  if (end - start > maxHead) return { error: "too-large", why: "The request headers are too large" };
  const lines = buf.toString("latin1", start, end).split("\r\n");
  const requestLine = lines[0]!.split(" ");
  if (requestLine.length !== 3) return malformed("the request line is METHOD SP TARGET SP HTTP/1.1");
  const [method, target, version] = requestLine as [string, string, string];
  const minor = VERSION.exec(version)?.[1];
  if (minor === undefined) return malformed("the version is HTTP/1.1 or HTTP/1.0");
  if (!METHODS.has(method)) return malformed(`the method ${JSON.stringify(method)} is not served`);
  if (target === "") return malformed("the request target is empty");
  for (let i = 0; i < target.length; i++) {
    const c = target.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) return malformed("the request target holds a control character");
  }
  const encoded = encodeTarget(target);
  if (encoded === null)
    return { error: "not-utf8", why: "The request target holds bytes above 0x7F that are not UTF-8" };
  const path = pathOf(encoded, method);
  if (path === null) return malformed("the request target is neither a path nor an http(s) URL");
  if (lines.length - 1 > MAX_HEADERS) return { error: "too-large", why: "The request has too many headers" };
  const headers: [string, string][] = [];
  let host: string | null = null;
  let contentLength: number | null = null;
  let transferEncoding: string | null = null;
  let connection = "";
  let expectContinue = false;
  /** An expectation other than 100-continue: refused (417) once the head is otherwise valid. */
  let unknownExpectation: string | null = null;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(":");
    // A line starting with whitespace continues the last (obs-fold): its name is not a token, so
    // it is refused, as is a bare CR (not a token character, nor allowed in a value).
    if (colon <= 0) return malformed("a header line is NAME: VALUE");
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) return malformed("a header name is a token, without spaces or folding");
    const value = trimmedValue(line, colon + 1);
    if (value === null) return malformed(`the ${name} header holds a control character`);
    const lower = USUAL_NAMES.get(name) ?? name.toLowerCase();
    if (SINGLE.has(lower) && headers.some(([n]) => n === lower)) continue;
    if (lower === "cookie") {
      // Cookie lines are one list, joined as browsers send it, not with the ", " of other fields.
      const first = headers.find(([n]) => n === "cookie");
      if (first) {
        first[1] = `${first[1]}; ${value}`;
        continue;
      }
    }
    headers.push([lower, value]);
    if (lower === "host") {
      if (host !== null) return malformed("the request has more than one Host header");
      if (!HOST.test(value)) return malformed("the Host header is not a host name or address and port");
      host = hostName(value);
    } else if (lower === "content-length") {
      if (!DIGITS.test(value)) return malformed("Content-Length is plain digits");
      const n = Number(value);
      if (contentLength !== null && contentLength !== n) return malformed("two different Content-Lengths");
      contentLength = n;
    } else if (lower === "transfer-encoding")
      transferEncoding = transferEncoding === null ? value : `${transferEncoding}, ${value}`;
    else if (lower === "connection") connection += `,${value}`;
    else if (lower === "expect") {
      // RFC 9110 10.1.1: 100-continue is the one expectation defined; any other (or a list
      // holding one) cannot be met, and a client that sent it must not take silence for consent.
      if (value.toLowerCase() === "100-continue") expectContinue = true;
      else unknownExpectation ??= value;
    }
  }
  if (minor === "1" && host === null) return malformed("an HTTP/1.1 request has a Host header");
  let chunked = false;
  if (transferEncoding !== null) {
    if (contentLength !== null) return malformed("Content-Length beside Transfer-Encoding");
    const codings = listOf(transferEncoding);
    if (codings.length !== 1 || codings[0] !== "chunked")
      return malformed("the only transfer coding served is chunked");
    chunked = true;
  }
  if (unknownExpectation !== null)
    return {
      error: "expectation-failed",
      why: `The expectation ${JSON.stringify(unknownExpectation)} cannot be met; the only one served is 100-continue`,
    };
  const tokens = connection === "" ? [] : listOf(connection);
  // A chunked HTTP/1.0 request is framed in a way 1.0 does not know: answered, then closed
  // (RFC 9112, 6.1), so an intermediary that read it otherwise cannot fall out of step.
  const keepAlive = minor === "1" ? !tokens.includes("close") : tokens.includes("keep-alive") && !chunked;
  return {
    method,
    target,
    path,
    headers,
    host,
    contentLength,
    chunked,
    keepAlive,
    http10: minor === "0",
    expectContinue: expectContinue && minor === "1",
    length: end + 4,
  };
}

// Request bodies as they arrive, fixed-length or chunked (RFC 9112 sections 6 and 7), each held
// in one buffer bounded by the body limit.

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
