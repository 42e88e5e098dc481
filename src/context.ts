import { type AppConfig, defaultConfig } from "./config.ts";
import { defaultReserveBytes } from "./domain/disk-room.ts";
import { RepeatedFault } from "./platform/fault-log.ts";
import { RequestAccounting } from "./platform/http/accounting.ts";
import { TrustedProxies } from "./platform/http/client-address.ts";
import { FailureLimiter, RateLimits, RequestRateLimiter } from "./platform/http/rate-limit.ts";
import type { TlsMaterial } from "./platform/http/tls.ts";
import { log, logError, logLine } from "./platform/log.ts";
import type { Metrics } from "./platform/metrics.ts";
import { OpenStreams } from "./platform/open-streams.ts";
import { processMetrics } from "./platform/process-metrics.ts";
import { isStoreUnavailable } from "./platform/store/connection.ts";
import type { Store } from "./platform/store/db.ts";
import { type StoreThread, startStoreThread } from "./platform/store/store-thread.ts";

export type { AppConfig } from "./config.ts";
export { defaultConfig, systemTimezone } from "./config.ts";

/** Something running beside the requests until the process stops. */
interface Job {
  name: string;
  stop(): void | Promise<void>;
}

/**
 * The platform a box's modules are built on, once per process (or per test): settings, clock,
 * store, metrics, the request limits, the open streams, and the background jobs `serve`
 * starts, held here and stopped through `stop()`. Module services are built by the modules'
 * entries (src/modules/<name>/index.ts) and wired in src/app.ts, never held here.
 */
export class AppContext {
  readonly config: AppConfig;
  /** Counters for GET /metrics: `ctx.metrics.ticketEvent(type, credential, at)`, `ctx.metrics.permitLookup(by)`. */
  readonly metrics: Metrics;
  readonly accounting: RequestAccounting;
  readonly limiter: FailureLimiter;
  readonly rateLimits: RateLimits;
  readonly trustedProxies: TrustedProxies;
  /** The URLs `serve` listens on (localhost first, then the LAN's), once it listens. */
  listening: readonly string[] = [];
  /** The certificate `serve` serves over HTTPS and its local CA; none on plain HTTP and in tests. */
  certificate: () => TlsMaterial | undefined = () => undefined;
  /**
   * Where live zone feeds and kiosk boards register, so that a shutdown ends them at once and the
   * status page counts them (what changed for them comes from the store's notes of writes).
   */
  readonly openStreams = new OpenStreams();
  private readonly jobs: Job[] = [];
  /** The store's thread (checkpoints, large counts), while `serve` runs it. */
  private thread: StoreThread | undefined;

  constructor(
    readonly store: Store,
    config: Partial<AppConfig> = {},
    readonly now: () => number = Date.now,
  ) {
    this.config = { ...defaultConfig(), ...config };
    const room = store.room();
    if (room)
      store.reserveBytes =
        this.config.diskReserveMb !== undefined
          ? this.config.diskReserveMb * 1_048_576
          : defaultReserveBytes(room.sizeBytes);
    this.metrics = processMetrics(store, now);
    this.accounting = new RequestAccounting(this.metrics);
    this.limiter = new FailureLimiter({ now });
    this.trustedProxies = new TrustedProxies(this.config.trustProxy);
    const perAddress = this.config.publicRateLimitPerSecond;
    this.rateLimits = new RateLimits(
      new RequestRateLimiter({
        perSecond: this.config.rateLimitPerSecond,
        burst: this.config.rateLimitBurst,
        now,
      }),
      new RequestRateLimiter({ perSecond: perAddress, burst: perAddress * 4, now }),
      this.trustedProxies,
      this.metrics,
    );
  }

  /** Keeps `stop` to run at shutdown (in reverse order of holding). */
  hold(name: string, stop: () => void | Promise<void>): void {
    this.jobs.push({ name, stop });
  }

  /**
   * What `serve` runs beside the requests for the store: WAL checkpoints on their own thread,
   * recovery of writes and a periodic garbage collection (docs/permits.md says why it stays). The modules' own
   * jobs are started by the composition root after these.
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
    const thread = await startStoreThread(this.store);
    this.thread = thread;
    this.hold("store thread", () => {
      this.thread = undefined;
      return thread.stop();
    });
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
  }

  /**
   * `sql` (a repository's count) on the store's thread while it runs, so that a count over a
   * million rows holds no request; on the event loop otherwise (tests, commands).
   */
  countOffLoop(sql: string, here: () => number): Promise<number> {
    return this.thread ? this.thread.count(sql) : Promise.resolve(here());
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
