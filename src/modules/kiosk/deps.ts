import type { AppConfig } from "../../config.ts";
import type { TrustedProxies } from "../../platform/http/client-address.ts";
import type { OpenStreams } from "../../platform/open-streams.ts";
import type { Store } from "../../platform/store/db.ts";

/** The lots and the counts the board shows, and what tells it that they changed. */
export type KioskStore = Pick<Store, "lots" | "reports" | "written">;

/** What the kiosk board needs from the box (it is public: no credentials). */
export interface KioskDeps {
  store: KioskStore;
  now: () => number;
  config: Pick<AppConfig, "timezone" | "currency" | "holidays">;
  /** Where open boards register, so that a shutdown ends them at once. */
  openStreams: Pick<OpenStreams, "onClose">;
  /** Who a board stream belongs to: streams are bounded per client address. */
  trustedProxies: Pick<TrustedProxies, "client">;
}
