import { closeSync, existsSync, openSync, rmSync, writeSync } from "node:fs";
import {
  addSite,
  CENTRAL_SCHEMA_VERSION,
  CentralConfigError,
  centralPassword,
  checkCentralSchema,
  checkCentralUrl,
  connectCentral,
  migrateCentral,
  newSitePassword,
  redactedUrl,
  siteRoleName,
} from "../modules/sync/index.ts";
import { type OptionSpec, type OptionValues, stringOpt, UsageError } from "./args.ts";
import type { Command } from "./command.ts";
import { fail } from "./command.ts";

export const centralPasswordOption: OptionSpec = {
  name: "central-password-file",
  type: "string",
  valueName: "FILE",
  help: "file whose first line is the office database password (or set PARKD_CENTRAL_PASSWORD)",
};

/** Where a box keeps its office password (docs/central.md, deploy/debian/parkd.env). */
export const BOX_PASSWORD_FILE = "/etc/parkd/central-password";

/** The office URL (a positional or PARKD_CENTRAL) and the owner's password, checked. */
function officeTarget(v: OptionValues, text: string | undefined): { url: string; password?: string } {
  if (!text) throw new UsageError("give one postgres:// URL (or set PARKD_CENTRAL)");
  try {
    return {
      url: checkCentralUrl(text),
      password: centralPassword(stringOpt(v, "central-password-file"), process.env.PARKD_CENTRAL_PASSWORD),
    };
  } catch (e) {
    if (e instanceof CentralConfigError) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * The site's password: the first line of FILE when it exists, else a new random one written to
 * FILE (0600, never over an existing file). Returns it and whether it was made here.
 */
function sitePassword(file: string): { password: string; made: boolean } {
  if (existsSync(file)) {
    try {
      return { password: centralPassword(file, undefined)!, made: false };
    } catch (e) {
      throw new UsageError((e as Error).message.replace("--central-password-file", "--site-password-file"));
    }
  }
  const password = newSitePassword();
  let fd: number;
  try {
    fd = openSync(file, "wx", 0o600);
  } catch (e) {
    throw new UsageError(`cannot create --site-password-file ${file}: ${(e as Error).message}`);
  }
  try {
    writeSync(fd, `${password}\n`);
  } finally {
    closeSync(fd);
  }
  return { password, made: true };
}

const addSiteCommand: Command = {
  name: "add-site",
  args: "NAME postgres://OWNER@HOST:PORT/DB",
  summary:
    "Create a site's database role at the office (run with the schema owner's credentials); its box logs in with it",
  options: [
    centralPasswordOption,
    {
      name: "site-password-file",
      type: "string",
      valueName: "FILE",
      help: "the site role's password: read from FILE's first line if it exists, else a new random one is written there (0600)",
    },
  ],
  async run(v, positionals) {
    const [site, text, ...extra] = positionals;
    if (!site || extra.length > 0) throw new UsageError("give the site id, then one postgres:// URL");
    let role: string;
    try {
      role = siteRoleName(site);
    } catch (e) {
      if (e instanceof CentralConfigError) throw new UsageError(e.message);
      throw e;
    }
    const file = stringOpt(v, "site-password-file");
    if (!file)
      throw new UsageError("--site-password-file FILE is required: the site's password is kept there");
    const target = officeTarget(v, text ?? process.env.PARKD_CENTRAL);
    const { password, made } = sitePassword(file);
    const sql = connectCentral(target, { max: 1 });
    try {
      await checkCentralSchema(sql);
      const r = await addSite(sql, site, password);
      const where = new URL(target.url);
      where.username = role;
      process.stderr.write(
        `${r.created ? "created" : "set the password of"} role ${role} for site ${site} at ${redactedUrl(target.url)}` +
          ` (password ${made ? "written to" : "read from"} ${file}; copy it to the box as ${BOX_PASSWORD_FILE}, 0640 root:parkd)\n`,
      );
      // The box's own lines for /etc/parkd/parkd.env: the path is where the box keeps the file,
      // not where this office-side run wrote it.
      process.stdout.write(
        `PARKD_CENTRAL=${where.toString()}\nPARKD_SITE=${site}\nPARKD_CENTRAL_PASSWORD_FILE=${BOX_PASSWORD_FILE}\n`,
      );
      return 0;
    } catch (e) {
      // A password made for a role that was not made is no one's: it goes, so that a run again
      // does not take it for the role's.
      if (made) rmSync(file, { force: true });
      return fail(
        `central add-site ${site} against ${redactedUrl(target.url)} failed: ${(e as Error).message}`,
      );
    } finally {
      await sql.close({ timeout: 1 }).catch(() => {});
    }
  },
};

const initCommand: Command = {
  name: "init",
  args: "postgres://USER@HOST:PORT/DB",
  summary: "Create the central (office) PostgreSQL schema, or bring it up to date, then exit",
  options: [centralPasswordOption],
  async run(v, positionals) {
    if (positionals.length > 1) throw new UsageError("give one postgres:// URL (or set PARKD_CENTRAL)");
    const { url, password } = officeTarget(v, positionals[0] ?? process.env.PARKD_CENTRAL);
    const sql = connectCentral({ url, password }, { max: 1 });
    try {
      const r = await migrateCentral(sql);
      process.stderr.write(
        r.applied.length === 0
          ? `central schema at ${redactedUrl(url)} is up to date (version ${r.to})\n`
          : `central schema at ${redactedUrl(url)}: version ${r.from} -> ${r.to} (applied ${r.applied.join(", ")})\n`,
      );
      return 0;
    } catch (e) {
      return fail(`central init against ${redactedUrl(url)} failed: ${(e as Error).message}`);
    } finally {
      await sql.close({ timeout: 1 }).catch(() => {});
    }
  },
};

export const centralCommand: Command = {
  name: "central",
  summary: `The office's PostgreSQL that every site's box syncs with (schema version ${CENTRAL_SCHEMA_VERSION})`,
  subcommands: [initCommand, addSiteCommand],
};
