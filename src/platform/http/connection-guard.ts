import type { Socket } from "node:net";
import { plainAddress } from "./client-address.ts";
import { watchRequestLines } from "./request-line.ts";

/** What the guard needs of a connection: node:net's Socket, or the socket front end's Connection. */
export interface GuardedSocket {
  readonly remoteAddress?: string;
  readonly writable: boolean;
  once(event: "close", listener: () => void): unknown;
  on(event: "error", listener: () => void): unknown;
  pause(): unknown;
  end(data: string, done: () => void): unknown;
  destroy(): unknown;
}

/** What the front end allows a connection before its request reaches the app. */
export interface ConnectionLimits {
  /** Open connections in all; past it the slowest request in progress is closed for a new one. */
  maxConnections: number;
  /** Open connections from one client address. */
  maxPerAddress: number;
  /** From a request's first byte (or the connection's start) to the end of its headers. */
  headersTimeoutMs: number;
  /** From a request's first byte to the end of its body. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  idleTimeoutMs?: number;
  /** Peers exempt from the per-address limit: trusted reverse proxies carry many clients. */
  exempt?: { trusts(address: string): boolean };
}

/** serve's defaults (README, "Configuration"). */
export const DEFAULT_LIMITS: ConnectionLimits = {
  maxConnections: 1024,
  maxPerAddress: 64,
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 30_000,
};

export type RefusalReason = "per-address" | "total" | "evicted";
export type TimeoutPhase = "headers" | "body";

export interface GuardEvents {
  refused(reason: RefusalReason): void;
  /** A request that did not arrive in time; "headers" ones are answered 408 by the guard itself. */
  timedOut(phase: TimeoutPhase, client: string): void;
}

/**
 * new: connected, nothing received yet; headers: a request is arriving; body: its headers are in
 * and the front end is reading the body; busy: the app has it; idle: between keep-alive requests.
 */
type Phase = "new" | "headers" | "body" | "busy" | "idle";

interface Conn {
  socket: GuardedSocket;
  address: string;
  phase: Phase;
  /** performance.now() at the current request's first byte, or at connect. */
  since: number;
  deadline: number;
  /** Set while the front end reads a body: answers the request 408 itself. */
  onTimeout?: () => void;
  /** Its parser is watched: each request's first byte is known (watchParser). */
  watched: boolean;
  released: boolean;
}

const NO_DEADLINE = Number.POSITIVE_INFINITY;

function rawProblem(status: number, reason: string, kind: string, title: string, detail: string, extra = "") {
  const body = JSON.stringify({ type: `/problems/${kind}`, title, status, detail });
  return (
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/problem+json\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n${extra}\r\n${body}`
  );
}

/**
 * Bounds what a client can hold without sending a request: how many connections (per address
 * and in all), and how long a request may take to arrive (headers, then the whole body). Bun's
 * node:http enforces neither headersTimeout nor requestTimeout while a body trickles in, so the
 * guard keeps its own deadlines and checks them a few times a second.
 */
export class ConnectionGuard {
  private readonly conns = new Map<GuardedSocket, Conn>();
  private readonly perAddress = new Map<string, number>();
  private readonly sweeper: ReturnType<typeof setInterval>;
  private readonly idleMs: number;

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly events: GuardEvents,
    /** Extra raw header lines (each ending in CRLF) for answers the guard writes itself. */
    private readonly extraHeaders = "",
    /** TLS sockets: nothing is written before the handshake, a refusal is a plain close. */
    private readonly tls = false,
    private readonly now: () => number = performance.now.bind(performance),
  ) {
    this.idleMs = limits.idleTimeoutMs ?? 10_000;
    const every = Math.max(50, Math.min(1000, limits.headersTimeoutMs / 4));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
  }

  get open(): number {
    return this.conns.size;
  }

  /** The front end is closing this connection itself (after a 408 or 413). */
  forget(socket: GuardedSocket): void {
    const conn = this.conns.get(socket);
    if (conn) this.release(conn);
  }

  /** Still open as far as the guard knows: not closed by a limit or a deadline. */
  tracks(socket: GuardedSocket): boolean {
    return this.conns.has(socket);
  }

  /** A new connection: false when it was refused (and is being closed). */
  admit(socket: GuardedSocket): boolean {
    const address = plainAddress(socket.remoteAddress ?? "");
    const count = this.perAddress.get(address) ?? 0;
    if (count >= this.limits.maxPerAddress && !this.limits.exempt?.trusts(address)) {
      this.refuse(socket, "per-address");
      return false;
    }
    if (this.conns.size >= this.limits.maxConnections && !this.evictSlowest()) {
      this.refuse(socket, "total");
      return false;
    }
    const now = this.now();
    const conn: Conn = {
      socket,
      address,
      phase: "new",
      since: now,
      deadline: now + this.limits.headersTimeoutMs,
      watched: false,
      released: false,
    };
    this.conns.set(socket, conn);
    this.perAddress.set(address, count + 1);
    socket.once("close", () => this.release(conn));
    return true;
  }

  /**
   * Called once node:http has attached its parser to the socket: each request's deadlines count
   * from its first byte, and raw UTF-8 in its request line is percent-encoded (request-line.ts).
   */
  watchParser(socket: Socket): void {
    const conn = this.conns.get(socket);
    if (!conn) return;
    conn.watched = watchRequestLines(socket, () => this.requestStarted(socket));
  }

  /**
   * A request's first byte has arrived (a front end that sees it says so): its headers must be
   * in within the headers timeout from now, and idle keep-alive connections get the idle timeout.
   */
  requestStarted(socket: GuardedSocket): void {
    const conn = this.conns.get(socket);
    if (!conn) return;
    conn.watched = true;
    if (conn.phase === "idle") {
      conn.since = this.now();
      conn.deadline = conn.since + this.limits.headersTimeoutMs;
    }
    if (conn.phase === "idle" || conn.phase === "new") conn.phase = "headers";
  }

  /** The request's headers are in: its body must arrive within the request timeout. */
  bodyStarted(socket: GuardedSocket, onTimeout: () => void): void {
    const conn = this.conns.get(socket);
    if (!conn) return;
    conn.phase = "body";
    conn.deadline = conn.since + this.limits.requestTimeoutMs;
    conn.onTimeout = onTimeout;
  }

  /** The whole request is in: what the app does with it is not the client's doing. */
  requestRead(socket: GuardedSocket): void {
    const conn = this.conns.get(socket);
    if (!conn) return;
    conn.phase = "busy";
    conn.deadline = NO_DEADLINE;
    conn.onTimeout = undefined;
  }

  /** The answer is out: the connection may idle for the next request. */
  responseDone(socket: GuardedSocket): void {
    const conn = this.conns.get(socket);
    if (conn?.phase !== "busy") return;
    conn.phase = "idle";
    conn.since = this.now();
    // Unwatched, a request's first bytes are not seen: its headers must be in this long after the
    // last answer (an idle keep-alive connection is closed by node:http at 5 s anyway).
    conn.deadline = conn.since + (conn.watched ? this.idleMs : this.limits.headersTimeoutMs);
  }

  /** Closes every connection that is not in the middle of an answer; true when none is left. */
  closeIdle(): boolean {
    for (const conn of [...this.conns.values()]) if (conn.phase !== "busy") this.drop(conn);
    return this.conns.size === 0;
  }

  closeAll(): void {
    for (const conn of [...this.conns.values()]) this.drop(conn);
    clearInterval(this.sweeper);
  }

  stop(): void {
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const now = this.now();
    for (const conn of [...this.conns.values()]) if (now >= conn.deadline) this.expire(conn, false);
  }

  /**
   * At the total limit a new connection is let in by closing the longest idle one, else the one
   * whose request has been arriving the longest (a slow client holding a slot). A busy one (its
   * request is with the app) is never closed.
   */
  private evictSlowest(): boolean {
    let victim: Conn | undefined;
    let idle: Conn | undefined;
    for (const conn of this.conns.values()) {
      if (conn.phase === "busy") continue;
      if (conn.phase === "idle") {
        if (!idle || conn.since < idle.since) idle = conn;
      } else if (!victim || conn.since < victim.since) victim = conn;
    }
    const chosen = idle ?? victim;
    if (!chosen) return false;
    this.events.refused("evicted");
    this.expire(chosen, true);
    return true;
  }

  private expire(conn: Conn, evicted: boolean): void {
    const phase = conn.phase;
    if (phase === "busy") return;
    // Whatever else the client sends is not read: it would parse as a new (bad) request.
    conn.socket.pause();
    if (phase === "idle") {
      this.drop(conn);
      return;
    }
    if (!evicted) this.events.timedOut(phase === "body" ? "body" : "headers", conn.address);
    if (phase === "body" && conn.onTimeout) {
      const answer = conn.onTimeout;
      this.release(conn);
      answer();
      return;
    }
    this.release(conn);
    const detail = evicted
      ? "The server is at its connection limit and this request was the slowest to arrive"
      : "The request did not arrive in time";
    const socket = conn.socket;
    if (socket.writable && !(this.tls && phase === "new"))
      socket.end(
        rawProblem(408, "Request Timeout", "request-timeout", "Request timeout", detail, this.extraHeaders),
        () => socket.destroy(),
      );
    else socket.destroy();
    // A peer that never reads must not keep the socket open.
    setTimeout(() => socket.destroy(), 1000).unref();
  }

  private refuse(socket: GuardedSocket, reason: RefusalReason): void {
    this.events.refused(reason);
    const detail =
      reason === "per-address"
        ? "Too many open connections from this address; close some and retry"
        : "The server is at its connection limit; retry shortly";
    socket.on("error", () => {});
    if (this.tls) {
      socket.destroy();
      return;
    }
    socket.end(
      rawProblem(
        503,
        "Service Unavailable",
        "too-many-connections",
        "Too many connections",
        detail,
        `retry-after: 1\r\n${this.extraHeaders}`,
      ),
      () => socket.destroy(),
    );
    setTimeout(() => socket.destroy(), 1000).unref();
  }

  private drop(conn: Conn): void {
    this.release(conn);
    conn.socket.destroy();
  }

  private release(conn: Conn): void {
    if (conn.released) return;
    conn.released = true;
    this.conns.delete(conn.socket);
    const left = (this.perAddress.get(conn.address) ?? 1) - 1;
    if (left <= 0) this.perAddress.delete(conn.address);
    else this.perAddress.set(conn.address, left);
  }
}
