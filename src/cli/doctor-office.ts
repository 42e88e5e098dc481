import type { Finding } from "../modules/operations/doctor/rules.ts";
import { checkCentralSchema } from "../modules/sync/central-schema.ts";
import {
  CentralConfigError,
  centralPassword,
  checkCentralUrl,
  connectCentral,
  redactedUrl,
} from "../modules/sync/connection.ts";

export interface OfficeLook {
  finding: Finding;
  /** This box's clock minus the office's, in ms (the round trip's midpoint); undefined when unreached. */
  skewMs?: number;
}

/**
 * Reaches the office's PostgreSQL as serve would (same URL, same password source), checks its
 * schema, and reads its clock. lastSync: when this box's sync cursors last moved.
 */
export async function lookAtOffice(
  url: string,
  passwordFile: string | undefined,
  lastSync: { push?: number; pull?: number },
  now: number,
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
        finding: { check, level: "fail", summary: e.message, fix: "correct --central / PARKD_CENTRAL" },
      };
    throw e;
  }
  const shown = redactedUrl(target.url);
  const sql = connectCentral(target, { max: 1 });
  let skewMs: number | undefined;
  try {
    const sent = Date.now();
    const [row] = (await sql`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms`) as {
      ms: number;
    }[];
    const back = Date.now();
    skewMs = Math.round((sent + back) / 2 - Number(row!.ms));
    const version = await checkCentralSchema(sql);
    const age = (at?: number) => (at === undefined ? "never" : `${Math.round((now - at) / 1000)} s ago`);
    return {
      skewMs,
      finding: {
        check,
        level: "ok",
        summary: `${shown} answers in ${back - sent} ms, central schema ${version}; this box last pushed ${age(lastSync.push)}, last pulled permits ${age(lastSync.pull)}`,
      },
    };
  } catch (e) {
    return {
      skewMs,
      finding: {
        check,
        level: "fail",
        summary: `${shown}: ${(e as Error).message}`,
        fix: "check the network to the office, the password (--central-password-file or PARKD_CENTRAL_PASSWORD), the office's pg_hba.conf, and that 'parkd central init' was run there",
      },
    };
  } finally {
    await sql.close({ timeout: 1 }).catch(() => {});
  }
}
