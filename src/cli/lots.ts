import { readFileSync } from "node:fs";
import { CLI_ACTOR } from "../domain/changes.ts";
import type { ImportReport } from "../modules/admin/index.ts";
import { type FileError, formatFileError, LotCatalog } from "../modules/admin/index.ts";
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

function fileErrorsOfReport(report: ImportReport): FileError[] {
  return [
    ...report.file_errors.map((e) => ({ index: null, id: null, ...e })),
    ...report.lots.flatMap((l) => l.errors.map((e) => ({ index: l.index, id: l.id, ...e }))),
  ];
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
          const dryRun = v["dry-run"] === true;
          const report = catalog.importFile(value, CLI_ACTOR, dryRun);
          const errors = fileErrorsOfReport(report);
          if (errors.length) {
            for (const e of errors) process.stderr.write(`parkd: ${file}: ${formatFileError(e)}\n`);
            return fail(`${file}: ${errors.length} problem(s) found; nothing was changed`);
          }
          const counts = `${report.created} new, ${report.changed} changed, ${report.unchanged} unchanged`;
          for (const l of report.lots)
            if (l.outcome === "changed")
              process.stderr.write(
                `lot ${l.id} (index ${l.index}) changes: ${l.changed_fields.join(", ")}\n`,
              );
          process.stderr.write(
            dryRun
              ? `${file} is valid: ${report.lots.length} lot(s): ${counts} (dry run, nothing changed)\n`
              : `imported ${report.lots.length} lot(s): ${counts}\n`,
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
