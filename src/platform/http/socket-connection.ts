import type { Socket } from "bun";
import type { GuardedSocket } from "./connection-guard.ts";
import { type FrontEndMeta, requestIdOf } from "./front-end-meta.ts";
import type { RequestHead } from "./http1.ts";
import type { BodyBytes, ChunkedBody } from "./http1-body.ts";
import type { Problem } from "./problem.ts";
import { rawProblem } from "./socket-answer.ts";

export type Phase = "head" | "body" | "busy";

/**
 * One client connection, over TCP or TLS: its unread input, the request being read, and output
 * not yet sent.
 */
export class Connection implements GuardedSocket {
  input: Buffer | null = null;
  phase: Phase = "head";
  head: RequestHead | null = null;
  meta: FrontEndMeta | null = null;
  body: BodyBytes | ChunkedBody | null = null;
  closed = false;
  private output: Buffer[] = [];
  /** Bytes in `output`: what the kernel has not taken yet. */
  queued = 0;
  private ending = false;
  private afterFlush: (() => void)[] = [];
  private closeListeners: ((reason?: string) => void)[] = [];
  /** Why the connection was cut, when it was (SLOW_READER). */
  private closeReason: string | undefined;

  constructor(
    readonly socket: Socket<Connection>,
    /** Raw header lines (each ending in CRLF) every answer carries: HSTS over TLS. */
    readonly extraHead: string,
    /** Told when output starts or stops waiting for the client, and when the client takes some. */
    private readonly outputWaiting: (c: Connection, waiting: boolean) => void,
  ) {}

  get remoteAddress(): string {
    return this.socket.remoteAddress;
  }
  get writable(): boolean {
    return !this.closed && !this.ending;
  }
  get flushed(): boolean {
    return this.output.length === 0;
  }

  write(data: Uint8Array | string): void {
    if (this.closed) return;
    const buf =
      typeof data === "string"
        ? Buffer.from(data, "latin1")
        : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (this.output.length > 0) {
      this.output.push(buf);
      this.queued += buf.length;
      return;
    }
    const sent = this.socket.write(buf);
    if (sent < 0) this.destroy();
    else if (sent < buf.length) {
      this.output.push(buf.subarray(sent));
      this.queued += buf.length - sent;
      this.outputWaiting(this, true);
    }
  }

  /** Runs `fn` once everything written so far is out (at once when it already is). */
  whenFlushed(fn: () => void): void {
    if (this.output.length === 0) fn();
    else this.afterFlush.push(fn);
  }

  drain(): void {
    if (this.output.length === 0) return;
    while (this.output.length > 0) {
      const buf = this.output[0]!;
      const sent = this.socket.write(buf);
      if (sent < 0) {
        this.destroy();
        return;
      }
      this.queued -= sent;
      if (sent < buf.length) {
        this.output[0] = buf.subarray(sent);
        // The client took some: its send deadline starts again.
        if (sent > 0) this.outputWaiting(this, true);
        return;
      }
      this.output.shift();
    }
    this.outputWaiting(this, false);
    const waiting = this.afterFlush;
    this.afterFlush = [];
    for (const fn of waiting) fn();
  }

  /** Runs `listener` when the connection closes (at once when it already has), with why it was cut. */
  once(_event: "close", listener: (reason?: string) => void): void {
    if (this.closed) listener(this.closeReason);
    else this.closeListeners.push(listener);
  }
  pause(): void {
    this.socket.pause();
  }
  resume(): void {
    this.socket.resume();
  }

  /** Writes `data`, then closes once it is out. */
  end(data: string | Uint8Array, done: () => void = () => {}): void {
    this.write(data);
    this.ending = true;
    this.whenFlushed(() => {
      this.socket.end();
      done();
    });
  }

  endWithProblem(problem: Problem, requestId = requestIdOf(undefined), instance?: string): void {
    this.end(rawProblem(problem, requestId, this.extraHead, instance));
  }

  /**
   * Closes the connection. What the kernel has already taken still reaches the client (a slow
   * reader of a large answer, a connection closed at shutdown); only output still queued here
   * is cut, with a reset.
   */
  destroy(reason?: string): void {
    this.closeReason ??= reason;
    if (!this.closed) {
      if (this.output.length === 0) this.socket.end();
      else this.socket.terminate();
    }
    this.onClosed();
  }

  onClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.output = [];
    this.queued = 0;
    this.afterFlush = [];
    const listeners = this.closeListeners;
    this.closeListeners = [];
    for (const fn of listeners) fn(this.closeReason);
  }
}
