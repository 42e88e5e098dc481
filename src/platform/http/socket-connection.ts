import type { Socket } from "bun";
import type { GuardedSocket } from "./connection-guard.ts";
import type { BodyBytes, ChunkedBody, RequestHead } from "./http1.ts";
import type { Problem } from "./problem.ts";
import { type FrontEndMeta, requestIdOf } from "./request-meta.ts";
import { rawProblem } from "./socket-answer.ts";

export type Phase = "head" | "body" | "busy";

/**
 * How long a connection the server is closing may take to go: a TLS client is sent close_notify
 * and a FIN, and one that does not answer with its own is closed this long after.
 */
export const CLOSE_GRACE_MS = 1_000;

/** What the connection tells its guard. */
export interface ConnectionHooks {
  /** Output starts or stops waiting for the client, or the client took some of it. */
  outputWaiting(c: Connection, waiting: boolean): void;
  /** The server is closing the connection: no request or answer of it is in progress any more. */
  closing(c: Connection): void;
  /** The output this connection holds in memory changed by `delta` bytes (OutputBudget). */
  held(c: Connection, delta: number): void;
}

/** Output not yet taken by the kernel; `hold`: the bytes its chunk keeps in memory (0: shared). */
interface Pending {
  buf: Uint8Array;
  hold: number;
}

/**
 * One client connection, over TCP or TLS: its unread input, the request being read, and output
 * not yet sent.
 */
export class Connection implements GuardedSocket {
  readonly input = new InputBytes();
  /** Unread input already searched for the end of a head (none there): not searched again. */
  headScanned = 0;
  phase: Phase = "head";
  head: RequestHead | null = null;
  meta: FrontEndMeta | null = null;
  body: BodyBytes | ChunkedBody | null = null;
  closed = false;
  /** Reading is paused (a request with the app while more arrives, or a closing connection). */
  private paused = false;
  private output: Pending[] = [];
  /** Bytes the pending output keeps in memory: whole chunks copied for this connection. */
  held = 0;
  /** performance.now() since when output has waited for the client; null when none waits. */
  waitingSince: number | null = null;
  /** Bytes in `output`: what the kernel has not taken yet. */
  queued = 0;
  private ending = false;
  private afterFlush: (() => void)[] = [];
  private closeListeners: ((reason?: string) => void)[] = [];
  private goneListeners: (() => void)[] = [];
  /** The socket itself is closed (Bun's close callback): its descriptor is given back. */
  gone = false;
  private closeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Why the connection was cut, when it was (SLOW_READER). */
  private closeReason: string | undefined;

  constructor(
    readonly socket: Socket<Connection>,
    /** Raw header lines (each ending in CRLF) every answer carries: HSTS over TLS. */
    readonly extraHead: string,
    readonly tls: boolean,
    private readonly hooks: ConnectionHooks,
  ) {}

  /** The peer's address, read from the socket once: each read makes a new string. */
  get remoteAddress(): string {
    this.peer ??= this.socket.remoteAddress;
    return this.peer;
  }
  private peer: string | undefined;
  get writable(): boolean {
    return !this.closed && !this.ending;
  }
  get flushed(): boolean {
    return this.output.length === 0;
  }

  /**
   * Writes `data`; what the kernel does not take waits here. `shared`: the bytes are a buffer
   * shared with other connections (sharedBodyResponse), kept by reference and not counted.
   */
  write(data: Uint8Array | string, shared = false): void {
    if (this.closed) return;
    // Bytes as they are: a Buffer view over them (data.buffer) made the engine give the array an
    // ArrayBuffer of its own on every answer.
    const buf = typeof data === "string" ? Buffer.from(data, "latin1") : data;
    if (this.output.length > 0) {
      this.queue(buf, shared ? 0 : buf.length);
      return;
    }
    const sent = this.socket.write(buf);
    if (sent < 0) this.destroy();
    else if (sent < buf.length) {
      this.waitingSince = performance.now();
      this.queue(buf.subarray(sent), shared ? 0 : buf.length);
      this.hooks.outputWaiting(this, true);
    }
  }

  private queue(buf: Uint8Array, hold: number): void {
    this.output.push({ buf, hold });
    this.queued += buf.length;
    if (hold > 0) {
      this.held += hold;
      this.hooks.held(this, hold);
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
      const pending = this.output[0]!;
      const sent = this.socket.write(pending.buf);
      if (sent < 0) {
        this.destroy();
        return;
      }
      this.queued -= sent;
      if (sent < pending.buf.length) {
        pending.buf = pending.buf.subarray(sent);
        // The client took some: its send deadline starts again.
        if (sent > 0) this.hooks.outputWaiting(this, true);
        return;
      }
      this.output.shift();
      this.release(pending.hold);
    }
    this.waitingSince = null;
    this.hooks.outputWaiting(this, false);
    const waiting = this.afterFlush;
    this.afterFlush = [];
    for (const fn of waiting) fn();
  }

  /**
   * "close": runs `listener` when the connection is closed for requests and answers (at once when
   * it already is), with why it was cut. "gone": when the socket itself is closed, which for a
   * connection the server closes may be up to CLOSE_GRACE_MS later.
   */
  once(event: "close" | "gone", listener: (reason?: string) => void): void {
    if (event === "gone") {
      if (this.gone) listener();
      else this.goneListeners.push(listener);
    } else if (this.closed) listener(this.closeReason);
    else this.closeListeners.push(listener);
  }
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.socket.pause();
  }
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.socket.resume();
  }

  /**
   * Writes `data`, then closes once it is out. `withinMs`: closed that long from now whether or
   * not the client took it (the front end's own short answers; an app's answer is bounded by the
   * send-stall deadline instead).
   */
  end(data: string | Uint8Array, withinMs?: number): void {
    this.write(data);
    this.ending = true;
    if (withinMs !== undefined) setTimeout(() => this.destroy(), withinMs).unref();
    this.whenFlushed(() => {
      this.closeSocket();
      this.onClosed();
    });
  }

  /** An answer of the front end's own; the connection is closed once it is out, within a second. */
  endWithProblem(problem: Problem, requestId = requestIdOf(undefined), instance?: string): void {
    this.end(rawProblem(problem, requestId, this.extraHead, instance), CLOSE_GRACE_MS);
  }

  /**
   * Closes a socket whose output is all with the kernel, keeping what the kernel holds for the
   * client. Plain TCP: end() closes the descriptor at once. TLS: Bun's end() sends close_notify
   * and keeps the descriptor, detached from us, until the client answers with its own, which a
   * client that reads and never closes does not do; and close() straight after a write whose
   * ciphertext the kernel has not all taken waits for it with no limit either. So TLS sends
   * close_notify and a FIN (shutdown) and, unless the client closes first, closes the descriptor
   * CLOSE_GRACE_MS later (close(), which lets the kernel deliver what it holds; terminate() would
   * reset the connection and drop it).
   */
  private closeSocket(): void {
    if (this.gone || this.closeTimer !== undefined) return;
    this.hooks.closing(this);
    if (this.tls) this.socket.shutdown();
    else this.socket.end();
    this.closeTimer = setTimeout(() => {
      if (!this.gone) this.socket.close();
    }, CLOSE_GRACE_MS);
    this.closeTimer.unref();
  }

  /** Closes the socket now, resetting it: a connection evicted while it was closing. */
  forceClose(): void {
    if (!this.gone) this.socket.terminate();
    this.onClosed();
  }

  /**
   * Closes the connection. What the kernel has already taken still reaches the client (a slow
   * reader of a large answer, a connection closed at shutdown); only output still queued here
   * is cut, with a reset.
   */
  destroy(reason?: string): void {
    this.closeReason ??= reason;
    if (!this.closed && !this.gone) {
      if (this.output.length === 0) this.closeSocket();
      else {
        this.hooks.closing(this);
        this.socket.terminate();
      }
    }
    this.onClosed();
  }

  /** The socket is closed (Bun's close or error callback). */
  onGone(): void {
    this.onClosed();
    if (this.gone) return;
    this.gone = true;
    clearTimeout(this.closeTimer);
    const listeners = this.goneListeners;
    this.goneListeners = [];
    for (const fn of listeners) fn();
  }

  private release(hold: number): void {
    if (hold === 0) return;
    this.held -= hold;
    this.hooks.held(this, -hold);
  }

  onClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.output = [];
    this.queued = 0;
    this.waitingSince = null;
    this.release(this.held);
    this.afterFlush = [];
    const listeners = this.closeListeners;
    this.closeListeners = [];
    for (const fn of listeners) fn(this.closeReason);
  }
}

/**
 * A connection's unread input: the bytes received and not yet read as a request. Bytes that
 * arrive while some are still unread are appended into one buffer whose capacity doubles, so
 * input sent a byte at a time costs each byte a copy or two, never a copy of everything before it
 * (a Buffer.concat per arrival copied 256 KiB sent in 1-byte writes about 32 billion times over).
 * Input that arrives with nothing unread is kept as it came, without a copy.
 */
export class InputBytes {
  private data: Buffer | null = null;
  /** Whether `data` is ours to append into (not the buffer it arrived in). */
  private owned = false;
  private start = 0;
  private end = 0;
  /** Bytes copied so far: what a test reads to see that appending stays linear. */
  copied = 0;

  get length(): number {
    return this.end - this.start;
  }

  /** The unread bytes; valid until the next append or consume. */
  view(): Buffer {
    if (this.data === null) return NO_INPUT;
    // Most requests arrive whole in a chunk of their own: that chunk is the view, with no new one.
    if (this.start === 0 && this.end === this.data.length) return this.data;
    return this.data.subarray(this.start, this.end);
  }

  append(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.length === 0) {
      this.data = chunk;
      this.owned = false;
      this.start = 0;
      this.end = chunk.length;
      return;
    }
    const data = this.data!;
    if (!this.owned || this.end + chunk.length > data.length) {
      const need = this.length + chunk.length;
      const grown = Buffer.allocUnsafe(Math.max(MIN_CAPACITY, 2 * need));
      data.copy(grown, 0, this.start, this.end);
      this.copied += this.length;
      this.data = grown;
      this.owned = true;
      this.end = this.length;
      this.start = 0;
    }
    chunk.copy(this.data!, this.end);
    this.copied += chunk.length;
    this.end += chunk.length;
  }

  /** Drops the first `n` unread bytes (read as a request). */
  consume(n: number): void {
    this.start += n;
    if (this.start >= this.end) this.clear();
  }

  clear(): void {
    this.data = null;
    this.owned = false;
    this.start = 0;
    this.end = 0;
  }
}

const NO_INPUT = Buffer.alloc(0);
const MIN_CAPACITY = 4096;
