import type { AppModule } from "../../platform/module.ts";
import { intakeContract } from "./contract.ts";
import type { IntakeDeps } from "./deps.ts";
import { intakeRoutes } from "./routes.ts";
import { TicketIntake } from "./service.ts";

export type { IntakeDeps } from "./deps.ts";

/** Ticket event intake for terminals and parking apps. */
export function intakeModule(deps: IntakeDeps): AppModule {
  const intake = new TicketIntake(deps);
  return {
    name: "intake",
    routes: intakeRoutes(deps, intake),
    contracts: [intakeContract],
  };
}
