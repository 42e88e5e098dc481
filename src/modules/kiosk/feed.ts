import { refuse } from "../../domain/errors.ts";
import type { Site } from "../../domain/tariff/engine.ts";
import { formatMicros } from "../../domain/time/zoned.ts";
import { type Board, boardNow } from "./board.ts";
import type { KioskDeps } from "./deps.ts";

/** Open board streams in all: the route is public, so the box bounds what strangers can hold open. */
export const MAX_BOARD_STREAMS = 64;
/**
 * Open board streams from one client address: a lobby screen holds one, and a few more cover a
 * reload while its old connection is still open (a dropped Wi-Fi leaves it so for a while).
 */
export const MAX_BOARD_STREAMS_PER_ADDRESS = 4;
const RETRY_AFTER_SECONDS = 30;
/** Often enough for a board to tell a frozen box within 15 s (it waits 12 s of silence). */
const HEARTBEAT_MS = 5_000;
/** Tickets end and prices change with the clock, without a write to announce it. */
const CLOCK_MS = 30_000;
/** A burst of intake is answered by one refresh a second at most. */
const THROTTLE_MS = 1_000;

const encoder = new TextEncoder();

/** An open stream, as its address's list holds it (oldest first). */
interface OpenBoard {
  /** Order of opening, to find the oldest among addresses holding as many. */
  seq: number;
  close: () => void;
}

interface Watched {
  ids: number[] | null;
  subscribers: Set<(chunk: Uint8Array) => void>;
  body: string;
}

/** What the board sends: its figures, with the time they were read (ISO) so a screen can show their age. */
export const boardJson = (b: Board) => JSON.stringify({ ...b, at: formatMicros(b.at) });

/**
 * The kiosk board as server-sent events: boards showing the same lots share one reading, made
 * again after intake commits (at most once a second) and every 30 s; a reading sent only when it
 * reads differently. One address holds at most a few streams, and at the total cap a new board
 * takes the place of the oldest stream of whichever address holds the most, so one address (or a
 * few) cannot keep the kiosks elsewhere off the air.
 */
export class BoardFeed {
  private readonly watched = new Map<string, Watched>();
  private open = 0;
  private opened = 0;
  private readonly byAddress = new Map<string, OpenBoard[]>();
  private timers: ReturnType<typeof setInterval>[] = [];
  private stopListening: (() => void) | undefined;
  private pending: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ctx: KioskDeps,
    private readonly site: Site,
  ) {}

  /** `address`: the client's address bucket (an IPv6 client is its /64). */
  stream(ids: number[] | null, address: string): Response {
    const mine = this.byAddress.get(address) ?? [];
    if (mine.length >= MAX_BOARD_STREAMS_PER_ADDRESS)
      throw refuse(
        "too-many-boards",
        `This address holds ${MAX_BOARD_STREAMS_PER_ADDRESS} board streams, the most one address may; close one or try again later`,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    if (this.open >= MAX_BOARD_STREAMS) this.makeRoom(mine.length + 1);
    const key = ids ? ids.join(",") : "";
    let w = this.watched.get(key);
    if (!w) {
      w = { ids, subscribers: new Set(), body: boardJson(boardNow(this.ctx, ids, this.site)) };
      this.watched.set(key, w);
    }
    const watched = w;
    let send: ((chunk: Uint8Array) => void) | undefined;
    let close = () => {};
    const board: OpenBoard = { seq: ++this.opened, close: () => close() };
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        let live = true;
        const stopOnClose = this.ctx.openStreams.onClose(() => close());
        send = (chunk) => {
          try {
            controller.enqueue(chunk);
          } catch {
            close();
          }
        };
        close = () => {
          if (!live) return;
          live = false;
          stopOnClose();
          this.drop(key, send!);
          this.forget(address, board);
          try {
            controller.close();
          } catch {}
        };
        watched.subscribers.add(send);
        this.open++;
        this.byAddress.set(address, [...(this.byAddress.get(address) ?? []), board]);
        this.start();
        controller.enqueue(encoder.encode(`retry: 5000\n\nevent: board\ndata: ${watched.body}\n\n`));
      },
      cancel: () => close(),
    });
    return new Response(stream, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-store",
        "x-accel-buffering": "no",
      },
    });
  }

  /** Reads every watched board again and sends those that changed. */
  refresh(): void {
    for (const w of this.watched.values()) {
      let body: string;
      try {
        body = boardJson(boardNow(this.ctx, w.ids, this.site));
      } catch {
        continue; // asked again at the next change or tick
      }
      // `at` moves every time; only the figures decide whether a screen needs a new reading.
      if (body.replace(/"at":"[^"]*"/, "") === w.body.replace(/"at":"[^"]*"/, "")) continue;
      w.body = body;
      const chunk = encoder.encode(`event: board\ndata: ${body}\n\n`);
      for (const send of w.subscribers) send(chunk);
    }
  }

  private start(): void {
    if (this.timers.length > 0) return;
    // An event, not a comment: the page sees it, and a board that hears nothing for a while
    // (a cable pulled leaves the connection open) shows its figures as old and reconnects.
    const beat = encoder.encode("event: tick\ndata: {}\n\n");
    this.timers = [
      setInterval(() => {
        for (const w of this.watched.values()) for (const send of w.subscribers) send(beat);
      }, HEARTBEAT_MS),
      setInterval(() => this.refresh(), CLOCK_MS),
    ];
    for (const t of this.timers) t.unref?.();
    this.stopListening = this.ctx.store.written.onWrite(() => {
      this.pending ??= setTimeout(() => {
        this.pending = undefined;
        this.refresh();
      }, THROTTLE_MS);
    });
  }

  /**
   * At the total cap: ends the oldest stream of the address holding the most, when it holds more
   * than the newcomer's address would with the new one (never toward a smaller share); else 429.
   */
  private makeRoom(newcomerWouldHold: number): void {
    let victim: OpenBoard[] | undefined;
    for (const list of this.byAddress.values())
      if (
        !victim ||
        list.length > victim.length ||
        (list.length === victim.length && list[0]!.seq < victim[0]!.seq)
      )
        victim = list;
    if (!victim || victim.length <= newcomerWouldHold)
      throw refuse("too-many-boards", `${MAX_BOARD_STREAMS} board streams are open; try again later`, {
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
    victim[0]!.close();
  }

  private forget(address: string, board: OpenBoard): void {
    const left = (this.byAddress.get(address) ?? []).filter((b) => b !== board);
    if (left.length) this.byAddress.set(address, left);
    else this.byAddress.delete(address);
  }

  private drop(key: string, send: (chunk: Uint8Array) => void): void {
    const w = this.watched.get(key);
    if (!w?.subscribers.delete(send)) return;
    this.open--;
    if (w.subscribers.size === 0) this.watched.delete(key);
    if (this.open > 0) return;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.stopListening?.();
    this.stopListening = undefined;
    if (this.pending) clearTimeout(this.pending);
    this.pending = undefined;
  }
}
