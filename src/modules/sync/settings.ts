import { CentralConfigError, type CentralTarget, centralPassword, checkCentralUrl } from "./connection.ts";

/** What `serve --central` needs beyond the box's own settings. */
export interface SyncSettings {
  target: CentralTarget;
  site: string;
  /** Wait between pushes once caught up (default 1 s): longer means fewer, bigger commits. */
  pushIntervalMs?: number;
}

/** The office's CHECK on parkd.sites.site says the same. */
const SITE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkSite(site: string | undefined): string {
  if (site === undefined || site === "")
    throw new CentralConfigError("--central needs --site NAME: the id this box's rows carry at the office");
  if (!SITE.test(site))
    throw new CentralConfigError(
      "--site must be 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit",
    );
  return site;
}

/**
 * From the flags (or their PARKD_* variables): nothing when --central is not set; the password
 * from --central-password-file or PARKD_CENTRAL_PASSWORD, never from the URL.
 */
export function syncSettings(
  v: { central?: string; site?: string; passwordFile?: string; pushIntervalSeconds?: number },
  env: Record<string, string | undefined> = process.env,
): SyncSettings | undefined {
  if (v.central === undefined || v.central === "") {
    if (v.site !== undefined && v.site !== "") throw new CentralConfigError("--site goes with --central");
    return undefined;
  }
  const url = checkCentralUrl(v.central);
  const site = checkSite(v.site);
  const target = { url, password: centralPassword(v.passwordFile, env.PARKD_CENTRAL_PASSWORD) };
  const every = v.pushIntervalSeconds;
  return every === undefined ? { target, site } : { target, site, pushIntervalMs: every * 1000 };
}
