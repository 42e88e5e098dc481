import type { AppModule } from "../../platform/module.ts";
import { intakeContract } from "./contract.ts";
import type { IntakeDeps } from "./deps.ts";
import { intakeRoutes } from "./routes.ts";

export type { IntakeDeps } from "./deps.ts";

/** Ticket event intake for terminals and parking apps. */
export function intakeModule(deps: IntakeDeps): AppModule {
  return { name: "intake", routes: intakeRoutes(deps), contracts: [intakeContract] };
}
