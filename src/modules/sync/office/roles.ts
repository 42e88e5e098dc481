import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import type { SQL } from "bun";
import { CentralConfigError } from "../connection.ts";
import { checkSite } from "../settings.ts";

/**
 * Each site's database role at the office: a login role, member of `parkd_boxes`, mapped to its
 * site in `parkd.site_roles`; the row-level security policies (db/central/0002_site_roles.sql)
 * let it read and write that site's rows only. Made by `parkd central add-site` as the owner.
 */

/** PostgreSQL's longest identifier, in bytes (NAMEDATALEN - 1). */
const MAX_ROLE_BYTES = 63;
const ROLE_PREFIX = "parkd_site_";

export function siteRoleName(site: string): string {
  checkSite(site);
  const role = ROLE_PREFIX + site;
  if (Buffer.byteLength(role) > MAX_ROLE_BYTES)
    throw new CentralConfigError(
      `site id "${site}" is too long for a database role (${ROLE_PREFIX}NAME is at most ${MAX_ROLE_BYTES} bytes): use a site id of at most ${MAX_ROLE_BYTES - ROLE_PREFIX.length} characters`,
    );
  return role;
}

/** A new site password: 256 random bits, URL-safe so it sits on one line of a file. */
export function newSitePassword(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The SCRAM-SHA-256 verifier PostgreSQL stores for a password (RFC 5802/7677, as libpq's
 * PQencryptPasswordConn makes it): the server only ever sees this, so the password itself is in
 * no statement, log line or pg_stat_activity row.
 */
export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(Buffer.from(password.normalize("NFKC"), "utf8"), salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}

export interface AddedSite {
  site: string;
  role: string;
  /** false: the site had its role already, whose password is now the one given. */
  created: boolean;
}

/**
 * Creates the site's role (or sets the password of the one it has) and its row in parkd.sites,
 * in one transaction. A role of that name that belongs to no site is left alone and refused.
 */
export async function addSite(sql: SQL, site: string, password: string): Promise<AddedSite> {
  const role = siteRoleName(site);
  if (password.length < 16) throw new CentralConfigError("a site's password must be at least 16 characters");
  // Site ids are letters, digits, '.', '_' and '-' (checkSite), and a verifier is base64 with
  // '$' and ':': neither can close the quotes they sit in. Role statements take no parameters.
  const verifier = scramVerifier(password);
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext('parkd central site roles'))`;
    const [mapped] = await tx`SELECT role_name FROM parkd.site_roles WHERE site = ${site}`;
    const [exists] = await tx`SELECT 1 AS x FROM pg_roles WHERE rolname = ${role}`;
    if (!mapped && exists)
      throw new CentralConfigError(
        `a database role "${role}" exists but belongs to no site: drop or rename it, or map it in parkd.site_roles`,
      );
    if (mapped) {
      await tx.unsafe(`ALTER ROLE "${role}" WITH LOGIN PASSWORD '${verifier}'`);
    } else {
      await tx.unsafe(`CREATE ROLE "${role}" WITH LOGIN PASSWORD '${verifier}'`);
      await tx.unsafe(`GRANT parkd_boxes TO "${role}"`);
      await tx`INSERT INTO parkd.site_roles (site, role_name) VALUES (${site}, ${role})`;
    }
    await tx`INSERT INTO parkd.sites (site) VALUES (${site}) ON CONFLICT (site) DO NOTHING`;
    return { site, role, created: !mapped };
  });
}

export class SiteRoleError extends Error {}

/**
 * Refuses to sync as a role that is not this site's: another site's role would write nothing
 * here (its policies), and the owner's or any other role would bypass the line between sites.
 */
export async function checkSiteRole(sql: SQL, site: string): Promise<void> {
  const [row] = await sql`SELECT current_user::text AS role, parkd.box_site() AS site`;
  const role = String(row?.role);
  if (row?.site === site) return;
  if (row?.site === null || row?.site === undefined)
    throw new SiteRoleError(
      `the office role "${role}" is not a site's role: run \`parkd central add-site ${site}\` with the owner's credentials and give this box the role and password it makes`,
    );
  throw new SiteRoleError(
    `the office role "${role}" is site "${row.site}"'s, but this box runs with --site ${site}: give it the role of site "${site}" (\`parkd central add-site ${site}\`)`,
  );
}
