import type { AppConfig } from "../../config.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { JobHolder } from "../../platform/module.ts";
import type { Store } from "../../platform/store/db.ts";

/** What the sync reads to push and writes when it pulls. */
export type SyncStore = Pick<
  Store,
  | "syncCursors"
  | "ticketSync"
  | "lookups"
  | "lots"
  | "permits"
  | "notices"
  | "observations"
  | "photos"
  | "transaction"
>;

/** What the sync with the office needs from the box. */
export interface SyncDeps {
  store: SyncStore;
  now: () => number;
  config: Pick<AppConfig, "timezone" | "recentHours" | "central">;
  metrics: Pick<Metrics, "addGauges">;
  /** Where a started sync is held to be stopped at shutdown. */
  hold: JobHolder;
}
