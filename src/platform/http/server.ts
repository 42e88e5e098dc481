import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { Socket } from "node:net";
import type { RequestLine } from "./accounting.ts";
import { PROBLEM_CONTENT_TYPE, Problem, problems } from "./problem.ts";
import { attachMeta, type RequestMeta } from "./request-meta.ts";

/**
 * The HTTP(S) front end. It is node:http rather than Bun.serve because the interface's own
 * check-tickets example is a GET with a JSON body, which Bun.serve drops. It also enforces
 * the body limit itself so that an oversized body gets a problem+json 413, not a bare reset.
 */
export interface FrontEndOptions {
  host: string;
  port: number;
  tls?: { cert: string; key: string };
  bodyLimit: number;
  /** The app; it accounts (logs and counts) every request it answers. */
  handle: (request: Request) => Response | Promise<Response>;
  /** Accounts a request the front end answers itself, without the app (see RequestAccounting). */
  account: (entry: RequestLine) => void;
}

export interface FrontEnd {
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to graceMs), then closes. */
  close(graceMs?: number): Promise<void>;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const EMPTY = Buffer.alloc(0);

// Unique per process run and cheap: a random prefix fixed at start and a counter.
const ID_PREFIX = Buffer.from(crypto.getRandomValues(new Uint8Array(4))).toString("hex");
let requestCounter = 0;
function nextRequestId(): string {
  return `${ID_PREFIX}-${(++requestCounter).toString(36)}`;
}

// The peer address, asked of a socket once however many requests a kept-alive connection carries.
const PEER = Symbol("parkd.peer");
type WithPeer = Socket & { [PEER]?: string };

/** The peer address is asked of the socket only when something needs it (auth, the log line). */
class FrontEndMeta implements RequestMeta {
  route?: string;
  credential?: string;
  #ip: string | undefined;
  constructor(
    public id: string,
    private readonly socket: Socket,
    public startedAt: number,
  ) {}
  get ip(): string {
    if (this.#ip === undefined) {
      const socket = this.socket as WithPeer;
      socket[PEER] ??= socket.remoteAddress ?? "unknown";
      this.#ip = socket[PEER];
    }
    return this.#ip;
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | "too-large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        resolve("too-large");
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
    req.on("error", reject);
  });
}

async function writeResponse(
  res: ServerResponse,
  response: Response,
  requestId: string,
  closeAfter = false,
): Promise<void> {
  // One flat name/value list, as node:http takes it: no object per response, and a header the
  // app repeats (set-cookie) stays repeated.
  const headers: string[] = ["x-request-id", requestId];
  let hasLength = false;
  response.headers.forEach((value, key) => {
    headers.push(key, value);
    if (key === "content-length") hasLength = true;
  });
  if (closeAfter) headers.push("connection", "close");
  const body = response.body === null ? undefined : await response.bytes();
  if (body && !hasLength) headers.push("content-length", String(body.length));
  res.writeHead(response.status, headers);
  res.end(body);
}

export function startFrontEnd(opts: FrontEndOptions): Promise<FrontEnd> {
  const scheme = opts.tls ? "https" : "http";
  const origin = `${scheme}://localhost`;

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const method = req.method ?? "GET";
    const headers = req.headers;
    const incomingId = headers["x-request-id"];
    const meta = new FrontEndMeta(
      typeof incomingId === "string" && SAFE_REQUEST_ID.test(incomingId) ? incomingId : nextRequestId(),
      req.socket,
      started,
    );
    let status = 500;
    // Once the app has the request it accounts for it (accountRequests); what is answered here
    // without the app is accounted here.
    let toApp = false;
    try {
      // A fixed origin: nothing answers with the Host header, and Elysia finds the path by
      // position in the URL, which a very short Host header (`Host: x`) would throw off.
      const target = req.url ?? "/";
      const url = `${origin}${target.startsWith("/") ? target : `/${target}`}`;
      const length = headers["content-length"];
      const declared = length === undefined ? 0 : Number(length);
      const hasBody = declared > 0 || headers["transfer-encoding"] !== undefined;
      const body = !hasBody
        ? EMPTY
        : declared > opts.bodyLimit
          ? "too-large"
          : await readBody(req, opts.bodyLimit);
      if (body === "too-large") {
        meta.route = "(body limit)";
        const response = problems.payloadTooLarge(opts.bodyLimit).toResponse(new URL(url).pathname);
        status = response.status;
        // The rest of the body is not read: close the connection once the answer is out.
        await writeResponse(res, response, meta.id, true);
        res.on("finish", () => req.destroy());
        return;
      }
      const request = new Request(url, {
        method,
        headers: headers as Record<string, string>,
        body: body.length > 0 ? new Uint8Array(body) : undefined,
      });
      attachMeta(request, meta);
      toApp = true;
      const response = await opts.handle(request);
      await writeResponse(res, response, meta.id);
    } catch {
      status = 500;
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": PROBLEM_CONTENT_TYPE });
        res.end(JSON.stringify(problems.internal().body()));
      } else res.destroy();
    } finally {
      if (!toApp)
        opts.account({
          method,
          route: meta.route ?? "(unmatched)",
          status,
          ms: Math.round((performance.now() - started) * 100) / 100,
          client: meta.ip,
          credential: meta.credential,
          requestId: meta.id,
        });
    }
  };

  const server: Server = opts.tls
    ? (createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, onRequest) as unknown as Server)
    : createHttpServer(onRequest);
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  // Requests too broken to reach the app (bad request line, header syntax, oversized headers,
  // bad chunking) still get a problem+json answer, and the connection is closed.
  server.on("clientError", (err: Error & { code?: string }, socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
    const problem = tooLarge
      ? new Problem(
          431,
          "header-too-large",
          "Request header fields too large",
          "The request headers are too large",
        )
      : new Problem(400, "malformed-request", "Malformed HTTP request", "The request is not valid HTTP/1.1");
    const body = JSON.stringify(problem.body());
    socket.end(
      `HTTP/1.1 ${problem.status} ${tooLarge ? "Request Header Fields Too Large" : "Bad Request"}\r\n` +
        `content-type: ${PROBLEM_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
    const entry = {
      method: "-",
      route: "(malformed request)",
      status: problem.status,
      ms: 0,
      client: (socket as Socket).remoteAddress ?? "unknown",
      requestId: nextRequestId(),
    };
    opts.account(entry);
  });

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: opts.port, host: opts.host, exclusive: true }, () => {
      server.off("error", reject);
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : opts.port;
      const shownHost = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
      resolve({
        url: `${scheme}://${shownHost}:${port}`,
        port,
        close(graceMs = 10_000) {
          return new Promise<void>((done) => {
            const force = setTimeout(() => server.closeAllConnections?.(), graceMs);
            server.close(() => {
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections?.();
          });
        },
      });
    });
  });
}
