import { Elysia } from "elysia";
import type { AppConfig } from "../../config.ts";
import type { AuthDeps } from "../../platform/http/auth.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Store } from "../../platform/store/db.ts";
import type { ZoneChanges } from "../../platform/zone-changes.ts";
import { enforcementContract } from "./contract.ts";
import type { CredentialState } from "./credential-watch.ts";
import { feedContract } from "./feed-contract.ts";
import { zoneFeedRoutes } from "./feed-routes.ts";
import { LookupRecorder } from "./lookup-recorder.ts";
import { enforcementRoutes } from "./routes.ts";

/** What the attendants' lookups need from the box. */
export interface EnforcementDeps {
  store: Store;
  now: () => number;
  config: Pick<AppConfig, "timezone" | "recentHours" | "graceMinutes">;
  metrics: Metrics;
  /** Which zones' permits changed (the live zone feed), and a way to end open feeds at shutdown. */
  zoneChanges: Pick<ZoneChanges, "listen" | "onClose">;
  auth: AuthDeps;
  /** Whether a credential holding a live feed still stands (the admin module's credentials). */
  credentialState: CredentialState;
}

/** Inside the module: its dependencies and the services it built for itself. */
export interface EnforcementContext extends EnforcementDeps {
  lookupRecorder: LookupRecorder;
}

export interface EnforcementModule extends AppModule {
  /** Every lookup's record, written in batches (tests flush it). */
  readonly lookupRecorder: LookupRecorder;
}

/** Lookups for attendants: check-tickets, the verdict, the zone list and its live feed. */
export function enforcementModule(deps: EnforcementDeps): EnforcementModule {
  const ctx: EnforcementContext = { ...deps, lookupRecorder: new LookupRecorder(deps.store, deps.metrics) };
  return {
    name: "enforcement",
    routes: new Elysia({ name: "enforcement-module" }).use(enforcementRoutes(ctx)).use(zoneFeedRoutes(ctx)),
    contracts: [enforcementContract, feedContract],
    lookupRecorder: ctx.lookupRecorder,
    // Stopped before the store's own jobs, so the last records are written while they still run.
    start: (hold) => hold("lookup records", () => ctx.lookupRecorder.stop()),
  };
}
