import { CENTRAL_SCHEMA_VERSION, migrateCentral } from "../modules/sync/central-schema.ts";
import {
  CentralConfigError,
  centralPassword,
  checkCentralUrl,
  connectCentral,
  redactedUrl,
} from "../modules/sync/connection.ts";
import { type OptionSpec, stringOpt, UsageError } from "./args.ts";
import type { Command } from "./command.ts";
import { fail } from "./command.ts";

export const centralPasswordOption: OptionSpec = {
  name: "central-password-file",
  type: "string",
  valueName: "FILE",
  help: "file whose first line is the office database password (or set PARKD_CENTRAL_PASSWORD)",
};

const initCommand: Command = {
  name: "init",
  args: "postgres://USER@HOST:PORT/DB",
  summary: "Create the central (office) PostgreSQL schema, or bring it up to date, then exit",
  options: [centralPasswordOption],
  async run(v, positionals) {
    const text = positionals[0] ?? process.env.PARKD_CENTRAL;
    if (!text || positionals.length > 1)
      throw new UsageError("give one postgres:// URL (or set PARKD_CENTRAL)");
    let url: string;
    let password: string | undefined;
    try {
      url = checkCentralUrl(text);
      password = centralPassword(stringOpt(v, "central-password-file"), process.env.PARKD_CENTRAL_PASSWORD);
    } catch (e) {
      if (e instanceof CentralConfigError) throw new UsageError(e.message);
      throw e;
    }
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
  subcommands: [initCommand],
};
