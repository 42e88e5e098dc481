import type { AppConfig } from "../../config.ts";
import type { TrustedProxies } from "../../platform/http/client-address.ts";
import type { AppModule } from "../../platform/module.ts";
import type { OpenStreams } from "../../platform/open-streams.ts";
import type { Store } from "../../platform/store/db.ts";
import { kioskContract } from "./contract.ts";
import { kioskRoutes } from "./routes.ts";

/** What the kiosk board needs from the box (it is public: no credentials). */
export interface KioskDeps {
  store: Store;
  now: () => number;
  config: Pick<AppConfig, "timezone" | "currency" | "holidays">;
  /** Where open boards register, so that a shutdown ends them at once. */
  openStreams: Pick<OpenStreams, "onClose">;
  /** Who a board stream belongs to: streams are bounded per client address. */
  trustedProxies: Pick<TrustedProxies, "client">;
}

/** The kiosk board: free spaces and the next hour's price per lot, once or live. */
export function kioskModule(deps: KioskDeps): AppModule {
  return { name: "kiosk", routes: kioskRoutes(deps), contracts: [kioskContract] };
}
