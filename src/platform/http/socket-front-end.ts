import type { TCPSocketListener } from "bun";
import { BROKEN_REQUEST, CLIENT_CLOSED } from "./broken-requests.ts";
import { ConnectionGuard, DEFAULT_LIMITS } from "./connection-guard.ts";
import { drainConnections } from "./drain.ts";
import { FrontEndMeta, requestIdOf } from "./front-end-meta.ts";
import { blankLines, ChunkedBody, readHead } from "./http1.ts";
import { Problem, problems } from "./problem.ts";
import { attachMeta } from "./request-meta.ts";
import type { FrontEnd, FrontEndOptions } from "./server.ts";
import { answer, EMPTY, rawProblem } from "./socket-answer.ts";
import { Connection } from "./socket-connection.ts";

/**
 * The plain-HTTP front end on Bun's own TCP sockets (Bun.listen), reading HTTP/1.1 itself
 * (http1.ts). Bun.serve would be faster still but drops the body of a GET, which the interface's
 * own check-tickets example sends; node:http delivers it but its compatibility layer (request
 * and response objects, streams, events) cost about half of a plate lookup's time. HTTPS and
 * --lenient-request-target stay on node:http (server.ts). The same ConnectionGuard bounds
 * connections and deadlines, and every answer the app does not give is problem+json.
 */

/** Input held while a request is with the app (pipelined requests); past it reading pauses. */
const MAX_BUFFERED = 256 * 1024;
/** node:http's keep-alive timeout, which this front end's answers announce. */
const KEEP_ALIVE_MS = 5_000;
const CONTINUE = Buffer.from("HTTP/1.1 100 Continue\r\n\r\n", "latin1");

/** The path and query of a request target in any of its forms, for a URL on our own origin. */
function pathOf(target: string): string | null {
  if (target.startsWith("/")) return target;
  if (target === "*") return "/*";
  const scheme = /^https?:\/\/[^/?#]*/i.exec(target);
  if (!scheme) return null;
  const rest = target.slice(scheme[0].length);
  return rest.startsWith("/") ? rest : `/${rest}`;
}

export function startSocketFrontEnd(opts: FrontEndOptions): Promise<FrontEnd> {
  const origin = "http://localhost";
  const limits = opts.limits ?? DEFAULT_LIMITS;
  let draining = false;
  const account = (route: string, status: number, started: number, c: Connection, meta?: FrontEndMeta) =>
    opts.account({
      method: c.head?.method ?? "-",
      route,
      status,
      ms: Math.round((performance.now() - started) * 100) / 100,
      client: meta?.ip ?? c.remoteAddress ?? "unknown",
      credential: meta?.credential,
      requestId: meta?.id ?? requestIdOf(undefined),
    });
  const guard = new ConnectionGuard(
    { ...limits, idleTimeoutMs: limits.idleTimeoutMs ?? KEEP_ALIVE_MS },
    {
      refused: (reason) => opts.metrics?.connectionRefused(reason),
      timedOut: (phase, client) => {
        opts.metrics?.connectionTimedOut(phase);
        // A body that timed out is answered and accounted by its connection below.
        if (phase === "headers")
          opts.account({
            method: "-",
            route: "(request timeout)",
            status: 408,
            ms: 0,
            client,
            requestId: requestIdOf(undefined),
          });
      },
    },
  );

  /** An answer the front end gives itself; the connection closes after it. */
  const refuse = (c: Connection, problem: Problem, route: string, started: number) => {
    const path = c.head ? pathOf(c.head.target)?.split("?")[0] : undefined;
    // Whatever else the client sends is not read: the connection closes once the answer is out.
    c.pause();
    guard.forget(c);
    c.end(rawProblem(problem, c.meta?.id ?? requestIdOf(undefined), path));
    account(route, problem.status, started, c, c.meta ?? undefined);
  };

  const pump = (c: Connection) => {
    while (!c.closed && c.phase !== "busy" && c.input !== null && c.input.length > 0) {
      if (c.phase === "head") {
        guard.requestStarted(c);
        const blank = blankLines(c.input);
        if (blank > 0) {
          c.input = blank === c.input.length ? null : c.input.subarray(blank);
          continue;
        }
        const read = readHead(c.input);
        if (read === "incomplete") return;
        const started = performance.now();
        if ("error" in read) {
          refuse(c, BROKEN_REQUEST[read.error](), "(malformed request)", started);
          return;
        }
        c.input = c.input.length === read.length ? null : c.input.subarray(read.length);
        c.head = read;
        const header = (name: string) => read.headers.find(([n]) => n === name)?.[1];
        c.meta = new FrontEndMeta(
          requestIdOf(header("x-request-id")),
          () => c.remoteAddress ?? "unknown",
          started,
        );
        const declared = read.contentLength ?? 0;
        if (declared > opts.bodyLimit) {
          refuse(c, problems.payloadTooLarge(opts.bodyLimit), "(body limit)", started);
          return;
        }
        c.body = [];
        c.bodySize = 0;
        c.chunked = read.chunked ? new ChunkedBody() : null;
        if (declared === 0 && !read.chunked) {
          void dispatch(c, EMPTY);
          continue;
        }
        if (read.expectContinue) c.write(CONTINUE);
        c.phase = "body";
        guard.bodyStarted(c, () =>
          refuse(
            c,
            new Problem(408, "request-timeout", "Request timeout", "The request body did not arrive in time"),
            "(request timeout)",
            started,
          ),
        );
        continue;
      }
      // The body.
      const input: Buffer = c.input;
      let used: number;
      if (c.chunked) {
        try {
          used = c.chunked.feed(input, 0);
        } catch {
          refuse(c, BROKEN_REQUEST.malformed(), "(malformed request)", c.meta!.startedAt!);
          return;
        }
        c.bodySize = c.chunked.size;
      } else {
        used = Math.min(input.length, c.head!.contentLength! - c.bodySize);
        c.body.push(input.subarray(0, used));
        c.bodySize += used;
      }
      c.input = used === input.length ? null : input.subarray(used);
      if (c.bodySize > opts.bodyLimit) {
        refuse(c, problems.payloadTooLarge(opts.bodyLimit), "(body limit)", c.meta!.startedAt!);
        return;
      }
      const complete = c.chunked ? c.chunked.done : c.bodySize === c.head!.contentLength;
      if (complete) void dispatch(c, Buffer.concat(c.chunked ? c.chunked.parts : c.body));
    }
  };

  const dispatch = async (c: Connection, body: Uint8Array<ArrayBuffer>) => {
    const head = c.head!;
    const meta = c.meta!;
    c.phase = "busy";
    c.body = [];
    c.chunked = null;
    guard.requestRead(c);
    const path = pathOf(head.target);
    let keepAlive = head.keepAlive;
    try {
      if (path === null) {
        keepAlive = false;
        refuse(c, BROKEN_REQUEST.malformed(), "(malformed request)", meta.startedAt!);
        return;
      }
      const request = new Request(`${origin}${path}`, {
        method: head.method,
        headers: head.headers,
        body: body.length > 0 ? body : undefined,
      });
      attachMeta(request, meta);
      const response = await opts.handle(request);
      keepAlive = keepAlive && !draining;
      await answer(c, head.method, response, meta.id, keepAlive, head.http10);
    } catch {
      keepAlive = false;
      if (!c.closed) c.write(rawProblem(problems.internal(), meta.id));
    }
    if (c.closed) return;
    if (!keepAlive) {
      c.end("", () => {});
      return;
    }
    // The next request (pipelined, or already arriving) is read once this answer is out.
    c.whenFlushed(() => {
      guard.responseDone(c);
      c.phase = "head";
      c.head = null;
      c.meta = null;
      c.resume();
      pump(c);
    });
  };

  const listener: TCPSocketListener<Connection> = Bun.listen<Connection>({
    hostname: opts.host,
    port: opts.port,
    exclusive: true,
    socket: {
      open(socket) {
        const c = new Connection(socket);
        socket.data = c;
        socket.setNoDelay(true);
        guard.admit(c);
      },
      data(socket, data) {
        const c = socket.data;
        // Closed, or closing after an answer of the front end's own (refused, timed out).
        if (!c.writable) return;
        c.input = c.input === null || c.input.length === 0 ? data : Buffer.concat([c.input, data]);
        if (c.phase === "busy") {
          if (c.input.length > MAX_BUFFERED) c.pause();
          return;
        }
        pump(c);
      },
      drain(socket) {
        socket.data.drain();
      },
      close(socket) {
        const c = socket.data;
        if (!c || c.closed) return;
        // A client that left in the middle of sending its request is not a failure of ours.
        const midRequest =
          c.phase === "body" || (c.phase === "head" && c.input !== null && c.input.length > 0);
        const tracked = guard.tracks(c);
        c.onClosed();
        if (midRequest && tracked)
          account(
            "(client closed)",
            CLIENT_CLOSED,
            c.meta?.startedAt ?? performance.now(),
            c,
            c.meta ?? undefined,
          );
      },
      error(socket) {
        socket.data?.onClosed();
      },
    },
  });
  return startedFrontEnd(listener, guard, () => {
    draining = true;
  });
}

function startedFrontEnd(
  listener: TCPSocketListener<Connection>,
  guard: ConnectionGuard,
  drain: () => void,
): Promise<FrontEnd> {
  const host = listener.hostname.includes(":") ? `[${listener.hostname}]` : listener.hostname;
  return Promise.resolve({
    url: `http://${host}:${listener.port}`,
    port: listener.port,
    close(graceMs = 10_000) {
      drain();
      listener.stop(false);
      return drainConnections(guard, graceMs);
    },
  });
}
