import type { Credential } from "../../domain/credentials.ts";
import { refuse } from "../../domain/errors.ts";
import { SLOW_READER } from "../../platform/http/connection-guard.ts";
import { log } from "../../platform/log.ts";
import type { CredentialWatch, EndReason } from "./credential-watch.ts";
import type { EnforcementContext } from "./module-context.ts";
import type { Change } from "./read-model/read-model.ts";

/** Open feeds one credential may hold (a handheld's tabs, a reconnect racing its old stream). */
export const MAX_FEEDS_PER_CREDENTIAL = 8;
/** A handheld that hears nothing for twice this long takes the box for gone and says so. */
const HEARTBEAT_MS = 10_000;
/** "plates": the whole list on every change (the first protocol); "changes": what changed. */
export type FeedMode = "plates" | "changes";

const encoder = new TextEncoder();
const platesEvent = (id: string, body: string) =>
  encoder.encode(`event: plates\nid: ${id}\ndata: ${body}\n\n`);
const changesEvent = (from: string, to: string, added: string[], removed: string[]) =>
  encoder.encode(`event: changes\nid: ${to}\ndata: ${JSON.stringify({ from, added, removed })}\n\n`);
/** The last event of a feed whose credential can no longer be used: the page signs in again. */
const endedEvent = (reason: EndReason) =>
  encoder.encode(`event: ended\ndata: ${JSON.stringify({ reason })}\n\n`);

interface Subscriber {
  credential: string;
  close(): void;
  send(chunk: Uint8Array): void;
}

/**
 * The live zone list as server-sent events. The read model follows each watched zone's list
 * (ReadModel.watch: one check per zone after a write or a second, its changes kept for
 * reconnections); here each change is encoded once per zone and mode, whatever its subscribers.
 */
export class ZoneFeed {
  private readonly subs = new Set<Subscriber>();
  private readonly perCredential = new Map<string, number>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private readonly encoded = new WeakMap<Change, { changes?: Uint8Array; plates?: Uint8Array }>();

  constructor(
    private readonly ctx: Pick<EnforcementContext, "metrics" | "openStreams" | "readModel">,
    private readonly heartbeatMs = HEARTBEAT_MS,
  ) {}

  /** How many open feeds (for tests and status). */
  get subscribers(): number {
    return this.subs.size;
  }

  /**
   * A feed of `zone`'s list. "plates" sends the whole list at the start and on every change;
   * "changes" sends it at the start, then only what was added and removed. Reconnecting with
   * Last-Event-ID gets nothing if the list is unchanged since, what changed since (in "changes"
   * mode, while that version is among the latest changes), or else the whole list.
   */
  open(
    zone: number,
    credential: string,
    lastEventId: string | null,
    mode: FeedMode = "plates",
    /** Ends the feed, with a last event `ended`, when its credential ends. */
    holder?: { credential: Credential; watch: CredentialWatch },
  ): { response: Response; results: number } {
    const held = this.perCredential.get(credential) ?? 0;
    if (held >= MAX_FEEDS_PER_CREDENTIAL)
      throw refuse(
        "too-many-feeds",
        `This credential already holds ${held} open zone feeds; close one first`,
        { retryAfterSeconds: 15 },
      );
    let sub: Subscriber | undefined;
    const watching = this.ctx.readModel.watch(zone, (change, list) => {
      // Each change is encoded once per mode, for every subscriber of its zone.
      const events = this.encoded.get(change) ?? {};
      this.encoded.set(change, events);
      if (mode === "changes")
        events.changes ??= changesEvent(change.from, change.to, change.added, change.removed);
      else events.plates ??= platesEvent(change.to, list.body);
      sub?.send(mode === "changes" ? events.changes! : events.plates!);
    });
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        let open = true;
        const stopOnClose = this.ctx.openStreams.onClose(() => sub?.close());
        const stopWatching = holder?.watch.hold(holder.credential, (reason) => {
          sub?.send(endedEvent(reason));
          sub?.close();
        });
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
            stopWatching?.();
            watching.stop();
            this.drop(sub!);
            try {
              controller.close();
            } catch {}
          },
        };
        this.subs.add(sub);
        this.perCredential.set(credential, held + 1);
        this.startHeartbeat();
        // Tell the browser how soon to come back, then what it lacks of the list.
        controller.enqueue(encoder.encode("retry: 2000\n\n"));
        const { list } = watching;
        if (lastEventId === list.id) return;
        const missed = mode === "changes" && lastEventId !== null ? watching.since(lastEventId) : null;
        controller.enqueue(
          missed
            ? changesEvent(lastEventId!, list.id, missed.added, missed.removed)
            : platesEvent(list.id, list.body),
        );
      },
      cancel: (reason) => {
        if (reason === SLOW_READER) {
          // A handheld that stopped reading (asleep, out of range): cut rather than buffered for.
          this.ctx.metrics.dropped.add({ what: "zone_feeds" });
          log("info", "zone feed dropped: its client stopped reading", { zone, credential });
        }
        sub?.close();
      },
    });
    const response = new Response(stream, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-store",
        "x-accel-buffering": "no",
      },
    });
    return { response, results: watching.list.results };
  }

  private drop(sub: Subscriber): void {
    if (!this.subs.delete(sub)) return;
    const held = (this.perCredential.get(sub.credential) ?? 1) - 1;
    if (held <= 0) this.perCredential.delete(sub.credential);
    else this.perCredential.set(sub.credential, held);
    if (this.subs.size === 0) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }

  private startHeartbeat(): void {
    if (this.heartbeat) return;
    const comment = encoder.encode(": keep-alive\n\n");
    this.heartbeat = setInterval(() => {
      for (const s of this.subs) s.send(comment);
    }, this.heartbeatMs);
    this.heartbeat.unref?.();
  }
}
