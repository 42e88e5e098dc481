import type { AppContext } from "../../context.ts";
import { Problem } from "../../platform/http/problem.ts";
import { PermitLookups } from "./lookups.ts";

/** Open feeds one credential may hold (a handheld's tabs, a reconnect racing its old stream). */
export const MAX_FEEDS_PER_CREDENTIAL = 8;
const HEARTBEAT_MS = 15_000;
/**
 * Permits also start and end with the clock, and another process (the CLI) may write: once a
 * second each watched zone's answer is asked again. That costs one version check per zone (the
 * answer is reused while nothing changed), whatever the number of subscribers.
 */
const CLOCK_MS = 1_000;

const encoder = new TextEncoder();

interface Subscriber {
  credential: string;
  send(chunk: Uint8Array): void;
  close(): void;
}

interface Watched {
  subscribers: Set<Subscriber>;
  /** The id (ETag without quotes) of the list last sent to this zone's subscribers. */
  id: string;
  /** The event, encoded once for every subscriber. */
  event: Uint8Array;
}

function platesEvent(id: string, body: string): Uint8Array {
  return encoder.encode(`event: plates\nid: ${id}\ndata: ${body}\n\n`);
}

/**
 * The live zone list as server-sent events. Subscribers of one zone share one answer: a change
 * notification (ctx.zoneChanges, from the intake and permit writes) or the clock makes one
 * rebuild per zone, and only a list that reads differently is sent.
 */
export class ZoneFeed {
  private readonly zones = new Map<number, Watched>();
  private readonly perCredential = new Map<string, number>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private clock: ReturnType<typeof setInterval> | undefined;
  private stopListening: (() => void) | undefined;

  private readonly lookups: PermitLookups;

  constructor(
    private readonly ctx: AppContext,
    private readonly heartbeatMs = HEARTBEAT_MS,
  ) {
    this.lookups = new PermitLookups(ctx);
  }

  private current(zone: number): { id: string; body: string; results: number } {
    const a = this.lookups.activePlatesJson(zone, this.ctx.now());
    return { id: a.etag.slice(1, -1), body: a.body, results: a.results };
  }

  /** How many open feeds (for tests and status). */
  get subscribers(): number {
    let n = 0;
    for (const w of this.zones.values()) n += w.subscribers.size;
    return n;
  }

  open(
    zone: number,
    credential: string,
    lastEventId: string | null,
  ): { response: Response; results: number } {
    const held = this.perCredential.get(credential) ?? 0;
    if (held >= MAX_FEEDS_PER_CREDENTIAL)
      throw new Problem(
        429,
        "too-many-feeds",
        "Too many open feeds",
        `This credential already holds ${held} open zone feeds; close one first`,
        { headers: { "retry-after": "15" } },
      );
    const now = this.current(zone);
    let watched = this.zones.get(zone);
    if (!watched) {
      watched = { subscribers: new Set(), id: now.id, event: platesEvent(now.id, now.body) };
      this.zones.set(zone, watched);
    } else this.refresh(zone, watched);
    const w = watched;
    let sub: Subscriber | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        let open = true;
        const stopOnClose = this.ctx.zoneChanges.onClose(() => sub?.close());
        sub = {
          credential,
          send: (chunk) => {
            if (!open) return;
            try {
              controller.enqueue(chunk);
            } catch {
              sub?.close();
            }
          },
          close: () => {
            if (!open) return;
            open = false;
            stopOnClose();
            this.drop(zone, sub!);
            try {
              controller.close();
            } catch {}
          },
        };
        w.subscribers.add(sub);
        this.perCredential.set(credential, held + 1);
        this.start();
        // Tell the browser how soon to come back, then the list unless it already has this one.
        controller.enqueue(encoder.encode("retry: 2000\n\n"));
        if (lastEventId !== w.id) controller.enqueue(w.event);
      },
      cancel: () => sub?.close(),
    });
    const response = new Response(stream, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-store",
        "x-accel-buffering": "no",
      },
    });
    return { response, results: now.results };
  }

  private drop(zone: number, sub: Subscriber): void {
    const w = this.zones.get(zone);
    if (!w?.subscribers.delete(sub)) return;
    const held = (this.perCredential.get(sub.credential) ?? 1) - 1;
    if (held <= 0) this.perCredential.delete(sub.credential);
    else this.perCredential.set(sub.credential, held);
    if (w.subscribers.size === 0) this.zones.delete(zone);
    if (this.zones.size === 0) this.stop();
  }

  /** Rebuilds the zone's list once and sends it to every subscriber if it reads differently. */
  private refresh(zone: number, w: Watched): void {
    let now: { id: string; body: string };
    try {
      now = this.current(zone);
    } catch {
      return; // a store that cannot be read now is asked again at the next tick
    }
    if (now.id === w.id) return;
    w.id = now.id;
    w.event = platesEvent(now.id, now.body);
    for (const s of w.subscribers) s.send(w.event);
  }

  private start(): void {
    if (this.heartbeat) return;
    const comment = encoder.encode(": keep-alive\n\n");
    this.heartbeat = setInterval(() => {
      for (const w of this.zones.values()) for (const s of w.subscribers) s.send(comment);
    }, this.heartbeatMs);
    this.clock = setInterval(() => {
      for (const [zone, w] of this.zones) this.refresh(zone, w);
    }, CLOCK_MS);
    this.heartbeat.unref?.();
    this.clock.unref?.();
    this.stopListening = this.ctx.zoneChanges.listen((changed) => {
      for (const [zone, w] of this.zones) if (changed === "all" || changed.has(zone)) this.refresh(zone, w);
    });
  }

  private stop(): void {
    clearInterval(this.heartbeat);
    clearInterval(this.clock);
    this.heartbeat = undefined;
    this.clock = undefined;
    this.stopListening?.();
    this.stopListening = undefined;
  }
}
