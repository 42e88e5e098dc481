import { Elysia } from "elysia";
import type { AppModule } from "../../platform/module.ts";
import { enforcementContract } from "./contract.ts";
import type { EnforcementDeps } from "./deps.ts";
import { zoneFeedRoutes } from "./feed-routes.ts";
import { LookupRecorder } from "./lookup-recorder.ts";
import { type EnforcementContext, lookupServices } from "./module-context.ts";
import { attendantNoticeContract } from "./notices/contract.ts";
import { noticeRoutes } from "./notices/routes.ts";
import { observationContract } from "./observations/contract.ts";
import { observationRoutes } from "./observations/routes.ts";
import { offlineCheckContract } from "./offline-checks/contract.ts";
import { offlineCheckRoutes } from "./offline-checks/routes.ts";
import type { ReadModel } from "./read-model/read-model.ts";
import { enforcementRoutes } from "./routes.ts";
import { Enforcement } from "./service.ts";

export type { EnforcementDeps } from "./deps.ts";
export { lookupServices } from "./module-context.ts";

export interface EnforcementModule extends AppModule {
  /** Every lookup's record, written in batches (tests flush it). */
  readonly lookupRecorder: LookupRecorder;
  readonly readModel: ReadModel;
}

/** Lookups for attendants: check-tickets, the verdict, the zone list and its live feed; notices they issue and cars they mark. */
export function enforcementModule(deps: EnforcementDeps): EnforcementModule {
  const ctx: EnforcementContext = {
    ...deps,
    lookupRecorder: new LookupRecorder(deps.store, deps.metrics),
    ...lookupServices(deps),
  };
  const enforcement = new Enforcement(ctx);
  return {
    name: "enforcement",
    routes: new Elysia({ name: "enforcement-module" })
      .use(enforcementRoutes(ctx, enforcement))
      .use(zoneFeedRoutes(ctx))
      .use(noticeRoutes(ctx))
      .use(observationRoutes(ctx))
      .use(offlineCheckRoutes(ctx)),
    contracts: [enforcementContract, attendantNoticeContract, observationContract, offlineCheckContract],
    lookupRecorder: ctx.lookupRecorder,
    readModel: ctx.readModel,
    start: (hold) => {
      ctx.readModel.keepCurrent(hold);
      // Stopped before the store's own jobs, so the last records are written while they still run.
      hold("lookup records", () => ctx.lookupRecorder.stop());
    },
  };
}
