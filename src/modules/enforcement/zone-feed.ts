import type { Credential } from "../../domain/credentials.ts";
import { refuse } from "../../domain/errors.ts";
import { RepeatedFault } from "../../platform/fault-log.ts";
import { SLOW_READER } from "../../platform/http/connection-guard.ts";
import { log } from "../../platform/log.ts";
import { isStoreUnavailable } from "../../platform/store/db.ts";
import type { CredentialWatch } from "./credential-watch.ts";
import {
  type Change,
  changesEvent,
  changesSince,
  diffLists,
  encoder,
  endedEvent,
  platesEvent,
} from "./feed-events.ts";
import { FeedRounds } from "./feed-rounds.ts";
import type { PermitLookups } from "./lookups.ts";
import type { EnforcementContext } from "./module-context.ts";
import type { ZoneList } from "./zone-list.ts";

/** Open feeds one credential may hold (a handheld's tabs, a reconnect racing its old stream). */
export const MAX_FEEDS_PER_CREDENTIAL = 8;
/** A handheld that hears nothing for twice this long takes the box for gone and says so. */
const HEARTBEAT_MS = 10_000;
/** "plates": the whole list on every change (the first protocol); "changes": what changed. */
export type FeedMode = "plates" | "changes";

interface Subscriber {
  credential: string;
  mode: FeedMode;
  send(chunk: Uint8Array): void;
  close(): void;
}

/** A list's event id: its ETag without the quotes. */
const idOf = (list: ZoneList) => list.etag.slice(1, -1);

/** Changes kept per zone, so that a feed that reconnects soon resumes with what it missed. */
const CHANGES_KEPT = 64;

interface Watched {
  subscribers: Set<Subscriber>;
  /** The id (ETag without quotes) of the list last sent to this zone's subscribers. */
  id: string;
  /** That list (its body is written only for whole-list events). */
  list: ZoneList;
  /** The latest changes, oldest first. */
  changes: Change[];
}

/**
 * The live zone list as server-sent events. Subscribers of one zone share one answer: a write
 * (the store's notice) or the clock makes one version check per zone, a patch of the list where
 * some of the zone's rows changed (PermitLookups.zoneList), and only a list that reads
 * differently is sent.
 */
export class ZoneFeed {
  private readonly zones = new Map<number, Watched>();
  private readonly perCredential = new Map<string, number>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private readonly rounds: FeedRounds;

  private readonly lookups: PermitLookups;
  private readonly fault = new RepeatedFault(
    "the live zone feeds could not read a zone's list; they try again at the next write or second",
  );

  constructor(
    private readonly ctx: Pick<
      EnforcementContext,
      "store" | "config" | "now" | "metrics" | "openStreams" | "lookups"
    >,
    private readonly heartbeatMs = HEARTBEAT_MS,
  ) {
    this.lookups = ctx.lookups;
    this.rounds = new FeedRounds({
      zones: () => this.zones.keys(),
      refresh: (zone) => {
        const w = this.zones.get(zone);
        if (w) this.refresh(zone, w);
      },
      inOneRound: (slice) => this.lookups.inOneRound(this.ctx.now(), slice),
      fault: this.fault,
      onWrite: (listener) => this.ctx.store.written.onWrite(listener),
    });
  }

  private current(zone: number): ZoneList {
    return this.lookups.zoneList(zone, this.ctx.now());
  }

  private watched(list: ZoneList): Watched {
    return { subscribers: new Set(), id: idOf(list), list, changes: [] };
  }

  /** How many open feeds (for tests and status). */
  get subscribers(): number {
    let n = 0;
    for (const w of this.zones.values()) n += w.subscribers.size;
    return n;
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
    const now = this.current(zone);
    let watched = this.zones.get(zone);
    if (!watched) {
      watched = this.watched(now);
      this.zones.set(zone, watched);
    } else this.refresh(zone, watched);
    const w = watched;
    let sub: Subscriber | undefined;
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
          mode,
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
            this.drop(zone, sub!);
            try {
              controller.close();
            } catch {}
          },
        };
        w.subscribers.add(sub);
        this.perCredential.set(credential, held + 1);
        this.start();
        // Tell the browser how soon to come back, then what it lacks of the list.
        controller.enqueue(encoder.encode("retry: 2000\n\n"));
        if (lastEventId === w.id) return;
        const missed =
          mode === "changes" && lastEventId !== null ? changesSince(w.changes, lastEventId) : null;
        controller.enqueue(
          missed
            ? changesEvent(lastEventId!, w.id, missed.added, missed.removed)
            : platesEvent(w.id, w.list.body),
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

  /**
   * Asks for the zone's list once (reused, patched or built) and, if it reads differently, sends
   * each subscriber either what changed or the whole list: two events encoded once for the zone,
   * whatever its subscribers.
   */
  private refresh(zone: number, w: Watched): void {
    let now: ZoneList;
    try {
      now = this.current(zone);
    } catch (e) {
      // Asked again at the next write or second; logged once while it lasts, never swallowed.
      this.fault.failed(e, isStoreUnavailable(e), { zone });
      return;
    }
    const id = idOf(now);
    if (id === w.id) return;
    // A list patched from the one sent last says itself what changed; any other is compared.
    const { added, removed } =
      now.change?.from === w.list.etag ? now.change : diffLists(w.list.plates, now.plates);
    w.changes.push({ from: w.id, to: id, added, removed });
    if (w.changes.length > CHANGES_KEPT) w.changes.shift();
    let changes: Uint8Array | undefined;
    let whole: Uint8Array | undefined;
    for (const s of w.subscribers) {
      if (s.mode === "changes") {
        changes ??= changesEvent(w.id, id, added, removed);
        s.send(changes);
      } else {
        whole ??= platesEvent(id, now.body);
        s.send(whole);
      }
    }
    w.id = id;
    w.list = now;
  }

  private start(): void {
    if (this.heartbeat) return;
    const comment = encoder.encode(": keep-alive\n\n");
    this.heartbeat = setInterval(() => {
      for (const w of this.zones.values()) for (const s of w.subscribers) s.send(comment);
    }, this.heartbeatMs);
    this.heartbeat.unref?.();
    // After this process's writes (the store's one notice) and every second, each watched zone's
    // answer is asked again: a version check where nothing it holds changed, a patch where something did.
    this.rounds.start();
  }

  private stop(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.rounds.stop();
  }
}
