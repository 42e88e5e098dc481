import type { Socket } from "node:net";

const HEX = Array.from({ length: 256 }, (_, b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`);

/**
 * Percent-encodes bytes above 0x7F in the request line at the start of `data` (after any empty
 * lines before it), as a browser would have: `GET /x?p=ÖZB771` sent raw by curl becomes
 * `GET /x?p=%C3%96ZB771`, which the HTTP parser accepts and URL decoding turns back into Ö.
 * Nothing after the request line is touched. `lineOpen`: the chunk ended before the line did.
 */
export function encodeRequestLine(data: Buffer): { data: Buffer; lineOpen: boolean } {
  let start = 0;
  while (start < data.length && (data[start] === 13 || data[start] === 10)) start++;
  const newline = data.indexOf(10, start);
  const end = newline < 0 ? data.length : newline;
  let high = 0;
  for (let i = start; i < end; i++) if (data[i]! > 0x7f) high++;
  if (high === 0) return { data, lineOpen: newline < 0 };
  const out = Buffer.allocUnsafe(data.length + high * 2);
  let o = data.copy(out, 0, 0, start);
  for (let i = start; i < end; i++) {
    const b = data[i]!;
    if (b > 0x7f) o += out.write(HEX[b]!, o, "latin1");
    else out[o++] = b;
  }
  data.copy(out, o, end);
  return { data: out, lineOpen: newline < 0 };
}

/** The node:http parser that node:http attaches to each socket it is handed. */
interface ParserLike {
  execute(data: Buffer): unknown;
  [callback: number]: ((...args: unknown[]) => unknown) | null | undefined;
}

// The parser's callback slots, as node's own _http_common uses them.
const SLOTS = (() => {
  try {
    const p = (process as unknown as { binding(n: string): { HTTPParser: Record<string, number> } }).binding(
      "http_parser",
    ).HTTPParser;
    return { begin: p.kOnMessageBegin ?? -1, complete: p.kOnMessageComplete ?? -1 };
  } catch {
    return { begin: -1, complete: -1 };
  }
})();

/**
 * Wraps the socket's parser: `onBytes` hears of every chunk before it is parsed, and a chunk that
 * starts a request line has that line percent-encoded. The next chunk starts a request line only
 * if this one ended between messages (or inside a request line it began with), which the parser's
 * message-begin and -complete callbacks tell. False when the parser is not the expected shape:
 * then nothing is rewritten (raw UTF-8 stays a 400) and deadlines count from the connection.
 */
export function watchRequestLines(socket: Socket, onBytes: () => void): boolean {
  const parser = (socket as Socket & { parser?: ParserLike }).parser;
  if (!parser || typeof parser.execute !== "function") return false;
  const execute = parser.execute;
  const begin = parser[SLOTS.begin];
  const complete = parser[SLOTS.complete];
  if (typeof begin !== "function" || typeof complete !== "function") return false;
  let atRequestLine = true;
  let inMessage = false;
  parser[SLOTS.begin] = function (this: unknown, ...args: unknown[]) {
    inMessage = true;
    return begin.apply(this, args);
  };
  parser[SLOTS.complete] = function (this: unknown, ...args: unknown[]) {
    inMessage = false;
    return complete.apply(this, args);
  };
  parser.execute = function (this: unknown, data: Buffer) {
    onBytes();
    let lineOpen = false;
    if (atRequestLine) {
      const encoded = encodeRequestLine(data);
      data = encoded.data;
      lineOpen = encoded.lineOpen;
    }
    const result = execute.call(this, data);
    atRequestLine = lineOpen || !inMessage;
    return result;
  };
  return true;
}
