import type { Socket } from "node:net";
import { PROBLEM_CONTENT_TYPE, Problem } from "./problem.ts";

/** nginx's code for a request whose client went away before it was read; never sent. */
export const CLIENT_CLOSED = 499;

const REASONS: Record<number, string> = { 400: "Bad Request", 431: "Request Header Fields Too Large" };

/** Bytes above 0x7F in the request line of what the parser refused. */
function rawNonAscii(packet: Buffer | undefined): boolean {
  if (!packet) return false;
  const end = packet.indexOf(10);
  for (let i = 0; i < (end < 0 ? packet.length : end); i++) if (packet[i]! > 0x7f) return true;
  return false;
}

/** The answers to a request too broken to reach the app, by what is wrong with it. */
export const BROKEN_REQUEST = {
  malformed: () =>
    new Problem(400, "malformed-request", "Malformed HTTP request", "The request is not valid HTTP/1.1"),
  "too-large": () =>
    new Problem(
      431,
      "header-too-large",
      "Request header fields too large",
      "The request headers are too large",
    ),
  "not-ascii": () =>
    new Problem(
      400,
      "request-target-not-ascii",
      "Request target not percent-encoded",
      "The request target holds raw non-ASCII bytes; percent-encode them (ÖZB771 is %C3%96ZB771; " +
        "curl -G URL --data-urlencode registration_number=ÖZB771), or start serve with --lenient-request-target",
    ),
} as const;

function problemFor(err: Error & { code?: string; rawPacket?: Buffer }): Problem {
  if (err.code === "HPE_HEADER_OVERFLOW") return BROKEN_REQUEST["too-large"]();
  if (err.code === "HPE_INVALID_URL" && rawNonAscii(err.rawPacket)) return BROKEN_REQUEST["not-ascii"]();
  return BROKEN_REQUEST.malformed();
}

/**
 * node:http's clientError: a request too broken to reach the app (bad request line, header
 * syntax, oversized headers, bad chunking) gets a problem+json answer and the connection is
 * closed. A client that left halfway through its request gets nothing and is counted as
 * client-closed; a connection the front end closed itself (`open` false) is not counted again.
 */
export function answerBrokenRequest(
  err: Error & { code?: string; rawPacket?: Buffer },
  socket: Socket,
  open: boolean,
  extraHeaders: string,
  account: (route: string, status: number) => void,
): void {
  if (err.code === "HPE_INVALID_EOF_STATE" || err.code === "ECONNRESET" || !socket.writable || !open) {
    if (err.code === "HPE_INVALID_EOF_STATE" && open) account("(client closed)", CLIENT_CLOSED);
    socket.destroy();
    return;
  }
  const problem = problemFor(err);
  const body = JSON.stringify(problem.body());
  socket.end(
    `HTTP/1.1 ${problem.status} ${REASONS[problem.status]}\r\ncontent-type: ${PROBLEM_CONTENT_TYPE}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n${extraHeaders}connection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
  account("(malformed request)", problem.status);
}
