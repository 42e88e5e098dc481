import { FRONT_END_PROBLEMS } from "./broken-requests.ts";
import { plainAddress } from "./client-address.ts";
import type { ConnectionLimits, GuardedSocket } from "./connection-limits.ts";
import type { Problem } from "./problem.ts";

export { type ConnectionLimits, DEFAULT_LIMITS, type GuardedSocket } from "./connection-limits.ts";

/** Why a connection was cut when its client stopped reading what was sent to it. */
export const SLOW_READER = "slow-reader";

export type RefusalReason = "per-address" | "total" | "evicted";
export type TimeoutPhase = "headers" | "body" | "send";

export interface GuardEvents {
  refused(reason: RefusalReason): void;
  /** A request that did not arrive in time ("headers" ones are answered 408 by the guard itself), or an answer not read in time ("send"). */
  timedOut(phase: TimeoutPhase, client: string): void;
}

/**
 * new: nothing received yet; headers, body: a request arriving; busy: with the app, or its answer
 * going out; idle: between requests; closing: the server is closing it (it still holds a
 * descriptor, so it still counts, until its socket is gone).
 */
type Phase = "new" | "headers" | "body" | "busy" | "idle" | "closing";

interface Conn {
  socket: GuardedSocket;
  address: string;
  phase: Phase;
  /** performance.now() at the current request's first byte, or at connect. */
  since: number;
  deadline: number;
  /** Set while the front end reads a body: answers the request 408 itself. */
  onTimeout?: () => void;
  /** When output began to wait for the client to read (null: none is waiting). */
  blockedAt: number | null;
  /** The client must take some of the waiting output by then. */
  sendDeadline: number;
  released: boolean;
}

const NO_DEADLINE = Number.POSITIVE_INFINITY;
/**
 * A connection being closed is reset if its socket is still there this long after: the
 * connection closes it itself after a second (CLOSE_GRACE_MS); this is the guard's backstop.
 */
const CLOSING_BACKSTOP_MS = 3_000;

/**
 * Bounds what a client can hold: how many connections (per address and in all), how long a
 * request may take to arrive (headers, then the whole body), and how long an answer may wait for
 * a client that reads none of it. Deadlines are checked a few times a second.
 */
export class ConnectionGuard {
  private readonly conns = new Map<GuardedSocket, Conn>();
  private readonly perAddress = new Map<string, number>();
  private readonly sweeper: ReturnType<typeof setInterval>;
  private readonly idleMs: number;
  private readonly stallMs: number;

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly events: GuardEvents,
    /** TLS sockets: nothing is written before the handshake, a refusal is a plain close. */
    private readonly tls = false,
    private readonly now: () => number = performance.now.bind(performance),
  ) {
    this.idleMs = limits.idleTimeoutMs ?? 10_000;
    this.stallMs = limits.sendStallMs ?? limits.headersTimeoutMs;
    const every = Math.max(50, Math.min(1000, Math.min(limits.headersTimeoutMs, this.stallMs) / 4));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
  }

  get open(): number {
    return this.conns.size;
  }

  /**
   * The server is closing this connection (an answer of its own, a Connection: close answer that
   * is out, a deadline): no request deadline applies any more, but it counts against the limits
   * until its socket is gone, and is the first to go (reset) for a new connection at the limit.
   */
  closing(socket: GuardedSocket): void {
    const conn = this.conns.get(socket);
    if (!conn || conn.phase === "closing") return;
    conn.phase = "closing";
    conn.since = this.now();
    conn.deadline = conn.since + CLOSING_BACKSTOP_MS;
    conn.onTimeout = undefined;
    conn.blockedAt = null;
    conn.sendDeadline = NO_DEADLINE;
  }

  /** Still open as far as the guard knows: not being closed by the server. */
  tracks(socket: GuardedSocket): boolean {
    const phase = this.conns.get(socket)?.phase;
    return phase !== undefined && phase !== "closing";
  }

  /** A new connection: false when it was refused (and is being closed). */
  admit(socket: GuardedSocket): boolean {
    const address = plainAddress(socket.remoteAddress ?? "");
    const count = this.perAddress.get(address) ?? 0;
    if (count >= this.limits.maxPerAddress && !this.limits.exempt?.trusts(address)) {
      this.refuse(socket, "per-address");
      return false;
    }
    if (!this.makeRoom()) {
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
      blockedAt: null,
      sendDeadline: NO_DEADLINE,
      released: false,
    };
    this.conns.set(socket, conn);
    this.perAddress.set(address, count + 1);
    socket.once("gone", () => this.release(conn));
    return true;
  }

  /**
   * A request's first byte has arrived: its headers must be in within the headers timeout from
   * now, and idle keep-alive connections get the idle timeout.
   */
  requestStarted(socket: GuardedSocket): void {
    const conn = this.conns.get(socket);
    if (!conn) return;
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
    conn.deadline = conn.since + this.idleMs;
  }

  /**
   * Output waits for the client to read (`waiting`), or no longer does. While it waits, the
   * client must take some of it within the send-stall time, and the connection may be evicted
   * like one whose request is slow to arrive.
   */
  outputWaiting(socket: GuardedSocket, waiting: boolean): void {
    const conn = this.conns.get(socket);
    if (!conn || conn.phase === "closing") return;
    if (!waiting) {
      conn.blockedAt = null;
      conn.sendDeadline = NO_DEADLINE;
      return;
    }
    const now = this.now();
    conn.blockedAt ??= now;
    conn.sendDeadline = now + this.stallMs;
  }

  /** Closes every connection not in the middle of an answer; true when none is left. */
  closeIdle(): boolean {
    for (const conn of [...this.conns.values()])
      if (conn.phase !== "busy" && conn.phase !== "closing") this.drop(conn);
    return this.conns.size === 0;
  }

  closeAll(): void {
    for (const conn of [...this.conns.values()])
      if (conn.phase === "closing") conn.socket.forceClose();
      else this.drop(conn);
    clearInterval(this.sweeper);
  }

  stop(): void {
    clearInterval(this.sweeper);
  }
  private sweep(): void {
    const now = this.now();
    for (const conn of [...this.conns.values()]) {
      if (conn.phase === "closing") {
        if (now >= conn.deadline) conn.socket.forceClose();
      } else if (now >= conn.deadline) this.expire(conn, false);
      else if (now >= conn.sendDeadline) {
        // An answer (or an event stream) the client has not read any of for the stall time.
        this.events.timedOut("send", conn.address);
        this.closing(conn.socket);
        conn.socket.destroy(SLOW_READER);
      }
    }
  }

  /**
   * Room for one more connection under the total limit, which counts every socket still held,
   * those the server is closing too. At the limit, the one the server has been closing the
   * longest is reset (its descriptor given back now); else the longest idle one, else the one
   * that has kept the server waiting the longest (for its request to arrive, or for it to read
   * its answer), is closed as it would be at its deadline. One whose request is with the app is
   * never closed. That one may take up to CLOSE_GRACE_MS to go, so the total is at most the
   * limit plus the one connection evicted last: the next arrival resets it if it is still there.
   */
  private makeRoom(): boolean {
    let evicted = false;
    while (this.conns.size >= this.limits.maxConnections) {
      const closing = this.oldest((c) => c.phase === "closing");
      if (closing) {
        closing.socket.forceClose();
        this.release(closing);
        continue;
      }
      if (evicted) return true;
      const busiest = this.busiestAddress();
      const chosen =
        this.oldest((c) => c.phase === "idle") ??
        (busiest === undefined ? undefined : this.slowest((c) => c.address === busiest)) ??
        this.slowest();
      if (!chosen) return false;
      this.events.refused("evicted");
      evicted = true;
      if (chosen.phase === "idle" || chosen.phase === "busy") this.drop(chosen);
      else this.expire(chosen, true);
    }
    return true;
  }

  private oldest(which: (conn: Conn) => boolean): Conn | undefined {
    let found: Conn | undefined;
    for (const conn of this.conns.values())
      if (which(conn) && (!found || conn.since < found.since)) found = conn;
    return found;
  }

  /**
   * The address holding the most connections, when it holds more than one: a flood from many
   * addresses churns among its own connections, and a real client (one connection, perhaps still
   * in its handshake) is not the one closed for the next of them.
   */
  private busiestAddress(): string | undefined {
    let most = 1;
    let found: string | undefined;
    for (const [address, count] of this.perAddress)
      if (count > most) {
        most = count;
        found = address;
      }
    return found;
  }

  /**
   * The connection (among `which`) that has kept the server waiting the longest; busy ones only
   * while their client does not read.
   */
  private slowest(which: (conn: Conn) => boolean = () => true): Conn | undefined {
    let victim: Conn | undefined;
    let victimSince = NO_DEADLINE;
    for (const conn of this.conns.values()) {
      if (conn.phase === "idle" || conn.phase === "closing") continue;
      if (!which(conn)) continue;
      const waitingSince = conn.phase === "busy" ? (conn.blockedAt ?? NO_DEADLINE) : conn.since;
      if (waitingSince < victimSince) {
        victim = conn;
        victimSince = waitingSince;
      }
    }
    return victim;
  }

  private expire(conn: Conn, evicted: boolean): void {
    const phase = conn.phase;
    if (phase === "busy" || phase === "closing") return;
    // Whatever else the client sends is not read: it would parse as a new (bad) request.
    conn.socket.pause();
    if (phase === "idle") {
      this.drop(conn);
      return;
    }
    if (!evicted) this.events.timedOut(phase === "body" ? "body" : "headers", conn.address);
    if (phase === "body" && conn.onTimeout) {
      const answer = conn.onTimeout;
      this.closing(conn.socket);
      answer();
      return;
    }
    this.closing(conn.socket);
    const detail = evicted
      ? "The server is at its connection limit and this request was the slowest to arrive"
      : undefined;
    if (conn.socket.writable && !(this.tls && phase === "new"))
      this.endWithProblem(conn.socket, FRONT_END_PROBLEMS.requestTimeout(detail));
    else conn.socket.destroy();
  }

  private refuse(socket: GuardedSocket, reason: RefusalReason): void {
    this.events.refused(reason);
    const detail =
      reason === "per-address"
        ? "Too many open connections from this address; close some and retry"
        : "The server is at its connection limit; retry shortly";
    // Over TLS nothing can be said before the handshake: the connection is reset at once.
    if (this.tls) socket.forceClose();
    else this.endWithProblem(socket, FRONT_END_PROBLEMS.tooManyConnections(detail));
  }

  /** The socket answers and closes once the answer is out, within a second whatever the peer does. */
  private endWithProblem(socket: GuardedSocket, problem: Problem): void {
    socket.endWithProblem(problem);
  }

  private drop(conn: Conn): void {
    this.closing(conn.socket);
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
