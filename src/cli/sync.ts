import type { AppContext } from "../context.ts";
import { CentralConfigError } from "../modules/sync/connection.ts";
import { CentralSync } from "../modules/sync/job.ts";
import { syncGauges } from "../modules/sync/metrics.ts";
import { type SyncSettings, syncSettings } from "../modules/sync/settings.ts";
import { VERSION } from "../version.ts";
import { type OptionSpec, type OptionValues, stringOpt, UsageError } from "./args.ts";
import { centralPasswordOption } from "./central.ts";

/** serve's flags for the office link; the password has no flag of its own on purpose. */
export const centralServeOptions: OptionSpec[] = [
  {
    name: "central",
    type: "string",
    valueName: "URL",
    help: "the office's PostgreSQL, postgres://USER@HOST:PORT/DB (no password in it): push this site's data there and pull office permits",
  },
  {
    name: "site",
    type: "string",
    valueName: "NAME",
    help: "this site's id at the office (with --central)",
  },
  centralPasswordOption,
];

export function syncSettingsOf(v: OptionValues): SyncSettings | undefined {
  try {
    return syncSettings({
      central: stringOpt(v, "central"),
      site: stringOpt(v, "site"),
      passwordFile: stringOpt(v, "central-password-file"),
    });
  } catch (e) {
    if (e instanceof CentralConfigError) throw new UsageError(e.message);
    throw e;
  }
}

/** Starts the background sync and its gauges on /metrics. */
export function startCentralSync(ctx: AppContext, settings: SyncSettings): CentralSync {
  const sync = new CentralSync({ store: ctx.store, ...settings, version: VERSION, now: ctx.now });
  for (const g of syncGauges(() => sync.status())) ctx.metrics.addGauges(g);
  sync.start();
  return sync;
}
