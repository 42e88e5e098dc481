import { type AppConfig, defaultConfig } from "./config.ts";
import { CredentialService } from "./modules/admin/credentials/service.ts";
import { occupancyGauges } from "./modules/admin/occupancy/metrics.ts";
import { LookupRecorder } from "./modules/enforcement/lookup-recorder.ts";
import { scheduleRetention } from "./modules/operations/retention.ts";
import { CentralSync, type SyncOptions } from "./modules/sync/job.ts";
import { syncGauges } from "./modules/sync/metrics.ts";
import type { SyncSettings } from "./modules/sync/settings.ts";
import { SessionStore } from "./modules/web/sessions.ts";
import { RepeatedFault } from "./platform/fault-log.ts";
import { RequestAccounting } from "./platform/http/accounting.ts";
import { TrustedProxies } from "./platform/http/client-address.ts";
import { FailureLimiter, RequestRateLimiter } from "./platform/http/rate-limit.ts";
import { log, logError, logLine } from "./platform/log.ts";
import type { Metrics } from "./platform/metrics.ts";
import { processMetrics } from "./platform/process-metrics.ts";
import { startCheckpointer } from "./platform/store/checkpointer.ts";
import { isStoreUnavailable } from "./platform/store/connection.ts";
import type { Store } from "./platform/store/db.ts";
import { ZoneChanges } from "./platform/zone-changes.ts";
import { VERSION } from "./version.ts";

export type { AppConfig } from "./config.ts";
export { defaultConfig, systemTimezone } from "./config.ts";

/** Something running beside the requests until the process stops. */
interface Job {
  name: string;
  stop(): void | Promise<void>;
}

/**
 * Everything the features share, built once per process (or per test): settings, clock, store,
 * the services more than one feature calls, and the background jobs `serve` starts, which are
 * held here and stopped through `stop()`.
 */
export class AppContext {
  readonly config: AppConfig;
  /** Counters for GET /metrics: `ctx.metrics.ticketEvent(type, credential, at)`, `ctx.metrics.permitLookup(by)`. */
  readonly metrics: Metrics;
  readonly accounting: RequestAccounting;
  readonly credentials: CredentialService;
  readonly limiter: FailureLimiter;
  readonly rateLimiter: RequestRateLimiter;
  readonly trustedProxies: TrustedProxies;
  readonly lookupRecorder: LookupRecorder;
  /** The sync with the office, once started (`serve --central`). */
  sync: CentralSync | undefined;
  /** Browser sessions of the web app; the auth plugin accepts them like Bearer tokens. */
  readonly sessions: SessionStore;
  /** Write paths say which zones they changed; the live zone feed listens. */
  readonly zoneChanges = new ZoneChanges();
  private readonly jobs: Job[] = [];

  constructor(
    readonly store: Store,
    config: Partial<AppConfig> = {},
    readonly now: () => number = Date.now,
  ) {
    this.config = { ...defaultConfig(), ...config };
    this.metrics = processMetrics(store, now);
    this.accounting = new RequestAccounting(this.metrics);
    this.credentials = new CredentialService(store, now);
    this.limiter = new FailureLimiter({ now });
    this.rateLimiter = new RequestRateLimiter({
      perSecond: this.config.rateLimitPerSecond,
      burst: this.config.rateLimitBurst,
      now,
    });
    this.trustedProxies = new TrustedProxies(this.config.trustProxy);
    this.lookupRecorder = new LookupRecorder(store, this.metrics);
    this.sessions = new SessionStore(this.credentials, now);
    for (const g of occupancyGauges(this)) this.metrics.addGauges(g);
  }

  /** Keeps `stop` to run at shutdown (in reverse order of holding). */
  hold(name: string, stop: () => void | Promise<void>): void {
    this.jobs.push({ name, stop });
  }

  /**
   * What `serve` runs beside the requests: WAL checkpoints on their own thread, batched last-used
   * times, hourly retention, and a periodic garbage collection.
   */
  async startBackground(): Promise<void> {
    // Built here, once, when missing or made under other settings (a full pass over the tickets),
    // rather than by the first ticket event or report.
    const { timezone, currency } = this.config;
    // Logged only when there was something to count: a new, empty store says nothing. A store
    // that cannot take the write now (read-only, full) is served anyway; the first ticket event
    // or report builds the book once it can.
    try {
      const counted = this.store.reports.revenue.ensureBasis(timezone, currency, this.now());
      if (counted)
        logLine({ msg: "revenue book built from the tickets", tickets: counted, timezone, currency });
    } catch (e) {
      logError("building the revenue book failed; the first ticket event or report tries again", e);
    }
    const checkpointer = await startCheckpointer(this.store);
    this.hold("checkpointer", () => checkpointer.stop());
    this.credentials.startLastUsedFlush();
    this.hold("last-used times", () => this.credentials.stop());
    // A store opened while its file was write-protected moves to a writable connection as soon
    // as it can have one (Store.recoverWrites), so writes come back without a restart.
    const recoveryFault = new RepeatedFault("store recovery failed; retrying every 2 s");
    const recovery = setInterval(() => {
      try {
        if (this.store.recoverWrites(this.now())) log("notice", "store writable again");
        recoveryFault.recovered();
      } catch (e) {
        recoveryFault.failed(e, isStoreUnavailable(e));
      }
    }, 2_000);
    recovery.unref();
    this.hold("store recovery", () => clearInterval(recovery));
    const retention = scheduleRetention({
      store: this.store,
      now: this.now,
      retentionDays: this.config.retentionDays,
      onRun: (r) => {
        this.metrics.retentionDeletedRows("tickets", r.tickets);
        this.metrics.retentionDeletedRows("ticket_events", r.ticketEvents);
        this.metrics.retentionDeletedRows("permit_lookups", r.permitLookups);
        this.metrics.retentionDeletedRows("operator_changes", r.operatorChanges);
        if (r.tickets + r.ticketEvents + r.permitLookups + r.operatorChanges > 0)
          logLine({ msg: "retention", retentionDays: this.config.retentionDays, deleted: r });
      },
      onError: (e) => logError("retention run failed; retrying at the next run", e),
    });
    this.hold("retention", () => retention.stop());
    // Plate lookups answer from memory (LivePermits): read it in soon after start (not during
    // the first answers: it is a few hundred ms of reads, in slices) rather than at the first
    // lookup, and take in what intake wrote every second even while nobody looks.
    const liveFault = new RepeatedFault("reading the live permits failed; the next lookup tries again");
    const refresh = () => {
      try {
        this.store.live.update(this.now() - this.config.recentHours * 3_600_000);
        liveFault.recovered();
      } catch (e) {
        liveFault.failed(e, isStoreUnavailable(e));
      }
    };
    const warmUp = setTimeout(refresh, 500);
    const catchUp = setInterval(refresh, 1_000);
    catchUp.unref();
    this.hold("live permits", () => {
      clearTimeout(warmUp);
      clearInterval(catchUp);
    });
    // Big answers (the 500-lot list is ~600 KB) leave garbage faster than the engine collects
    // by itself; a full collection every few seconds keeps peak memory well under 200 MB at no
    // measurable cost in throughput (bench/results.md).
    const collector = setInterval(() => Bun.gc(true), 5_000);
    collector.unref();
    this.hold("garbage collection", () => clearInterval(collector));
    // Stopped first: the last records are written while the checkpointer still runs.
    this.hold("lookup records", () => this.lookupRecorder.stop());
    if (this.config.central) this.startSync(this.config.central);
  }

  /** Starts pushing to and pulling from the office in the background, with its gauges on /metrics. */
  startSync(settings: SyncSettings, tuning: Partial<SyncOptions> = {}): CentralSync {
    const { pushIntervalMs, ...link } = settings;
    const sync = new CentralSync({
      store: this.store,
      ...link,
      idleMs: pushIntervalMs,
      version: VERSION,
      timeZone: this.config.timezone,
      now: this.now,
      // An office permit that ended is listed for --recent-hours, then never again.
      keepEndedMs: (this.config.recentHours + 24) * 3_600_000,
      ...tuning,
    });
    for (const g of syncGauges(() => sync.status())) this.metrics.addGauges(g);
    sync.start();
    this.sync = sync;
    this.hold("central sync", () => sync.stop());
    return sync;
  }

  /** Stops every job, newest first; one that fails to stop is logged and the rest still stop. */
  async stop(): Promise<void> {
    while (this.jobs.length > 0) {
      const job = this.jobs.pop()!;
      try {
        await job.stop();
      } catch (e) {
        logError(`stopping ${job.name} failed`, e);
      }
    }
  }
}

export function createContext(store: Store, config: Partial<AppConfig> = {}, now?: () => number): AppContext {
  return new AppContext(store, config, now);
}
