import type { SQL } from "bun";
import { RepeatedFault } from "../../platform/fault-log.ts";
import { log } from "../../platform/log.ts";
import { type CentralTarget, connectCentral, PLAINTEXT_LINK, redactedUrl, sslModeOf } from "./connection.ts";
import type { SyncStore } from "./deps.ts";
import { type PhotoCursor, photoCursorValue, SyncLocal } from "./local.ts";
import { CLOCK_AGREES_MS, officeClockSkew, skewText } from "./office/clock.ts";
import { notePull, pullPermits } from "./office/pulls.ts";
import {
  type PhotoFile,
  type PushCounts,
  photosHeld,
  pushBatch,
  pushPhotos,
  SiteClaimedError,
} from "./office/pushes.ts";
import { SiteRoleError } from "./office/roles.ts";
import { CentralSchemaError } from "./office/schema.ts";
import { photosBack, reconcile, verifyOffice } from "./reconcile.ts";

/** Rows (and photo files) sent to the office since the start, by kind: a push's rows, and photos. */
export type PushedCounts = PushCounts & { photos: number };

export const PUSHED_KINDS = [
  "events",
  "tickets",
  "lookups",
  "lots",
  "notices",
  "observations",
  "photos",
] as const satisfies readonly (keyof PushedCounts)[];

/** Why the office link last failed, as /readyz and doctor tell it apart. */
export type LinkFault = "role-not-site" | "site-claimed" | "schema" | "unreachable";

function faultOf(e: unknown): LinkFault {
  if (e instanceof SiteRoleError) return "role-not-site";
  if (e instanceof SiteClaimedError) return "site-claimed";
  if (e instanceof CentralSchemaError) return "schema";
  return "unreachable";
}

export interface SyncOptions {
  store: SyncStore;
  target: CentralTarget;
  /** The site id every row is tagged with at the office. */
  site: string;
  version: string;
  /** The site's IANA time zone, sent to the office for its reports. */
  timeZone?: string;
  now?: () => number;
  /** Events (and lookup records, notices, observations) per push. */
  batchSize?: number;
  /** Notice photo files per push, at most (they go after the rows, in a push of their own). */
  photoBatch?: number;
  /** Bytes of photo files per push, at most (a single larger file still goes, alone). */
  photoBatchBytes?: number;
  /** Wait between pushes once caught up. */
  idleMs?: number;
  pullIntervalMs?: number;
  /**
   * Once a round has failed, the next comes within this (between half of it and all of it): an
   * office that is back is found within about this long, where a doubling backoff left boxes
   * up to a minute behind it.
   */
  retryMs?: number;
  /** A push or pull that takes longer is abandoned and its connections dropped. */
  timeoutMs?: number;
  /** Pulled permits that ended this long ago are dropped (they are never listed again). */
  keepEndedMs?: number;
}

export interface SyncStatus {
  site: string;
  central: string;
  /** The link's TLS mode: false only where the URL says sslmode=disable. */
  encrypted: boolean;
  /** Whether the last push and pull reached the office. */
  reachable: boolean;
  pendingEvents: number;
  oldestPendingAgeSeconds: number;
  lastPushAt: number | null;
  lastPullAt: number | null;
  lastError: string | null;
  /** The kind of the last failure (null: none yet). */
  lastFault: LinkFault | null;
  lastErrorAt: number | null;
  errors: { push: number; pull: number };
  pushed: PushedCounts;
  /** Events sent again because the office no longer held them. */
  resentEvents: number;
  centralPermits: number;
  /** This box's clock minus the office's at the last pull (ms); null until one has read it. */
  clockSkewMs: number | null;
}

/**
 * The background sync with the office: a push loop (events, ticket states, lookup records, lots,
 * notices and marks in bounded batches, from the cursors in the local store, then the notices'
 * photo files on a budget of their own) and a pull loop (office permits for
 * this site). Both run beside the requests on the event loop and only ever read the store in
 * short snapshots, so intake and lookups never wait for the office. While it is unreachable
 * they back off exponentially; what was not sent stays in the store and goes when it is back.
 */
/**
 * The wait before the next try at an office that failed: a fixed probe, jittered over its second
 * half so a fleet that lost the office together does not come back in lockstep. One probe costs
 * the office a connection attempt; 5 s across a thousand boxes is 200 a second at most.
 */
export function retryWait(retryMs: number, random: () => number = Math.random): number {
  return retryMs / 2 + random() * (retryMs / 2);
}

export class CentralSync {
  private readonly o: Required<
    Omit<SyncOptions, "store" | "target" | "site" | "version" | "now" | "timeZone">
  >;
  private readonly local: SyncLocal;
  private readonly now: () => number;
  private sql: SQL | null = null;
  private running = false;
  private loops: Promise<void>[] = [];
  private wakers = new Set<() => void>();
  private reconciled = false;
  /** Schema and role checked since the last failed round (see verifyOffice). */
  private verified = false;
  /** Events up to this seq that go out again count as resent. */
  private resendUpTo = 0;
  private pushOk = false;
  private pullOk = false;
  /** One line when the office goes away, a summary a minute while it stays away, one when it is back. */
  private readonly faults = {
    push: new RepeatedFault("central sync: push to the office failed; retrying every few seconds"),
    pull: new RepeatedFault("central sync: pull from the office failed; retrying every few seconds"),
  };
  private readonly state = {
    lastPushAt: null as number | null,
    lastPullAt: null as number | null,
    lastError: null as string | null,
    lastFault: null as LinkFault | null,
    lastErrorAt: null as number | null,
    errors: { push: 0, pull: 0 },
    pushed: {
      events: 0,
      tickets: 0,
      lookups: 0,
      lots: 0,
      notices: 0,
      observations: 0,
      photos: 0,
    } as PushedCounts,
    resentEvents: 0,
    /** This box's clock minus the office's, at the last pull; null until one has read it. */
    clockSkewMs: null as number | null,
  };

  constructor(private readonly opts: SyncOptions) {
    this.local = new SyncLocal(opts.store);
    this.now = opts.now ?? Date.now;
    this.o = {
      batchSize: opts.batchSize ?? 500,
      photoBatch: opts.photoBatch ?? 20,
      // A push holds its files about three times over (the bytes, base64, the JSON): some 12 MB
      // at most on a small box, beside the requests it serves.
      photoBatchBytes: opts.photoBatchBytes ?? 4 * 1024 * 1024,
      idleMs: opts.idleMs ?? 1_000,
      pullIntervalMs: opts.pullIntervalMs ?? 30_000,
      retryMs: opts.retryMs ?? 5_000,
      timeoutMs: opts.timeoutMs ?? 60_000,
      keepEndedMs: opts.keepEndedMs ?? 7 * 86_400_000,
    };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = [
      this.loop("push", () => this.pushOnce(), this.o.idleMs),
      this.loop("pull", () => this.pullOnce().then(() => false), this.o.pullIntervalMs),
    ];
    const sslmode = sslModeOf(this.opts.target.url);
    log("info", "central sync started", {
      site: this.opts.site,
      central: redactedUrl(this.opts.target.url),
      sslmode,
    });
    // Said at every start, not once: a plaintext link should never become part of the furniture.
    if (sslmode === "disable") log("warning", PLAINTEXT_LINK, { site: this.opts.site });
  }

  /** Stops both loops; a push under way finishes or is cut off within a few seconds. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const wake of this.wakers) wake();
    const all = Promise.allSettled(this.loops);
    const cut = await Promise.race([all.then(() => false), Bun.sleep(3_000).then(() => true)]);
    await this.disconnect();
    if (cut) await all;
  }

  private client(): SQL {
    this.sql ??= connectCentral(this.opts.target);
    return this.sql;
  }

  private async disconnect(): Promise<void> {
    const sql = this.sql;
    this.sql = null;
    await sql?.close({ timeout: 0 }).catch(() => {});
  }

  /** Runs `round` until stopped: again at once while it reports more work, else after `idle`. */
  private async loop(kind: "push" | "pull", round: () => Promise<boolean>, idle: number): Promise<void> {
    while (this.running) {
      let wait = idle;
      try {
        const more = await this.withTimeout(round());
        this.faults[kind].recovered({ direction: kind });
        if (more) wait = 0;
      } catch (e) {
        if (!this.running) break;
        this.failed(kind, e);
        wait = retryWait(this.o.retryMs);
      }
      if (wait > 0) await this.sleep(wait);
    }
  }

  private failed(kind: "push" | "pull", e: unknown): void {
    this.state.errors[kind]++;
    if (kind === "push") this.pushOk = false;
    else {
      this.pullOk = false;
      // Not known while the office is out of reach: /readyz lists no stale difference.
      this.state.clockSkewMs = null;
    }
    this.reconciled = false;
    this.verified = false;
    const message = (e as Error)?.message ?? String(e);
    // An office out of reach or refusing is expected (the box works on); the message says which.
    this.faults[kind].failed(e, true, { direction: kind });
    this.state.lastError = message;
    this.state.lastFault = faultOf(e);
    this.state.lastErrorAt = this.now();
  }

  private async withTimeout<T>(p: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // A link that stalls without failing: drop the pool so the next round starts afresh.
        void this.disconnect();
        reject(new Error(`the office did not answer within ${this.o.timeoutMs} ms`));
      }, this.o.timeoutMs);
    });
    try {
      return await Promise.race([p, limit]);
    } finally {
      clearTimeout(timer);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (!this.running) return resolve();
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  /** One push; true when a full batch went (more may wait). */
  async pushOnce(): Promise<boolean> {
    const sql = this.client();
    if (!this.verified) await verifyOffice(sql, this.opts.site);
    this.verified = true;
    if (!this.reconciled)
      this.resendUpTo = Math.max(
        this.resendUpTo,
        await reconcile(sql, this.local, this.opts.site, this.now()),
      );
    this.reconciled = true;
    const more = await this.pushRows(sql);
    // The files after the rows that name them: the office never holds a file no notice names.
    const morePhotos = await this.pushPhotoFiles(sql);
    this.state.lastPushAt = this.now();
    this.pushOk = true;
    return more || morePhotos;
  }

  /** One batch of rows; true when one kind filled it (more may wait) or it must go again. */
  private async pushRows(sql: SQL): Promise<boolean> {
    const batch = this.local.batch(this.o.batchSize);
    const nothing =
      batch.events.length === 0 &&
      batch.lookups.length === 0 &&
      batch.lots === null &&
      batch.notices.length === 0 &&
      batch.observations.length === 0;
    if (nothing) return false;
    const box = {
      site: this.opts.site,
      boxId: this.local.boxId(this.now()),
      version: this.opts.version,
      timeZone: this.opts.timeZone,
    };
    const pushed = await pushBatch(sql, box, batch);
    if (pushed.gap) {
      // The office lost rows the box had sent (checked in the push's own transaction, so a
      // restore or failover that no failed round revealed is caught too): send them again.
      const gap = pushed.gap;
      const back: Record<string, string> = {};
      for (const k of ["events", "lookups", "notices", "observations"] as const)
        if (gap[k] < batch.after[k]) back[k] = String(gap[k]);
      if (back.notices !== undefined) back.photos = photosBack(this.local, gap.notices);
      this.local.setCursors(back, this.now());
      this.resendUpTo = Math.max(this.resendUpTo, batch.after.events);
      log("notice", "central sync: the office lacks rows sent before; sending them again", {
        events_from: gap.events,
        events_to: batch.after.events,
        lookups_from: gap.lookups,
        lookups_to: batch.after.lookups,
        notices_from: gap.notices,
        notices_to: batch.after.notices,
        observations_from: gap.observations,
        observations_to: batch.after.observations,
      });
      return true;
    }
    const counts = pushed.stored;
    if (pushed.clashes.length > 0)
      log("warning", "central sync: the office holds these notice numbers under other notices; kept aside", {
        numbers: pushed.clashes.join(","),
        table: "parkd.notice_number_clashes",
      });
    for (const e of batch.events) if (e.seq <= this.resendUpTo) this.state.resentEvents++;
    const cursors: Record<string, string> = {};
    if (batch.events.length > 0) cursors.events = String(batch.events[batch.events.length - 1]!.seq);
    if (batch.lookups.length > 0) cursors.lookups = String(batch.lookups[batch.lookups.length - 1]!.id);
    if (batch.lots) cursors.lots = batch.lots.fingerprint;
    if (batch.notices.length > 0) cursors.notices = String(batch.notices[batch.notices.length - 1]!.syncSeq);
    if (batch.observations.length > 0)
      cursors.observations = String(batch.observations[batch.observations.length - 1]!.id);
    // Stored after the office committed: a crash in between sends the batch again, harmlessly.
    this.local.setCursors(cursors, this.now());
    for (const k of ["events", "tickets", "lookups", "lots", "notices", "observations"] as const)
      this.state.pushed[k] += counts[k];
    const size = this.o.batchSize;
    return (
      batch.events.length >= size ||
      batch.lookups.length >= size ||
      batch.notices.length >= size ||
      batch.observations.length >= size
    );
  }

  /**
   * The next photo files the office lacks, up to the per-push budget (count and bytes), in the
   * order of their notices' writes; the cursor moves past the ones sent, the ones the office had
   * and the ones retention removed since. True when the budget stopped it (more may wait).
   */
  private async pushPhotoFiles(sql: SQL): Promise<boolean> {
    const candidates = this.local.photoCandidates(this.o.photoBatch * 4);
    if (candidates.length === 0) return false;
    const held = await photosHeld(sql, this.opts.site, [...new Set(candidates.map((p) => p.hash))]);
    const files: PhotoFile[] = [];
    const going = new Set<string>();
    let bytes = 0;
    let upTo: PhotoCursor | null = null;
    let full = false;
    for (const p of candidates) {
      if (!held.has(p.hash) && !going.has(p.hash)) {
        if (
          files.length >= this.o.photoBatch ||
          (files.length > 0 && bytes + p.bytes > this.o.photoBatchBytes)
        ) {
          full = true;
          break;
        }
        const data = this.local.photoFile(p.hash);
        if (data) {
          files.push({ hash: p.hash, contentType: p.contentType, data });
          going.add(p.hash);
          bytes += data.byteLength;
        }
      }
      upTo = { seq: p.syncSeq, hash: p.hash };
    }
    await pushPhotos(sql, this.opts.site, files);
    if (upTo) this.local.setCursors({ photos: photoCursorValue(upTo) }, this.now());
    this.state.pushed.photos += files.length;
    return full || candidates.length >= this.o.photoBatch * 4;
  }

  /** Pushes until caught up (for tests and shutdown); returns the events sent. */
  async pushAll(): Promise<number> {
    const before = this.state.pushed.events;
    while (await this.pushOnce()) {}
    return this.state.pushed.events - before;
  }

  /** One pull of office permits into the local store. */
  async pullOnce(): Promise<void> {
    const sql = this.client();
    if (!this.verified) await verifyOffice(sql, this.opts.site);
    this.verified = true;
    const from = this.local.cursor("permits") ?? "0";
    const r = await pullPermits(sql, this.opts.site, from);
    const now = this.now();
    this.local.applyPull(r.keep, r.drop, r.horizon, now - this.o.keepEndedMs, now);
    await notePull(sql, this.opts.site, this.local.boxId(now));
    // The permits are in: a clock that cannot be read leaves the pull a success, the figure unknown.
    try {
      this.noteClock(await officeClockSkew(sql, this.now));
    } catch {
      this.state.clockSkewMs = null;
    }
    if (r.rejected > 0)
      log("warning", "central sync: office permits the box cannot serve were skipped", { count: r.rejected });
    this.state.lastPullAt = now;
    this.pullOk = true;
  }

  /** Logs once when the clocks stop agreeing, and once when they agree again. */
  private noteClock(skewMs: number): void {
    const before = this.state.clockSkewMs;
    this.state.clockSkewMs = skewMs;
    const off = Math.abs(skewMs) > CLOCK_AGREES_MS;
    const wasOff = before !== null && Math.abs(before) > CLOCK_AGREES_MS;
    if (off && !wasOff)
      log(
        "warning",
        `this box's clock is ${skewText(skewMs)}: tickets and permits look active or ended at the wrong time by that much; turn on time sync (timedatectl set-ntp true)`,
        { site: this.opts.site, clockSkewMs: skewMs },
      );
    else if (!off && wasOff)
      log("notice", `this box's clock agrees with the office's again (${skewText(skewMs)})`, {
        site: this.opts.site,
        clockSkewMs: skewMs,
      });
  }

  status(): SyncStatus {
    const pending = this.local.pending();
    const now = this.now();
    return {
      site: this.opts.site,
      central: redactedUrl(this.opts.target.url),
      encrypted: sslModeOf(this.opts.target.url) !== "disable",
      reachable: this.pushOk && this.pullOk,
      pendingEvents: pending.events,
      oldestPendingAgeSeconds:
        pending.oldestReceivedAt === null ? 0 : Math.max(0, (now - pending.oldestReceivedAt) / 1000),
      lastPushAt: this.state.lastPushAt,
      lastPullAt: this.state.lastPullAt,
      lastError: this.state.lastError,
      lastFault: this.state.lastFault,
      lastErrorAt: this.state.lastErrorAt,
      errors: { ...this.state.errors },
      pushed: { ...this.state.pushed },
      resentEvents: this.state.resentEvents,
      centralPermits: this.local.centralPermitCount(),
      clockSkewMs: this.state.clockSkewMs,
    };
  }
}
