import type { AppConfig } from "../../config.ts";
import type { Store } from "../../platform/store/db.ts";

/** What the public reads need from the box: the lots, and the site's calendar and currency for quotes. */
export interface PublicDeps {
  store: Store;
  config: Pick<AppConfig, "timezone" | "currency" | "holidays">;
}
