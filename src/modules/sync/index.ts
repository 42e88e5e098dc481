import { VERSION } from "../../version.ts";
import type { SyncDeps } from "./deps.ts";
import { CentralSync, type SyncOptions, type SyncStatus } from "./job.ts";
import { syncGauges } from "./metrics.ts";
import type { SyncSettings } from "./settings.ts";

export {
  CentralConfigError,
  centralPassword,
  checkCentralUrl,
  connectCentral,
  PLAINTEXT_LINK,
  redactedUrl,
  sslModeOf,
} from "./connection.ts";
export type { SyncDeps } from "./deps.ts";
export { CLOCK_AGREES_MS, officeClockSkew, skewText } from "./office/clock.ts";
export { officePositions, SiteClaimedError } from "./office/pushes.ts";
export { addSite, checkSiteRole, newSitePassword, SiteRoleError, siteRoleName } from "./office/roles.ts";
export {
  CENTRAL_SCHEMA_VERSION,
  CentralSchemaError,
  checkCentralSchema,
  migrateCentral,
} from "./office/schema.ts";
export { type SyncSettings, syncSettings } from "./settings.ts";

/** The office link of a box: started by `serve --central` (or a test), with its gauges on /metrics. */
export interface OfficeSync {
  /** Starts pushing to and pulling from the office in the background. */
  connect(settings: SyncSettings, tuning?: Partial<SyncOptions>): CentralSync;
  /** The link's state; undefined while there is none. */
  status(): SyncStatus | undefined;
  /** Connects when the box was configured with an office. */
  start(): void;
}

export function syncModule(deps: SyncDeps): OfficeSync {
  let sync: CentralSync | undefined;
  const connect = (settings: SyncSettings, tuning: Partial<SyncOptions> = {}): CentralSync => {
    const { pushIntervalMs, ...link } = settings;
    const started = new CentralSync({
      store: deps.store,
      ...link,
      idleMs: pushIntervalMs,
      version: VERSION,
      timeZone: deps.config.timezone,
      now: deps.now,
      // An office permit that ended is listed for --recent-hours, then never again.
      keepEndedMs: (deps.config.recentHours + 24) * 3_600_000,
      ...tuning,
    });
    for (const g of syncGauges(() => started.status())) deps.metrics.addGauges(g);
    started.start();
    sync = started;
    deps.hold("central sync", () => started.stop());
    return started;
  };
  return {
    connect,
    status: () => sync?.status(),
    start() {
      if (deps.config.central) connect(deps.config.central);
    },
  };
}
