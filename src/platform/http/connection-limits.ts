import type { Problem } from "./problem.ts";

/** What the guard needs of a connection (the front end's Connection). */
export interface GuardedSocket {
  readonly remoteAddress?: string;
  readonly writable: boolean;
  /** "gone": the socket itself is closed, its descriptor given back. */
  once(event: "gone", listener: () => void): unknown;
  pause(): unknown;
  /** Answers `problem` (problem+json) and closes once it is out. */
  endWithProblem(problem: Problem): unknown;
  /** `reason`: SLOW_READER when the client stopped reading. */
  destroy(reason?: string): unknown;
  /** Resets a socket that is being closed, at once. */
  forceClose(): unknown;
}

/** What the front end allows a connection before its request reaches the app. */
export interface ConnectionLimits {
  /** Open connections in all; past it the slowest client is closed for a new one. */
  maxConnections: number;
  /** Open connections from one client address. */
  maxPerAddress: number;
  /** From a request's first byte (or the connection's start) to the end of its headers. */
  headersTimeoutMs: number;
  /** From a request's first byte to the end of its body. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  idleTimeoutMs?: number;
  /**
   * How long an answer may wait for a client that takes none of it (no byte read) before the
   * connection is cut. Default: the headers timeout.
   */
  sendStallMs?: number;
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
