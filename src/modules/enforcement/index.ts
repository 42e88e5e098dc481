import { Elysia } from "elysia";
import type { AppModule } from "../../platform/module.ts";
import { enforcementContract } from "./contract.ts";
import type { EnforcementContext, EnforcementDeps } from "./deps.ts";
import { feedContract } from "./feed-contract.ts";
import { zoneFeedRoutes } from "./feed-routes.ts";
import { LookupRecorder } from "./lookup-recorder.ts";
import { PermitLookups } from "./lookups.ts";
import { attendantNoticeContract } from "./notices/contract.ts";
import { noticeRawBodies, noticeRoutes } from "./notices/routes.ts";
import { keepReadModelCurrent, LookupReadModel } from "./read-model.ts";
import { enforcementRoutes } from "./routes.ts";

export type { EnforcementDeps } from "./deps.ts";

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

/** Lookups for attendants: check-tickets, the verdict, the zone list and its live feed; notices they issue. */
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
      .use(noticeRoutes(ctx)),
    contracts: [enforcementContract, feedContract, attendantNoticeContract],
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
