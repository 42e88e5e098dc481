import { openStore, SCHEMA_VERSION } from "../platform/store/db.ts";
import { COMMIT, TARGET, VERSION } from "../version.ts";
import { stringOpt } from "./args.ts";
import { centralCommand } from "./central.ts";
import { type Command, dataDirOption, upgradeText } from "./command.ts";
import { tokenCommand, userCommand } from "./credentials.ts";
import { doctorCommand } from "./doctor.ts";
import { lotsCommand } from "./lots.ts";
import { backupCommand, purgeCommand, restoreCommand } from "./operations.ts";
import { serveCommand } from "./serve.ts";
import { tlsCommand } from "./tls.ts";

const migrateCommand: Command = {
  name: "migrate",
  summary: "Create the store or bring its schema up to date, then exit",
  options: [dataDirOption],
  run(v) {
    const store = openStore(stringOpt(v, "data-dir") ?? "./data");
    const applied = store.schemaVersion();
    store.close();
    if (store.upgrade) process.stderr.write(`${upgradeText(store.upgrade)}\n`);
    process.stderr.write(`store ${store.path} is at schema version ${applied}\n`);
    return 0;
  },
};

const versionCommand: Command = {
  name: "version",
  summary: "Print version, target, commit and schema version",
  run() {
    process.stdout.write(
      `parkd ${VERSION} (commit ${COMMIT}, schema ${SCHEMA_VERSION}, bun ${Bun.version}, ${TARGET})\n`,
    );
    return 0;
  },
};

export const rootCommand: Command = {
  name: "parkd",
  summary:
    "Parking ticket and permit service. Every flag can also be set as PARKD_<FLAG> (e.g. PARKD_DATA_DIR).",
  subcommands: [
    serveCommand,
    tokenCommand,
    userCommand,
    lotsCommand,
    backupCommand,
    restoreCommand,
    purgeCommand,
    migrateCommand,
    doctorCommand,
    tlsCommand,
    centralCommand,
    versionCommand,
  ],
};
