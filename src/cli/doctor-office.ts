import {
  CentralConfigError,
  CentralSchemaError,
  centralPassword,
  checkCentralSchema,
  checkCentralUrl,
  checkSiteRole,
  connectCentral,
  officeClockSkew,
  officePositions,
  PLAINTEXT_LINK,
  redactedUrl,
  SiteClaimedError,
  SiteRoleError,
  sslModeOf,
} from "../modules/sync/index.ts";
import { conditionFinding, type Finding } from "./doctor/rules.ts";

export interface OfficeLook {
  findings: Finding[];
  /** This box's clock minus the office's, in ms (the round trip's midpoint); undefined when unreached. */
  skewMs?: number;
}

/**
 * Reaches the office's PostgreSQL as serve would (same URL, same password source, same TLS
 * mode), checks its schema, that the role is this site's and that no other box holds the site
 * id (what serve's sync refuses on), and reads its clock. Reads only. lastSync: when this box's
 * sync cursors last moved; boxId: the id this box's store holds at the office (none yet: undefined).
 */
export async function lookAtOffice(
  url: string,
  passwordFile: string | undefined,
  lastSync: { push?: number; pull?: number },
  now: number,
  site?: string,
  boxId?: string,
): Promise<OfficeLook> {
  const check = "office link";
  let target: { url: string; password?: string };
  try {
    target = {
      url: checkCentralUrl(url),
      password: centralPassword(passwordFile, process.env.PARKD_CENTRAL_PASSWORD),
    };
  } catch (e) {
    if (e instanceof CentralConfigError)
      return {
        findings: [
          {
            check,
            level: "fail",
            summary: `${e.message}: serve refuses to start`,
            fix: "correct --central / PARKD_CENTRAL",
          },
        ],
      };
    throw e;
  }
  const shown = redactedUrl(target.url);
  const findings: Finding[] =
    sslModeOf(target.url) === "disable"
      ? [conditionFinding("office-plaintext", `${shown}: ${PLAINTEXT_LINK}`)]
      : [];
  const sql = connectCentral(target, { max: 1 });
  let skewMs: number | undefined;
  try {
    const sent = Date.now();
    skewMs = await officeClockSkew(sql, Date.now);
    const back = Date.now();
    const version = await checkCentralSchema(sql);
    if (site !== undefined) {
      await checkSiteRole(sql, site);
      await officePositions(sql, site, boxId ?? "");
    }
    const age = (at?: number) => (at === undefined ? "never" : `${Math.round((now - at) / 1000)} s ago`);
    findings.push({
      check,
      level: "ok",
      summary: `${shown} answers in ${back - sent} ms, central schema ${version}${site ? `, role and site id ${site} this box's` : ""}; this box last pushed ${age(lastSync.push)}, last pulled permits ${age(lastSync.pull)}`,
    });
  } catch (e) {
    const seen = `${shown}: ${(e as Error).message}`;
    const at = { site };
    findings.push(
      e instanceof SiteRoleError
        ? conditionFinding("office-role-not-site", seen, at)
        : e instanceof SiteClaimedError
          ? conditionFinding("office-site-claimed", seen, at)
          : e instanceof CentralSchemaError
            ? conditionFinding("office-schema", seen, at)
            : conditionFinding("office-unreachable", seen, at),
    );
  } finally {
    await sql.close({ timeout: 1 }).catch(() => {});
  }
  return { skewMs, findings };
}
