import { CredentialService } from "./credentials/service.ts";
import { FailureLimiter } from "./http/rate-limit.ts";
import { SessionStore } from "./modules/web/sessions.ts";
import { processMetrics } from "./operations/gauges.ts";
import type { Metrics } from "./operations/metrics.ts";
import { ZoneChanges } from "./platform/zone-changes.ts";
import type { Store } from "./store/db.ts";

/** Settings the request handlers read; `serve` fills them from flags and environment. */
export interface AppConfig {
  /** IANA zone of the site: fees, opening hours, day types, dates sent without an offset. */
  timezone: string;
  currency: string;
  /** check-tickets also returns permits that ended this many hours ago. */
  recentHours: number;
  retentionDays: number;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** A bearer token that may read /metrics only (besides admin credentials); unset: admin only. */
  metricsToken?: string;
  /**
   * Public holidays, priced like Sundays: dates "YYYY-MM-DD", and "SE" for the Swedish public
   * holidays of every year (src/tariff/holidays.ts). Default ["SE"].
   */
  holidays: readonly string[];
}

export function systemTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

export const defaultConfig = (): AppConfig => ({
  timezone: systemTimezone(),
  currency: "SEK",
  recentHours: 24,
  retentionDays: 90,
  bodyLimit: 64 * 1024,
  holidays: ["SE"],
});

/** Everything a feature needs, built once per process (or per test). */
export interface AppContext {
  store: Store;
  config: AppConfig;
  credentials: CredentialService;
  limiter: FailureLimiter;
  /** Counters for GET /metrics: `ctx.metrics.ticketEvent(type)`, `ctx.metrics.permitLookup(by)`. */
  metrics: Metrics;
  now: () => number;
  /** Browser sessions of the web app; the auth plugin accepts them like Bearer tokens. */
  sessions: SessionStore;
  /** Write paths say which zones they changed; the live zone feed listens. */
  zoneChanges: ZoneChanges;
}

export function createContext(
  store: Store,
  config: Partial<AppConfig> = {},
  now: () => number = Date.now,
): AppContext {
  const credentials = new CredentialService(store, now);
  return {
    store,
    config: { ...defaultConfig(), ...config },
    credentials,
    sessions: new SessionStore(credentials, now),
    zoneChanges: new ZoneChanges(),
    limiter: new FailureLimiter({ now }),
    metrics: processMetrics(store),
    now,
  };
}
