import type { AppConfig } from "../../config.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Store } from "../../platform/store/db.ts";
import { publicContract } from "./contract.ts";
import { publicLotRoutes } from "./routes.ts";

/** What the public reads need from the box: the lots, and the site's calendar and currency for quotes. */
export interface PublicDeps {
  store: Store;
  config: Pick<AppConfig, "timezone" | "currency" | "holidays">;
}

/** For kiosks, apps and drivers: the parking lots with their fees and the price of a stay. */
export function publicModule(deps: PublicDeps): AppModule {
  return { name: "public", routes: publicLotRoutes(deps), contracts: [publicContract] };
}
