import type { ServerResponse } from "node:http";
import { HSTS } from "./tls.ts";

/** The app's Response onto node:http's ServerResponse, with the request id (and HSTS over TLS). */
export async function writeResponse(
  res: ServerResponse,
  response: Response,
  requestId: string,
  closeAfter: boolean,
  tls: boolean,
): Promise<void> {
  const headers: Record<string, string | string[]> = { "x-request-id": requestId };
  if (tls) headers["strict-transport-security"] = HSTS;
  response.headers.forEach((value, key) => {
    const prev = headers[key];
    if (prev === undefined) headers[key] = value;
    else headers[key] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  });
  if (closeAfter) headers.connection = "close";
  if (response.body && String(headers["content-type"] ?? "").startsWith("text/event-stream")) {
    if (res.req?.method !== "HEAD") return streamResponse(res, response.status, headers, response.body);
    // HEAD on a stream: the headers, and the stream (which never ends by itself) let go.
    void response.body.cancel().catch(() => {});
    res.writeHead(response.status, { ...headers, connection: "close" });
    res.end();
    return;
  }
  const body = response.body === null ? undefined : await response.bytes();
  if (body && headers["content-length"] === undefined) headers["content-length"] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}

/** An event stream goes out as it is written; the client going away cancels it. */
async function streamResponse(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | string[]>,
  body: ReadableStream<Uint8Array>,
): Promise<void> {
  // The connection ends with the stream: nothing reuses it, and shutdown need not wait for it idle.
  res.writeHead(status, { ...headers, connection: "close" });
  res.flushHeaders();
  const reader = body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  for (;;) {
    const next = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (next.done || res.destroyed) break;
    res.write(next.value);
  }
  res.end();
}
