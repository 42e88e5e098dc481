import { Elysia } from "elysia";
import type { AppConfig } from "../../config.ts";
import type { AuthDeps } from "../../platform/http/auth.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { AppModule } from "../../platform/module.ts";
import type { OpenStreams } from "../../platform/open-streams.ts";
import type { Store } from "../../platform/store/db.ts";
import { enforcementContract } from "./contract.ts";
import type { CredentialState } from "./credential-watch.ts";
import { feedContract } from "./feed-contract.ts";
import { zoneFeedRoutes } from "./feed-routes.ts";
import { LookupRecorder } from "./lookup-recorder.ts";
import { PermitLookups } from "./lookups.ts";
import { attendantNoticeContract } from "./notices/contract.ts";
import { noticeRawBodies, noticeRoutes } from "./notices/routes.ts";
import { observationContract } from "./observations/contract.ts";
import { observationRoutes } from "./observations/routes.ts";
import { keepReadModelCurrent, LookupReadModel } from "./read-model.ts";
import { enforcementRoutes } from "./routes.ts";

/** What the attendants' lookups need from the box. */
export interface EnforcementDeps {
  store: Store;
  now: () => number;
  config: Pick<AppConfig, "timezone" | "recentHours" | "graceMinutes" | "currency">;
  metrics: Metrics;
  /** Where open feeds register, so that a shutdown ends them at once. */
  openStreams: Pick<OpenStreams, "onClose">;
  auth: AuthDeps;
  /** Whether a credential holding a live feed still stands (the admin module's credentials). */
  credentialState: CredentialState;
}

/** Inside the module: its dependencies and the services it built for itself. */
export interface EnforcementContext extends EnforcementDeps {
  lookupRecorder: LookupRecorder;
  /** What lookups answer from, kept current by the store's notes of writes. */
  readModel: LookupReadModel;
  /** check-tickets and the zone list, with the one cache of zone answers. */
  lookups: PermitLookups;
}

export interface EnforcementModule extends AppModule {
  /** Every lookup's record, written in batches (tests flush it). */
  readonly lookupRecorder: LookupRecorder;
  readonly readModel: LookupReadModel;
}

/** The read model and the lookups over it, as the module builds them (tests build them alone). */
export function lookupServices(deps: Pick<EnforcementDeps, "store" | "config" | "now">) {
  const readModel = new LookupReadModel(deps.store);
  return { readModel, lookups: new PermitLookups(deps, readModel) };
}

/** Lookups for attendants: check-tickets, the verdict, the zone list and its live feed; notices they issue and cars they mark. */
export function enforcementModule(deps: EnforcementDeps): EnforcementModule {
  const ctx: EnforcementContext = {
    ...deps,
    lookupRecorder: new LookupRecorder(deps.store, deps.metrics),
    ...lookupServices(deps),
  };
  return {
    name: "enforcement",
    routes: new Elysia({ name: "enforcement-module" })
      .use(enforcementRoutes(ctx))
      .use(zoneFeedRoutes(ctx))
      .use(noticeRoutes(ctx))
      .use(observationRoutes(ctx)),
    contracts: [enforcementContract, feedContract, attendantNoticeContract, observationContract],
    rawBodies: noticeRawBodies,
    lookupRecorder: ctx.lookupRecorder,
    readModel: ctx.readModel,
    start: (hold) => {
      keepReadModelCurrent(ctx, hold);
      // Stopped before the store's own jobs, so the last records are written while they still run.
      hold("lookup records", () => ctx.lookupRecorder.stop());
    },
  };
}
