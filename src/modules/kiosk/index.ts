import type { AppModule } from "../../platform/module.ts";
import { kioskContract } from "./contract.ts";
import type { KioskDeps } from "./deps.ts";
import { kioskRoutes } from "./routes.ts";

export type { KioskDeps } from "./deps.ts";

/** The kiosk board: free spaces and the next hour's price per lot, once or live. */
export function kioskModule(deps: KioskDeps): AppModule {
  return { name: "kiosk", routes: kioskRoutes(deps), contracts: [kioskContract] };
}
