import { CentralConfigError, type SyncSettings, syncSettings } from "../modules/sync/index.ts";
import { intOpt, type OptionSpec, type OptionValues, stringOpt, UsageError } from "./args.ts";
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
  {
    name: "central-push-interval",
    type: "string",
    valueName: "SECONDS",
    default: "1",
    help: "wait between pushes once caught up: longer means fewer, bigger commits at the office (for large fleets)",
  },
];

export function syncSettingsOf(v: OptionValues): SyncSettings | undefined {
  try {
    return syncSettings({
      central: stringOpt(v, "central"),
      site: stringOpt(v, "site"),
      passwordFile: stringOpt(v, "central-password-file"),
      pushIntervalSeconds: intOpt(v, "central-push-interval", 1, 3600),
    });
  } catch (e) {
    if (e instanceof CentralConfigError) throw new UsageError(e.message);
    throw e;
  }
}
