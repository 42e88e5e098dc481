import type { SocketHandler } from "bun";
import { logError } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import type { RequestLine } from "./accounting.ts";
import { brokenRequest, CLIENT_CLOSED, FRONT_END_PROBLEMS } from "./broken-requests.ts";
import { ConnectionGuard, type ConnectionLimits, DEFAULT_LIMITS, SLOW_READER } from "./connection-guard.ts";
import type { Answered, DirectAnswer, DirectRoutes } from "./direct.ts";
import { drainConnections } from "./drain.ts";
import { BodyBytes, blankLines, ChunkedBody, headerOf, readHead } from "./http1.ts";
import { OUTPUT_BUDGET_BYTES, OutputBudget } from "./output-budget.ts";
import { type Problem, problems } from "./problem.ts";
import { attachMeta, FrontEndMeta, requestIdOf } from "./request-meta.ts";
import { answer, answerDirect, EMPTY, rawProblem } from "./socket-answer.ts";
import { Connection } from "./socket-connection.ts";
import { assertServable, HSTS, type ServedCertificate, tlsListenOptions } from "./tls.ts";

/**
 * The one front end, for plain HTTP and HTTPS alike: Bun's own sockets (Bun.listen, with TLS
 * when a certificate is given) and an HTTP/1.1 reader of ours (http1.ts). Bun.serve would be
 * faster still but drops the body of a GET, which the interface's own check-tickets example
 * sends. The ConnectionGuard bounds connections, deadlines and answers a client does not read,
 * and every answer the app does not give is problem+json.
 */
export interface FrontEndOptions {
  host: string;
  port: number;
  tls?: ServedCertificate;
  bodyLimit: number;
  /** A larger limit for some routes (photos), by method and path; default: bodyLimit everywhere. */
  bodyLimitOf?: (method: string, path: string) => number;
  /** Default: DEFAULT_LIMITS (serve's own defaults). */
  limits?: ConnectionLimits;
  /** Output held in memory for all connections at once (default OUTPUT_BUDGET_BYTES). */
  outputBudget?: number;
  /** Host names (lower case, no port) this box answers for; others get 421. Empty or absent: any. */
  allowedHosts?: readonly string[];
  metrics?: Pick<Metrics, "connectionRefused" | "connectionTimedOut">;
  /** Routes answered without the app when the request is plain (direct.ts); the app answers the rest. */
  direct?: DirectRoutes;
  /** The app; it accounts (logs and counts) every request it answers. */
  handle: (request: Request) => Response | Promise<Response>;
  /** Accounts a request the front end answers itself, without the app (see RequestAccounting). */
  account: (entry: RequestLine) => void;
}

export interface FrontEnd {
  url: string;
  port: number;
  /**
   * Serves a new certificate to connections from now on; open ones keep theirs. Throws (and
   * keeps serving the old one) when the new one cannot be served.
   */
  reloadTls(certificate: ServedCertificate): void;
  /** Stops accepting, lets in-flight requests finish (up to graceMs), then closes. */
  close(graceMs?: number): Promise<void>;
}

/** Input held while a request is with the app (pipelined requests); past it reading pauses. */
const MAX_BUFFERED = 256 * 1024;
/** How long an idle keep-alive connection is kept, as the answers announce. */
const KEEP_ALIVE_MS = 5_000;
const CONTINUE = Buffer.from("HTTP/1.1 100 Continue\r\n\r\n", "latin1");

export function startFrontEnd(opts: FrontEndOptions): Promise<FrontEnd> {
  const tls = opts.tls !== undefined;
  const origin = tls ? "https://localhost" : "http://localhost";
  const extraHead = tls ? `strict-transport-security: ${HSTS}\r\n` : "";
  const allowedHosts = opts.allowedHosts?.length ? new Set(opts.allowedHosts) : null;
  const limits = opts.limits ?? DEFAULT_LIMITS;
  let draining = false;
  const account = (route: string, status: number, started: number, c: Connection, meta?: FrontEndMeta) => {
    const line: RequestLine = {
      method: c.head?.method ?? "-",
      route,
      status,
      ms: Math.round((performance.now() - started) * 100) / 100,
      client: meta?.ip ?? c.remoteAddress ?? "unknown",
      credential: meta?.credential,
      requestId: meta?.id ?? requestIdOf(undefined),
    };
    if (meta?.reason !== undefined) line.reason = meta.reason;
    opts.account(line);
  };
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
    tls,
  );
  const budget = new OutputBudget(opts.outputBudget ?? OUTPUT_BUDGET_BYTES, (holder) => {
    opts.metrics?.connectionTimedOut("send");
    holder.destroy(SLOW_READER);
  });
  const hooks = {
    outputWaiting: (c: Connection, waiting: boolean) => guard.outputWaiting(c, waiting),
    closing: (c: Connection) => guard.closing(c),
    held: (c: Connection, delta: number) => budget.change(c, delta),
  };

  /** An answer the front end gives itself; the connection closes after it. */
  const refuse = (c: Connection, problem: Problem, route: string, started: number) => {
    // Whatever else the client sends is not read: the connection closes once the answer is out.
    c.pause();
    guard.closing(c);
    c.endWithProblem(problem, c.meta?.id, c.head?.path.split("?")[0]);
    account(route, problem.status, started, c, c.meta ?? undefined);
  };

  const pump = (c: Connection) => {
    while (!c.closed && c.phase !== "busy" && c.input.length > 0) {
      if (c.phase === "head") {
        guard.requestStarted(c);
        const input = c.input.view();
        const blank = blankLines(input);
        if (blank > 0) {
          c.input.consume(blank);
          c.headScanned = 0;
          continue;
        }
        const read = readHead(input, undefined, c.headScanned);
        if (read === "incomplete") {
          c.headScanned = c.input.length;
          return;
        }
        c.headScanned = 0;
        const started = performance.now();
        if ("error" in read) {
          const route = read.error === "expectation-failed" ? "(expectation failed)" : "(malformed request)";
          refuse(c, brokenRequest(read.error, read.why), route, started);
          return;
        }
        c.input.consume(read.length);
        c.head = read;
        c.meta = new FrontEndMeta(
          requestIdOf(headerOf(read, "x-request-id")),
          () => c.remoteAddress ?? "unknown",
          started,
        );
        if (allowedHosts !== null && read.host !== null && !allowedHosts.has(read.host)) {
          refuse(c, FRONT_END_PROBLEMS.misdirected(read.host), "(misdirected request)", started);
          return;
        }
        const declared = read.contentLength ?? 0;
        if (declared === 0 && !read.chunked) {
          if (!answeredDirectly(c, null)) void dispatch(c, EMPTY);
          continue;
        }
        const bodyLimit = opts.bodyLimitOf?.(read.method, read.path.split("?")[0]!) ?? opts.bodyLimit;
        if (declared > bodyLimit) {
          refuse(c, problems.payloadTooLarge(bodyLimit), "(body limit)", started);
          return;
        }
        c.body = read.chunked ? new ChunkedBody(bodyLimit) : new BodyBytes(bodyLimit, declared);
        if (read.expectContinue) c.write(CONTINUE);
        c.phase = "body";
        guard.bodyStarted(c, () =>
          refuse(
            c,
            FRONT_END_PROBLEMS.requestTimeout("The request body did not arrive in time"),
            "(request timeout)",
            started,
          ),
        );
        continue;
      }
      // The body, into one buffer of its own: the input it arrived in is not held.
      const input = c.input.view();
      const body = c.body!;
      const started = c.meta!.startedAt!;
      let used: number;
      let complete: boolean;
      if (body instanceof ChunkedBody) {
        try {
          used = body.feed(input, 0);
        } catch (e) {
          if (e === "too-large") refuse(c, problems.payloadTooLarge(body.limit), "(body limit)", started);
          else refuse(c, brokenRequest("malformed", "bad chunked framing"), "(malformed request)", started);
          return;
        }
        complete = body.done;
      } else {
        used = Math.min(input.length, c.head!.contentLength! - body.size);
        body.append(input, 0, used);
        complete = body.size === c.head!.contentLength;
      }
      c.input.consume(used);
      if (complete) {
        const bytes = (body instanceof ChunkedBody ? body.body : body).bytes();
        if (!answeredDirectly(c, bytes)) void dispatch(c, bytes);
      }
    }
  };

  /**
   * A direct route's answer, written inside the data callback (with the socket's own writes) and
   * accounted as the app accounts its own; false when no direct route takes the request.
   */
  const answeredDirectly = (c: Connection, body: Uint8Array | null): boolean => {
    if (!opts.direct) return false;
    const head = c.head!;
    const meta = c.meta!;
    let found: Answered | undefined;
    try {
      found = opts.direct(head, meta, body);
    } catch (e) {
      // The direct routes decline what fails (direct.ts); a fault of their own is left to the app
      // too, which answers the request as it would without them.
      logError("a direct route failed", e, { route: meta.route, requestId: meta.id });
      return false;
    }
    if (!found) return false;
    c.phase = "busy";
    c.body = null;
    guard.requestRead(c);
    const { route, answer } = found;
    if (!(answer instanceof Promise)) {
      // Answered in the data callback: the next pipelined request is read by the pump that called.
      if (writeDirect(c, route, answer)) next(c);
    } else
      void answer.then((a) => {
        if (!writeDirect(c, route, a)) return;
        next(c);
        pump(c);
      });
    return true;
  };

  /**
   * Writes a direct answer and accounts it as the app accounts its own. True when the connection
   * may read its next request now (the answer is out); else that happens once it is.
   */
  const writeDirect = (c: Connection, route: string, answer: DirectAnswer): boolean => {
    const head = c.head!;
    const meta = c.meta!;
    const keepAlive = head.keepAlive && !draining;
    if (!c.closed) answerDirect(c, answer, meta.id, keepAlive, headerOf(head, "accept-encoding"));
    account(route, answer.status ?? 200, meta.startedAt, c, meta);
    if (c.closed) return false;
    if (!keepAlive) {
      c.end("");
      return false;
    }
    if (c.flushed) return true;
    c.whenFlushed(() => {
      next(c);
      pump(c);
    });
    return false;
  };

  /** The answer is out: the connection reads its next request. */
  const next = (c: Connection) => {
    guard.responseDone(c);
    c.phase = "head";
    c.head = null;
    c.meta = null;
    c.resume();
  };

  const dispatch = async (c: Connection, body: Uint8Array<ArrayBuffer>) => {
    const head = c.head!;
    const meta = c.meta!;
    c.phase = "busy";
    c.body = null;
    guard.requestRead(c);
    let keepAlive = head.keepAlive;
    try {
      // HEAD is asked of the app as GET, and answer() leaves the body out: Elysia's own HEAD runs
      // the GET handler and reads the whole body for its length, which never ends for an event stream.
      const request = new Request(`${origin}${head.path}`, {
        method: head.method === "HEAD" ? "GET" : head.method,
        headers: headerRecord(head.headers),
        body: body.length > 0 ? body : undefined,
      });
      attachMeta(request, meta);
      const response = await opts.handle(request);
      keepAlive = keepAlive && !draining;
      await answer(
        c,
        head.method,
        response,
        meta.id,
        keepAlive,
        head.http10,
        headerOf(head, "accept-encoding"),
      );
    } catch {
      keepAlive = false;
      if (!c.closed) c.write(rawProblem(problems.internal(), meta.id, extraHead));
    }
    if (c.closed) return;
    if (!keepAlive) {
      // Closed once the answer is with the kernel (a client that stops reading it first is cut
      // at the send-stall deadline).
      c.end("");
      return;
    }
    // The next request (pipelined, or already arriving) is read only once this answer is out:
    // a client that sends and never reads holds one answer, never a queue of them.
    c.whenFlushed(() => {
      next(c);
      pump(c);
    });
  };

  const connection: SocketHandler<Connection> = {
    open(socket) {
      const c = new Connection(socket, extraHead, tls, hooks);
      socket.data = c;
      socket.setNoDelay(true);
      guard.admit(c);
    },
    data(socket, data) {
      const c = socket.data;
      // Closed, or closing after an answer of the front end's own (refused, timed out).
      if (!c.writable) return;
      c.input.append(data);
      if (c.phase === "busy") {
        if (c.input.length > MAX_BUFFERED) c.pause();
        return;
      }
      pump(c);
    },
    drain(socket) {
      socket.data.drain();
    },
    // Declared so that `open` (and so admission and the header deadline) comes at accept: without
    // a handshake callback Bun calls a TLS socket's open only once its handshake is done, and a
    // client that never finishes one was counted against nothing and never timed out.
    handshake() {},
    close(socket) {
      const c = socket.data;
      if (!c) return;
      if (!c.closed) {
        // A client that left in the middle of sending its request is not a failure of ours.
        const midRequest = c.phase === "body" || (c.phase === "head" && c.input.length > 0);
        if (midRequest && guard.tracks(c))
          account(
            "(client closed)",
            CLIENT_CLOSED,
            c.meta?.startedAt ?? performance.now(),
            c,
            c.meta ?? undefined,
          );
      }
      // Only now is its descriptor given back, and the connection no longer counted.
      c.onGone();
    },
    error(socket) {
      socket.data?.onGone();
    },
  };

  // HTTPS: the listener accepts TCP and each connection is made TLS with the certificate served at
  // that moment, so a reload swaps the certificate without touching the listener (Bun's TLS
  // listener takes its certificate once, and a listener reopened on the port resets connections
  // queued on the old one). Measured on Bun 1.4.4 as the TLS listener: the same handshakes and
  // requests per second of CPU, about 1 KB more per open connection (docs/network.md).
  let served = opts.tls ? tlsListenOptions(opts.tls) : null;
  // A pair that cannot be served is refused at start, as a TLS listener would refuse it.
  if (opts.tls) assertServable(opts.tls);
  const makeTls: SocketHandler<undefined> = {
    open(raw) {
      try {
        raw.upgradeTLS<Connection>({ tls: served!, socket: connection });
      } catch {
        raw.terminate();
      }
    },
    // The ciphertext, which the TLS socket above reads.
    data() {},
  };

  const listener = Bun.listen<Connection | undefined>({
    hostname: opts.host,
    port: opts.port,
    socket: (tls ? makeTls : connection) as SocketHandler<Connection | undefined>,
  });
  const host = listener.hostname.includes(":") ? `[${listener.hostname}]` : listener.hostname;
  return Promise.resolve({
    url: `${tls ? "https" : "http"}://${host}:${listener.port}`,
    port: listener.port,
    reloadTls(certificate) {
      if (!tls) throw new Error("this front end serves plain HTTP");
      // Refused here, with the old certificate still served, rather than at every handshake.
      assertServable(certificate);
      served = tlsListenOptions(certificate);
    },
    close(graceMs = 10_000) {
      draining = true;
      listener.stop(false);
      return drainConnections(guard, graceMs);
    },
  });
}

/**
 * The head's fields as one record, a name sent twice joined with ", " as Headers.append would:
 * the runtime builds a Request from a record in about half the time it takes over the pairs
 * (bench/notes.md). No prototype, so a field named `__proto__` is a field like any other.
 */
function headerRecord(headers: readonly [string, string][]): Record<string, string> {
  const record: Record<string, string> = Object.create(null);
  for (const [name, value] of headers) {
    const had = record[name];
    record[name] = had === undefined ? value : `${had}, ${value}`;
  }
  return record;
}
