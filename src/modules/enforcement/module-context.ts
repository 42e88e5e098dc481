import type { EnforcementDeps } from "./deps.ts";
import type { LookupRecorder } from "./lookup-recorder.ts";
import { ReadModel } from "./read-model/read-model.ts";

/** Inside the module: its dependencies and the services it built for itself. */
export interface EnforcementContext extends EnforcementDeps {
  lookupRecorder: LookupRecorder;
  /** What every lookup answers from, with the one cache of answers, kept current by the store's notes of writes. */
  readModel: ReadModel;
}

/** The read model, as the module builds it (tests build it alone). */
export function lookupServices(deps: Pick<EnforcementDeps, "store" | "config" | "now">) {
  return { readModel: new ReadModel(deps) };
}
