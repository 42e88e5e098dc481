/**
 * HTTP/1.1 request heads and chunked bodies, read from raw bytes for the socket front end
 * (socket-front-end.ts). Strict where leniency lets two readers of the same bytes disagree
 * (request smuggling): bare LF, obs-fold, whitespace before a colon, Content-Length beside
 * Transfer-Encoding, differing Content-Lengths and codings other than chunked are all refused.
 */

export interface RequestHead {
  method: string;
  /** As sent: origin-form (`/path?q`), absolute-form or `*`. */
  target: string;
  /** Names in lower case, in the order sent. */
  headers: [string, string][];
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

export type HeadError = "malformed" | "not-ascii" | "too-large";
export type HeadRead = RequestHead | "incomplete" | { error: HeadError };

/** Longest head read (request line and headers), as node:http's default. */
export const MAX_HEAD_BYTES = 16 * 1024;
const MAX_HEADERS = 200;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const VERSION = /^HTTP\/1\.([01])$/;
/**
 * The value after `from` without the spaces and tabs around it, or null when it holds anything
 * but visible characters, spaces, tabs and obs-text (bytes above 0x7F).
 */
function trimmedValue(line: string, from: number): string | null {
  let start = from;
  let end = line.length;
  while (start < end && (line.charCodeAt(start) === 0x20 || line.charCodeAt(start) === 0x09)) start++;
  while (end > start && (line.charCodeAt(end - 1) === 0x20 || line.charCodeAt(end - 1) === 0x09)) end--;
  for (let i = start; i < end; i++) {
    const c = line.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return null;
  }
  return line.slice(start, end);
}
const DIGITS = /^\d{1,15}$/;

/**
 * The methods served. Others are refused rather than passed on: the fetch Request the app is
 * given would read `head` as HEAD and an unknown method as GET, and answer for the wrong one.
 */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Sent twice, the first counts (as node:http does); a second Authorization must not merge in. */
const SINGLE = new Set([
  "authorization",
  "content-type",
  "content-length",
  "host",
  "user-agent",
  "referer",
  "if-modified-since",
  "if-unmodified-since",
  "proxy-authorization",
  "max-forwards",
  "from",
]);

/** How many empty lines (CRLF pairs) start `buf`: ignored before a request line (RFC 9112, 2.2). */
export function blankLines(buf: Buffer): number {
  let start = 0;
  while (start + 1 < buf.length && buf[start] === 13 && buf[start + 1] === 10) start += 2;
  return start;
}

/** The head at the start of `buf`, "incomplete" while its blank line has not arrived. */
export function readHead(buf: Buffer, maxHead = MAX_HEAD_BYTES): HeadRead {
  // The caller drops empty lines before a request line as they come (blankLines); they count
  // against the limit here, so a stream of them cannot grow the input.
  const start = blankLines(buf);
  const end = buf.indexOf("\r\n\r\n", start, "latin1");
  if (end < 0) return buf.length > maxHead ? { error: "too-large" } : "incomplete";
  if (end - start > maxHead) return { error: "too-large" };
  const lines = buf.toString("latin1", start, end).split("\r\n");
  const requestLine = lines[0]!.split(" ");
  if (requestLine.length !== 3) return { error: "malformed" };
  const [method, target, version] = requestLine as [string, string, string];
  const minor = VERSION.exec(version)?.[1];
  if (!METHODS.has(method) || minor === undefined || target === "") return { error: "malformed" };
  for (let i = 0; i < target.length; i++) {
    const c = target.charCodeAt(i);
    if (c > 0x7f) return { error: "not-ascii" };
    if (c <= 0x20 || c === 0x7f) return { error: "malformed" };
  }
  if (lines.length - 1 > MAX_HEADERS) return { error: "too-large" };
  const headers: [string, string][] = [];
  let contentLength: number | null = null;
  let transferEncoding: string | null = null;
  let connection = "";
  let expectContinue = false;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(":");
    // A line starting with whitespace continues the last (obs-fold): its name is not a token, so
    // it is refused, as is a bare CR or LF (not a token character, nor allowed in a value).
    if (colon <= 0) return { error: "malformed" };
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) return { error: "malformed" };
    const value = trimmedValue(line, colon + 1);
    if (value === null) return { error: "malformed" };
    const lower = name.toLowerCase();
    if (SINGLE.has(lower) && lower !== "content-length" && headers.some(([n]) => n === lower)) continue;
    if (lower === "cookie") {
      // Cookie lines are one list, joined as browsers send it, not with the ", " of other fields.
      const first = headers.find(([n]) => n === "cookie");
      if (first) {
        first[1] = `${first[1]}; ${value}`;
        continue;
      }
    }
    headers.push([lower, value]);
    if (lower === "content-length") {
      if (!DIGITS.test(value)) return { error: "malformed" };
      const n = Number(value);
      if (contentLength !== null && contentLength !== n) return { error: "malformed" };
      contentLength = n;
    } else if (lower === "transfer-encoding")
      transferEncoding = transferEncoding === null ? value : `${transferEncoding}, ${value}`;
    else if (lower === "connection") connection += `,${value.toLowerCase()}`;
    else if (lower === "expect") expectContinue = value.toLowerCase() === "100-continue";
  }
  let chunked = false;
  if (transferEncoding !== null) {
    if (contentLength !== null) return { error: "malformed" };
    const codings = transferEncoding.split(",").map((c) => c.trim().toLowerCase());
    if (codings.length !== 1 || codings[0] !== "chunked") return { error: "malformed" };
    chunked = true;
  }
  const tokens = connection.split(",").map((t) => t.trim());
  // A chunked HTTP/1.0 request is framed in a way 1.0 does not know: answered, then closed
  // (RFC 9112, 6.1), so an intermediary that read it otherwise cannot fall out of step.
  const keepAlive = minor === "1" ? !tokens.includes("close") : tokens.includes("keep-alive") && !chunked;
  return {
    method,
    target,
    headers,
    contentLength,
    chunked,
    keepAlive,
    http10: minor === "0",
    expectContinue: expectContinue && minor === "1",
    length: end + 4,
  };
}

const MAX_SIZE_LINE = 1024;
const MAX_TRAILERS = 16 * 1024;

/**
 * A chunked body as it arrives: `feed` takes what it can from `buf` at `from` and returns how
 * many bytes it used; `done` once the last chunk and its trailers are in. Throws "malformed" on
 * a bad size line or chunk framing.
 */
export class ChunkedBody {
  readonly parts: Buffer[] = [];
  size = 0;
  done = false;
  private state: "size" | "data" | "data-end" | "trailers" = "size";
  private line = "";
  private left = 0;
  private trailerBytes = 0;

  feed(buf: Buffer, from: number): number {
    let i = from;
    while (i < buf.length && !this.done) {
      if (this.state === "data") {
        const take = Math.min(this.left, buf.length - i);
        this.parts.push(buf.subarray(i, i + take));
        this.size += take;
        this.left -= take;
        i += take;
        if (this.left === 0) this.state = "data-end";
        continue;
      }
      const nl = buf.indexOf(10, i);
      const stop = nl < 0 ? buf.length : nl + 1;
      this.line += buf.toString("latin1", i, stop);
      i = stop;
      if (nl < 0) {
        if (this.line.length > (this.state === "trailers" ? MAX_TRAILERS : MAX_SIZE_LINE)) throw "malformed";
        continue;
      }
      if (!this.line.endsWith("\r\n")) throw "malformed";
      const text = this.line.slice(0, -2);
      this.line = "";
      if (this.state === "data-end") {
        if (text !== "") throw "malformed";
        this.state = "size";
      } else if (this.state === "size") {
        const semicolon = text.indexOf(";");
        const hex = semicolon < 0 ? text : text.slice(0, semicolon);
        if (!/^[0-9A-Fa-f]{1,8}$/.test(hex)) throw "malformed";
        // Extensions are ignored, but must not hide control characters (a bare CR, a NUL).
        if (semicolon >= 0 && trimmedValue(text, semicolon + 1) === null) throw "malformed";
        this.left = Number.parseInt(hex, 16);
        this.state = this.left === 0 ? "trailers" : "data";
      } else {
        this.trailerBytes += text.length + 2;
        if (this.trailerBytes > MAX_TRAILERS) throw "malformed";
        if (text === "") this.done = true;
        else {
          // Trailers are dropped, but must be well-formed fields.
          const colon = text.indexOf(":");
          if (colon <= 0 || !TOKEN.test(text.slice(0, colon)) || trimmedValue(text, colon + 1) === null)
            throw "malformed";
        }
      }
    }
    return i - from;
  }
}
