import { readFileSync } from "node:fs";
import { checkLotFile, formatFileError } from "../modules/admin/lots/file.ts";
import { LotCatalog } from "../modules/admin/lots/service.ts";
import { openStore } from "../platform/store/db.ts";
import { stringOpt, UsageError } from "./args.ts";
import { type Command, dataDirOption, fail } from "./command.ts";

function withCatalog<T>(dataDir: string | undefined, fn: (c: LotCatalog) => T): T {
  const store = openStore(dataDir ?? "./data", { create: false });
  try {
    return fn(new LotCatalog(store));
  } finally {
    store.close();
  }
}

async function readSource(file: string): Promise<string> {
  if (file === "-") return new Response(Bun.stdin.stream()).text();
  return readFileSync(file, "utf8");
}

export const lotsCommand: Command = {
  name: "lots",
  summary: "Import and export parking lots (the file is what GET /api/v1/parkings answers)",
  subcommands: [
    {
      name: "import",
      summary: "Create or replace lots by id from a file, all or nothing (- reads standard input)",
      args: "<FILE.json>",
      options: [
        {
          name: "dry-run",
          type: "boolean",
          help: "check the file and say what would change, change nothing",
        },
        dataDirOption,
      ],
      async run(v, [file]) {
        if (!file) throw new UsageError("name the file to import (as written by 'parkd lots export')");
        let text: string;
        try {
          text = await readSource(file);
        } catch (e) {
          return fail(`cannot read ${file}: ${(e as Error).message}`);
        }
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (e) {
          return fail(`${file} is not valid JSON: ${(e as Error).message}; nothing was changed`);
        }
        return withCatalog(stringOpt(v, "data-dir"), (catalog) => {
          const checked = checkLotFile(value, catalog.nextId());
          if ("errors" in checked) {
            for (const e of checked.errors) process.stderr.write(`parkd: ${file}: ${formatFileError(e)}\n`);
            return fail(`${file}: ${checked.errors.length} problem(s) found; nothing was changed`);
          }
          const existing = new Set(catalog.all().map((l) => l.id));
          const replacing = checked.lots.filter((l) => existing.has(l.id)).length;
          if (v["dry-run"]) {
            process.stderr.write(
              `${file} is valid: ${checked.lots.length} lot(s), ${checked.lots.length - replacing} new, ${replacing} replaced (dry run, nothing changed)\n`,
            );
            return 0;
          }
          const { created, replaced } = catalog.importLots(checked.lots, "cli:import");
          process.stderr.write(
            `imported ${created + replaced} lot(s): ${created} new, ${replaced} replaced\n`,
          );
          return 0;
        });
      },
    },
    {
      name: "export",
      summary: "Print every lot as JSON on standard output, in the form import reads",
      options: [dataDirOption],
      run(v) {
        const lots = withCatalog(stringOpt(v, "data-dir"), (c) => c.all());
        process.stdout.write(`${JSON.stringify({ data: lots }, null, 2)}\n`);
        return 0;
      },
    },
  ],
};
