import type { AppModule } from "../../platform/module.ts";
import { publicContract } from "./contract.ts";
import type { PublicDeps } from "./deps.ts";
import { publicLotRoutes } from "./routes.ts";

export type { PublicDeps } from "./deps.ts";

/** For kiosks, apps and drivers: the parking lots with their fees and the price of a stay. */
export function publicModule(deps: PublicDeps): AppModule {
  return { name: "public", routes: publicLotRoutes(deps), contracts: [publicContract] };
}
