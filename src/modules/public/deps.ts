import type { AppConfig } from "../../config.ts";
import type { Store } from "../../platform/store/db.ts";

/** The lots, and what tells the cached list that they changed. */
export type PublicStore = Pick<Store, "lots" | "written">;

/** What the public reads need from the box: the lots, and the site's calendar and currency for quotes. */
export interface PublicDeps {
  store: PublicStore;
  config: Pick<AppConfig, "timezone" | "currency" | "holidays">;
}
