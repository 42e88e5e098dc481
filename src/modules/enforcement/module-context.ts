import type { EnforcementDeps } from "./deps.ts";
import type { LookupRecorder } from "./lookup-recorder.ts";
import { PermitLookups } from "./lookups.ts";
import { LookupReadModel } from "./read-model.ts";

/** Inside the module: its dependencies and the services it built for itself. */
export interface EnforcementContext extends EnforcementDeps {
  lookupRecorder: LookupRecorder;
  /** What lookups answer from, kept current by the store's notes of writes. */
  readModel: LookupReadModel;
  /** check-tickets and the zone list, with the one cache of zone answers. */
  lookups: PermitLookups;
}

/** The read model and the lookups over it, as the module builds them (tests build them alone). */
export function lookupServices(deps: Pick<EnforcementDeps, "store" | "config" | "now">) {
  const readModel = new LookupReadModel(deps.store);
  return { readModel, lookups: new PermitLookups(deps, readModel) };
}
