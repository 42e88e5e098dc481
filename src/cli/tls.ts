import { existsSync } from "node:fs";
import { boxNames, permittedNamesText, replaceLocalCa } from "../platform/http/tls.ts";
import { storePath } from "../platform/store/db.ts";
import { stringOpt } from "./args.ts";
import { type Command, dataDirOption, fail } from "./command.ts";
import { publicUrlOpt, publicUrlOption } from "./serve-addresses.ts";
import { tlsDomainsOpt, tlsDomainsOption } from "./serve-tls.ts";

const newCaCommand: Command = {
  name: "new-ca",
  summary:
    "Make a new local CA, constrained to the site's names, and issue the served certificate from it (the old files are kept aside; every handheld must install the new CA)",
  options: [dataDirOption, tlsDomainsOption, publicUrlOption],
  async run(v, positionals) {
    if (positionals.length)
      return fail("usage: parkd tls new-ca [--tls-domains DOMAIN,...] [--public-url URL]", 2);
    const dataDir = stringOpt(v, "data-dir") ?? "./data";
    // A mistyped --data-dir would otherwise make a CA nobody serves, and leave the real one as it is.
    if (!existsSync(storePath(dataDir)))
      return fail(`no store at ${storePath(dataDir)}: is --data-dir the folder serve uses?`);
    const names = boxNames(publicUrlOpt(v), tlsDomainsOpt(v));
    let result: Awaited<ReturnType<typeof replaceLocalCa>>;
    try {
      result = await replaceLocalCa(dataDir, names);
    } catch (e) {
      return fail(`the new local CA was not made: ${(e as Error).message}`);
    }
    const { aside, tls } = result;
    const out = [
      `new local CA, SHA-256 fingerprint ${tls.ca!.fingerprint}`,
      `it may issue for: ${permittedNamesText(tls.ca!.pem)}`,
      `served certificate SHA-256 fingerprint ${tls.fingerprint}`,
      ...aside.map((p) => `kept aside: ${p}`),
      ...(tls.warning ? [`warning: ${tls.warning}`] : []),
      "next: 'systemctl reload parkd' (or restart serve), then install the new CA on every handheld from the console's Handhelds page (docs/network.md)",
    ];
    process.stderr.write(`${out.join("\n")}\n`);
    return 0;
  },
};

export const tlsCommand: Command = {
  name: "tls",
  summary: "The box's local certificate authority",
  subcommands: [newCaCommand],
};
