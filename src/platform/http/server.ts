import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import type { Metrics } from "../metrics.ts";
import type { RequestLine } from "./accounting.ts";
import { answerBrokenRequest, CLIENT_CLOSED } from "./broken-requests.ts";
import { ConnectionGuard, type ConnectionLimits, DEFAULT_LIMITS } from "./connection-guard.ts";
import { drainConnections } from "./drain.ts";
import { FrontEndMeta, nextRequestId, requestIdOf } from "./front-end-meta.ts";
import { PROBLEM_CONTENT_TYPE, Problem, problems } from "./problem.ts";
import { attachMeta } from "./request-meta.ts";
import { startSocketFrontEnd } from "./socket-front-end.ts";
import { HSTS, TLS_CIPHERS } from "./tls.ts";
import { writeResponse } from "./write-response.ts";

/**
 * The HTTP(S) front end. It is node:http rather than Bun.serve because the interface's own
 * check-tickets example is a GET with a JSON body, which Bun.serve drops. It enforces the body
 * limit itself so that an oversized body gets a problem+json 413, not a bare reset.
 *
 * Bun's node:http enforces no header or body deadline and has no per-address view: the
 * ConnectionGuard adds both from the connection and request events. Its native parser refuses raw
 * UTF-8 in the request target; --lenient-request-target hands sockets from a listener of ours to
 * node:http's JS parser instead, which accepts it once percent-encoded but costs about 12-20 µs
 * of CPU per request (docs/network.md).
 */
export interface FrontEndOptions {
  host: string;
  port: number;
  tls?: { cert: string; key: string };
  bodyLimit: number;
  /** Default: DEFAULT_LIMITS (serve's own defaults). */
  limits?: ConnectionLimits;
  /** Accept raw UTF-8 in the request target, at the cost of node:http's slower JS parser. */
  lenientRequestTarget?: boolean;
  metrics?: Pick<Metrics, "connectionRefused" | "connectionTimedOut">;
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

const EMPTY = Buffer.alloc(0);

// The peer address, asked of a socket once however many requests a kept-alive connection carries.
const PEER = Symbol("parkd.peer");
type WithPeer = Socket & { [PEER]?: string };
function peerOf(socket: WithPeer): string {
  socket[PEER] ??= socket.remoteAddress ?? "unknown";
  return socket[PEER];
}

type BodyRead = Buffer | "too-large" | "gone" | "timeout";

/** The body, or why there is none: over the limit, the client left, or it did not arrive in time. */
function readBody(req: IncomingMessage, limit: number, guard: ConnectionGuard): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onGone);
      req.off("aborted", onGone);
      req.off("close", onGone);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        settle("too-large");
      } else chunks.push(chunk);
    };
    const onEnd = () => settle(Buffer.concat(chunks));
    const onGone = () => settle("gone");
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onGone);
    req.on("aborted", onGone);
    req.on("close", onGone);
    guard.bodyStarted(req.socket, () => settle("timeout"));
  });
}

/**
 * Plain HTTP is served by the socket front end (socket-front-end.ts); HTTPS and
 * --lenient-request-target by node:http, below.
 */
export function startFrontEnd(opts: FrontEndOptions): Promise<FrontEnd> {
  if (opts.tls === undefined && opts.lenientRequestTarget !== true) return startSocketFrontEnd(opts);
  return startNodeFrontEnd(opts);
}

function startNodeFrontEnd(opts: FrontEndOptions): Promise<FrontEnd> {
  const tls = opts.tls !== undefined;
  const scheme = tls ? "https" : "http";
  const origin = `${scheme}://localhost`;
  let draining = false;
  const account = (
    route: string,
    status: number,
    started: number,
    client: string,
    method = "-",
    meta?: FrontEndMeta,
  ) =>
    opts.account({
      method,
      route,
      status,
      ms: Math.round((performance.now() - started) * 100) / 100,
      client,
      credential: meta?.credential,
      requestId: meta?.id ?? nextRequestId(),
    });
  const guard = new ConnectionGuard(
    opts.limits ?? DEFAULT_LIMITS,
    {
      refused: (reason) => opts.metrics?.connectionRefused(reason),
      timedOut: (phase, client) => {
        opts.metrics?.connectionTimedOut(phase);
        // A body that timed out is answered and accounted by its request below.
        if (phase === "headers") account("(request timeout)", 408, performance.now(), client);
      },
    },
    tls ? `strict-transport-security: ${HSTS}\r\n` : "",
    tls,
  );

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const method = req.method ?? "GET";
    const headers = req.headers;
    const socket = req.socket;
    const meta = new FrontEndMeta(requestIdOf(headers["x-request-id"]), () => peerOf(socket), started);
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
          : await readBody(req, opts.bodyLimit, guard);
      guard.requestRead(socket);
      if (body === "gone") {
        // Not an error of ours: counted as what it is, never as a 5xx.
        meta.route = "(client closed)";
        status = CLIENT_CLOSED;
        socket.destroy();
        return;
      }
      if (typeof body === "string") {
        const tooLarge = body === "too-large";
        meta.route = tooLarge ? "(body limit)" : "(request timeout)";
        const problem = tooLarge
          ? problems.payloadTooLarge(opts.bodyLimit)
          : new Problem(408, "request-timeout", "Request timeout", "The request body did not arrive in time");
        const response = problem.toResponse(new URL(url).pathname);
        status = response.status;
        // The rest of the body is not read: close the connection once the answer is out.
        socket.pause();
        guard.forget(socket);
        await writeResponse(res, response, meta.id, true, tls);
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
      await writeResponse(res, response, meta.id, draining, tls);
    } catch {
      // A client that left while its answer was being written is not a failure of ours.
      status = socket.destroyed ? CLIENT_CLOSED : 500;
      try {
        if (socket.destroyed || res.headersSent) res.destroy();
        else {
          res.writeHead(500, { "content-type": PROBLEM_CONTENT_TYPE });
          res.end(JSON.stringify(problems.internal().body()));
        }
      } catch {
        res.destroy();
      }
    } finally {
      // The connection may idle once the answer is out; a listener only when it is still going
      // out (a large answer to a slow reader), since one per request costs more than the check.
      if (res.writableFinished) guard.responseDone(socket);
      else res.once("finish", () => guard.responseDone(socket));
      if (!toApp) account(meta.route ?? "(unmatched)", status, started, meta.ip, method, meta);
    }
  };

  const hsts = tls ? `strict-transport-security: ${HSTS}\r\n` : "";
  const tlsOptions = opts.tls && {
    cert: opts.tls.cert,
    key: opts.tls.key,
    minVersion: "TLSv1.2" as const,
    ciphers: TLS_CIPHERS,
    honorCipherOrder: true,
  };
  const lenient = opts.lenientRequestTarget === true;
  const http: HttpServer =
    tlsOptions && !lenient
      ? (createHttpsServer(tlsOptions, onRequest) as unknown as HttpServer)
      : createHttpServer(onRequest);
  http.keepAliveTimeout = 5_000;
  http.on("clientError", (err: Error & { code?: string }, socket: Socket) =>
    answerBrokenRequest(err, socket, guard.tracks(socket), hsts, (route, status) =>
      account(route, status, performance.now(), socket.remoteAddress ?? "unknown"),
    ),
  );
  // Bun's own node:http listener by default (its native parser is the fast path). With
  // --lenient-request-target a listener of ours hands sockets to node:http's JS parser, which the
  // guard can watch and percent-encode raw UTF-8 in the request line for.
  let listener: NetServer | HttpServer = http;
  if (lenient) {
    const handOff = (socket: Socket) => {
      http.emit("connection", socket);
      guard.watchParser(socket);
    };
    listener = tlsOptions ? createTlsServer(tlsOptions).on("secureConnection", handOff) : createNetServer();
    listener.on("connection", (socket: Socket) => {
      if (guard.admit(socket) && !tls) handOff(socket);
    });
  } else
    http.on("connection", (socket: Socket) => {
      guard.admit(socket);
    });

  return new Promise((resolve, reject) => {
    listener.once("error", reject);
    listener.listen({ port: opts.port, host: opts.host, exclusive: true }, () => {
      listener.off("error", reject);
      const address = listener.address();
      const port = typeof address === "object" && address ? address.port : opts.port;
      const shownHost = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
      resolve({
        url: `${scheme}://${shownHost}:${port}`,
        port,
        close(graceMs = 10_000) {
          draining = true;
          listener.close();
          return drainConnections(guard, graceMs);
        },
      });
    });
  });
}
