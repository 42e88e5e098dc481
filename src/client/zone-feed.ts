/**
 * The live zone feed, read over fetch rather than EventSource: EventSource hides the box's
 * heartbeat (a comment line every 10 s), so a box that is frozen behind a working Wi-Fi (the
 * socket open, nothing coming) would keep a page "live" for as long as the socket stays up. Here
 * any byte counts as a sign of life; 20 s without one, the page says so and connects again,
 * waiting longer after each failure.
 */

/** Twice the box's heartbeat: one lost beat is not yet a dead box. */
export const SILENCE_MS = 20_000;
const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

export interface FeedEvent {
  event: string;
  id: string;
  data: string;
}

export interface FeedHandlers {
  /** An event of the stream (plates, changes, ended). */
  event(e: FeedEvent): void;
  /** The box answered with a feed, or sent a sign of life after silence. */
  alive(): void;
  /** No feed: connection refused or failed, an answer other than a feed, or silence. */
  lost(why: "unreachable" | "silent"): void;
  /** The box answered 401: the session is gone. */
  unauthorized(): void;
}

/** Splits the stream's text into events; comments and retry lines are signs of life only. */
export class EventParser {
  private buffer = "";
  private event = "message";
  private id = "";
  private data: string[] = [];

  constructor(private readonly emit: (e: FeedEvent) => void) {}

  push(text: string): void {
    this.buffer += text;
    for (;;) {
      const nl = this.buffer.search(/\r\n|\r|\n/);
      if (nl < 0) return;
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + (this.buffer.startsWith("\r\n", nl) ? 2 : 1));
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === "") {
      if (this.data.length > 0) this.emit({ event: this.event, id: this.id, data: this.data.join("\n") });
      this.event = "message";
      this.data = [];
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (name === "event") this.event = value;
    else if (name === "data") this.data.push(value);
    else if (name === "id") this.id = value;
  }
}

/**
 * Opens the feed at `url` and keeps it open until `close()`: reconnects after a loss with
 * backoff, resuming from the last event id. `lastId` is read at each connection.
 */
export function openFeed(url: string, lastId: () => string, on: FeedHandlers): { close(): void } {
  let closed = false;
  let failures = 0;
  let controller: AbortController | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;

  const retry = () => {
    if (closed) return;
    const wait = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]!;
    failures++;
    retryTimer = setTimeout(connect, wait);
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const mine = new AbortController();
    controller = mine;
    let silent = false;
    const heard = () => {
      clearTimeout(silenceTimer);
      silenceTimer = setTimeout(() => {
        silent = true;
        mine.abort();
      }, SILENCE_MS);
    };
    heard();
    const headers: Record<string, string> = { accept: "text/event-stream" };
    const id = lastId();
    if (id) headers["last-event-id"] = id;
    let res: Response;
    try {
      res = await fetch(url, { headers, credentials: "same-origin", cache: "no-store", signal: mine.signal });
    } catch {
      clearTimeout(silenceTimer);
      if (closed || controller !== mine) return;
      on.lost(silent ? "silent" : "unreachable");
      return retry();
    }
    if (res.status === 401) {
      clearTimeout(silenceTimer);
      on.unauthorized();
      return;
    }
    if (!res.ok || !res.body) {
      clearTimeout(silenceTimer);
      on.lost("unreachable");
      return retry();
    }
    on.alive();
    const openedAt = Date.now();
    // Backoff starts over only once a feed has delivered: a box that answers and then drops
    // every feed at once is not asked again every second by every handheld.
    const parser = new EventParser((e) => {
      failures = 0;
      on.event(e);
    });
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        heard();
        parser.push(value);
      }
    } catch {
      // Aborted (silence, or closed) or the connection broke: either way, the feed is lost.
    }
    clearTimeout(silenceTimer);
    if (closed || controller !== mine) return;
    if (Date.now() - openedAt >= SILENCE_MS) failures = 0;
    on.lost(silent ? "silent" : "unreachable");
    retry();
  }

  void connect();
  return {
    close() {
      closed = true;
      clearTimeout(retryTimer);
      clearTimeout(silenceTimer);
      controller?.abort();
    },
  };
}
