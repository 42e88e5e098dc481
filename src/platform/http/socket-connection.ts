import type { Socket } from "bun";
import type { GuardedSocket } from "./connection-guard.ts";
import type { FrontEndMeta } from "./front-end-meta.ts";
import type { ChunkedBody, RequestHead } from "./http1.ts";

let dateSecond = -1;
let dateText = "";
export function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

export type Phase = "head" | "body" | "busy";

/** One client connection: its unread input, the request being read, and output not yet sent. */
export class Connection implements GuardedSocket {
  input: Buffer | null = null;
  phase: Phase = "head";
  head: RequestHead | null = null;
  meta: FrontEndMeta | null = null;
  body: Buffer[] = [];
  bodySize = 0;
  chunked: ChunkedBody | null = null;
  closed = false;
  private output: Buffer[] = [];
  /** Bytes in `output`: what the kernel has not taken yet. */
  queued = 0;
  private ending = false;
  private afterFlush: (() => void)[] = [];
  private closeListeners: (() => void)[] = [];

  constructor(readonly socket: Socket<Connection>) {}

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
    }
  }

  /** Runs `fn` once everything written so far is out (at once when it already is). */
  whenFlushed(fn: () => void): void {
    if (this.output.length === 0) fn();
    else this.afterFlush.push(fn);
  }

  drain(): void {
    while (this.output.length > 0) {
      const buf = this.output[0]!;
      const sent = this.socket.write(buf);
      if (sent < 0) {
        this.destroy();
        return;
      }
      this.queued -= Math.max(sent, 0);
      if (sent < buf.length) {
        this.output[0] = buf.subarray(sent);
        return;
      }
      this.output.shift();
    }
    const waiting = this.afterFlush;
    this.afterFlush = [];
    for (const fn of waiting) fn();
  }

  once(_event: "close", listener: () => void): void {
    this.closeListeners.push(listener);
  }
  on(_event: "error", _listener: () => void): void {}
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

  /**
   * Closes the connection. What the kernel has already taken still reaches the client (a slow
   * reader of a large answer, a connection closed at shutdown); only output still queued here
   * is cut, with a reset.
   */
  destroy(): void {
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
    for (const fn of listeners) fn();
  }
}
