import { compressed, encodingFor } from "./compression.ts";
import { SLOW_READER } from "./connection-guard.ts";
import type { DirectAnswer } from "./direct.ts";
import { type Problem, problemContent } from "./problem.ts";
import { sharedBodyOf } from "./shared-body.ts";
import type { Connection } from "./socket-connection.ts";

/** The Date header's value, made once a second. */
let dateSecond = -1;
let dateText = "";
export function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

export const EMPTY: Uint8Array<ArrayBuffer> = new Uint8Array(0);
/** Answers up to this size go out in one write, head and body together. */
const ONE_WRITE_MAX = 16 * 1024;
/** An event stream's output waiting for a client that does not read, before it is cut. */
const MAX_STREAM_BACKLOG = 1024 * 1024;

/**
 * A problem the front end answers itself, as raw bytes; the connection closes after it.
 * `extraHead`: raw header lines every answer on the connection carries (HSTS over TLS).
 */
export function rawProblem(
  problem: Problem,
  requestId: string,
  extraHead: string,
  instance?: string,
): string {
  const { body, headers, contentType } = problemContent(problem, instance);
  let extra = extraHead;
  for (const [name, value] of Object.entries(headers)) extra += `${name}: ${value}\r\n`;
  return (
    `HTTP/1.1 ${problem.status} ${statusText(problem.status)}\r\ncontent-type: ${contentType}\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\n${extra}` +
    `date: ${httpDate()}\r\nconnection: close\r\n\r\n${body}`
  );
}

/**
 * What writes an app's Response, body streams (the zone feed) included. `acceptEncoding`: the
 * request's, which the body is compressed for (compression.ts).
 */
export async function answer(
  c: Connection,
  method: string,
  response: Response,
  requestId: string,
  keepAlive: boolean,
  http10: boolean,
  acceptEncoding: string | null = null,
): Promise<void> {
  const status = response.status;
  let head = `HTTP/1.1 ${status} ${statusText(status)}\r\nx-request-id: ${requestId}\r\n${c.extraHead}`;
  let declared: string | null = null;
  let streaming = false;
  let cookies = false;
  let contentType: string | null = null;
  let encoded = false;
  let vary: string | null = null;
  // One pass over the headers; Set-Cookie lines are read apart, since forEach joins them.
  response.headers.forEach((value, name) => {
    if (name === "content-length") declared = value;
    else if (name === "set-cookie") cookies = true;
    else if (name === "vary") vary = value;
    else if (name !== "connection" && name !== "transfer-encoding" && name !== "date") {
      if (name === "content-type") {
        contentType = value;
        streaming = value.startsWith("text/event-stream");
      } else if (name === "content-encoding") encoded = true;
      head += `${name}: ${value}\r\n`;
    }
  });
  if (c.closed) {
    // The client left while the app worked: a stream (the zone feed) is let go, or it would hold
    // its subscription for good.
    if (streaming) void response.body?.cancel().catch(() => {});
    return;
  }
  if (cookies) for (const cookie of response.headers.getSetCookie()) head += `set-cookie: ${cookie}\r\n`;
  head += `date: ${httpDate()}\r\n`;
  const noBody = method === "HEAD" || status === 204 || status === 304 || status < 200;
  if (response.body && streaming && !noBody) {
    // An event stream goes out as it is written and ends the connection with it: chunked, or to
    // an HTTP/1.0 client, ended by the close.
    c.write(`${head}${http10 ? "" : "transfer-encoding: chunked\r\n"}connection: close\r\n\r\n`);
    const reader = response.body.getReader();
    // The stream hears why it ends: SLOW_READER when its client stopped reading.
    c.once("close", (reason) => void reader.cancel(reason).catch(() => {}));
    for (;;) {
      const next = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (next.done || c.closed) break;
      // A client that stops reading is cut rather than buffered for without end.
      if (c.queued > MAX_STREAM_BACKLOG) {
        c.destroy(SLOW_READER);
        break;
      }
      if (next.value.length === 0) continue;
      if (http10) c.write(next.value);
      // A small chunk (a feed event) goes as one write with its framing: over TLS each write is
      // a record and a syscall. A large one (a whole zone list) is written as it is, between its
      // framing: a stream's chunks are often one buffer shared by every subscriber.
      else if (next.value.length <= ONE_WRITE_MAX) c.write(chunkFrame(next.value));
      else {
        c.write(`${next.value.length.toString(16)}\r\n`);
        c.write(next.value);
        c.write("\r\n");
      }
    }
    c.end(http10 ? "" : "0\r\n\r\n");
    return;
  }
  if (response.body && streaming) {
    // HEAD on a stream: the headers, and the stream (which never ends by itself) let go.
    void response.body.cancel().catch(() => {});
    c.write(`${head}connection: close\r\n\r\n`);
    c.end("");
    return;
  }
  // A shared body (sharedBodyResponse) is written from its one buffer, never copied.
  const shared = sharedBodyOf(response);
  let body = shared ?? (response.body === null ? EMPTY : await response.bytes());
  const withBody = status !== 204 && status !== 304 && status >= 200;
  const { varies, encoding } =
    withBody && !encoded ? encodingFor(body.length, contentType, acceptEncoding) : NOT_ENCODED;
  if (varies) vary = vary ? `${vary}, accept-encoding` : "accept-encoding";
  if (encoding) {
    // A HEAD is told what a GET would get: the compressed length and its encoding.
    body = compressed(body, encoding, shared !== undefined);
    head += `content-encoding: ${encoding}\r\n`;
    declared = null;
  }
  // A 304 says what the answer it stands for would: that answer varied by encoding.
  if (status === 304 && !vary) vary = "accept-encoding";
  if (vary) head += `vary: ${vary}\r\n`;
  if (withBody) head += `content-length: ${declared ?? body.length}\r\n`;
  head += keepAlive ? KEEP_ALIVE : CLOSE;
  writeWhole(c, head, noBody ? EMPTY : body, shared !== undefined);
}

const NOT_ENCODED = { varies: false, encoding: null } as const;
const KEEP_ALIVE = "connection: keep-alive\r\nkeep-alive: timeout=5\r\n\r\n";
const CLOSE = "connection: close\r\n\r\n";

/**
 * A direct route's answer (direct.ts): the same head, in the same order, as `answer` writes for
 * the app's Response of it (a Response's headers go out sorted by name), with no Response made.
 * A text body goes out with its head in one buffer, encoded straight into it.
 */
export function answerDirect(
  c: Connection,
  direct: DirectAnswer,
  requestId: string,
  keepAlive: boolean,
  acceptEncoding: string | null = null,
): void {
  const status = direct.status ?? 200;
  let fields = `content-type: ${direct.contentType}\r\n`;
  if (direct.headers) {
    const all: [string, string][] = [["content-type", direct.contentType], ...Object.entries(direct.headers)];
    all.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    fields = all.map(([name, value]) => `${name}: ${value}\r\n`).join("");
  }
  let body = direct.body;
  let text = typeof body === "string";
  let length = text ? Buffer.byteLength(body as string) : body.length;
  // Compressed as `answer` compresses the app's Response of it, and told in the same order.
  const { varies, encoding } = encodingFor(length, direct.contentType, acceptEncoding);
  let coding = varies ? "vary: accept-encoding\r\n" : "";
  if (encoding) {
    body = compressed(text ? Buffer.from(body as string, "utf8") : (body as Uint8Array), encoding, !text);
    text = false;
    length = body.length;
    coding = `content-encoding: ${encoding}\r\n${coding}`;
  }
  const head =
    `HTTP/1.1 ${status} ${statusText(status)}\r\nx-request-id: ${requestId}\r\n${c.extraHead}${fields}` +
    `date: ${httpDate()}\r\n${coding}content-length: ${length}\r\n${keepAlive ? KEEP_ALIVE : CLOSE}`;
  if (!text) {
    writeWhole(c, head, body as Uint8Array, typeof direct.body !== "string");
    return;
  }
  const out = Buffer.allocUnsafe(head.length + length);
  out.write(head, 0, "latin1");
  out.write(body as string, head.length, "utf8");
  c.write(out);
}

/** A head and its body: in one write up to ONE_WRITE_MAX, else the body as it is after its head. */
function writeWhole(c: Connection, head: string, body: Uint8Array, shared: boolean): void {
  if (body.length === 0) c.write(head);
  else if (body.length > ONE_WRITE_MAX) {
    // A large body (the lots list) goes as it is, after its head: copying it costs more than a
    // second write, and the copy is garbage the size of the answer.
    c.write(head);
    c.write(body, shared);
  } else {
    const out = Buffer.allocUnsafe(head.length + body.length);
    out.write(head, 0, "latin1");
    out.set(body, head.length);
    c.write(out);
  }
}

/** A chunk of a chunked body as it goes on the wire: its size line, the bytes and CRLF. */
function chunkFrame(data: Uint8Array): Uint8Array {
  const size = `${data.length.toString(16)}\r\n`;
  const out = Buffer.allocUnsafe(size.length + data.length + 2);
  out.write(size, 0, "latin1");
  out.set(data, size.length);
  out.write("\r\n", size.length + data.length, "latin1");
  return out;
}

/**
 * The reason phrase of each status the box may answer (RFC 9110 and the WebDAV and rate-limit
 * RFCs' own), said once for the front end's status lines. Reading them from node:http instead
 * loaded the runtime's whole HTTP module at every start for this one table.
 */
const STATUS_TEXT: Record<number, string> = {
  100: "Continue",
  101: "Switching Protocols",
  200: "OK",
  201: "Created",
  202: "Accepted",
  203: "Non-Authoritative Information",
  204: "No Content",
  205: "Reset Content",
  206: "Partial Content",
  207: "Multi-Status",
  300: "Multiple Choices",
  301: "Moved Permanently",
  302: "Found",
  303: "See Other",
  304: "Not Modified",
  307: "Temporary Redirect",
  308: "Permanent Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  407: "Proxy Authentication Required",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  412: "Precondition Failed",
  413: "Payload Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  417: "Expectation Failed",
  421: "Misdirected Request",
  422: "Unprocessable Entity",
  423: "Locked",
  425: "Too Early",
  426: "Upgrade Required",
  428: "Precondition Required",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  451: "Unavailable For Legal Reasons",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  505: "HTTP Version Not Supported",
  507: "Insufficient Storage",
  511: "Network Authentication Required",
};

function statusText(status: number): string {
  return STATUS_TEXT[status] ?? "Unknown";
}
