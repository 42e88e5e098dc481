import { StoreMissingError, StoreTooNewError, type StoreUpgrade } from "../platform/store/db.ts";
import { DataFolderError } from "../platform/store/lock.ts";
import { startingStep, startingText } from "../platform/store/preparation.ts";
import { formatOptions, type OptionSpec, type OptionValues, parseArgs, UsageError } from "./args.ts";

export interface Command {
  name: string;
  summary: string;
  /** Words after the command name in the usage line, e.g. "<id|name>". */
  args?: string;
  options?: OptionSpec[];
  subcommands?: Command[];
  /** Where PARKD_* settings come from (the process's environment without it), given the arguments. */
  environment?(argv: readonly string[]): Record<string, string | undefined>;
  run?(values: OptionValues, positionals: string[]): Promise<number> | number;
  /**
   * Runs while a serve prepares the store (an upgrade) and says so itself (doctor; serve, which
   * finds the folder held). Any other command on that folder is told at once what serve is doing,
   * instead of waiting on the store's lock.
   */
  runsWhileStarting?: true;
}

export const dataDirOption: OptionSpec = {
  name: "data-dir",
  type: "string",
  valueName: "DIR",
  default: "./data",
  help: "folder that holds the store",
};

export const jsonOption: OptionSpec = {
  name: "json",
  type: "boolean",
  help: "print JSON instead of a table",
};

function help(path: string[], cmd: Command): string {
  const lines = [
    `usage: ${[...path, cmd.subcommands ? "<command>" : "", cmd.args ?? ""].filter(Boolean).join(" ")}${cmd.options?.length ? " [options]" : ""}`,
    "",
    cmd.summary,
  ];
  if (cmd.subcommands) {
    const width = Math.max(...cmd.subcommands.map((c) => c.name.length));
    lines.push("", "commands:", ...cmd.subcommands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`));
    lines.push("", `Run '${path.join(" ")} <command> --help' for a command's options.`);
  }
  if (cmd.options?.length) lines.push("", "options:", formatOptions(cmd.options));
  return `${lines.join("\n")}\n`;
}

/** Walks argv down the command tree and runs the command it names. Returns the exit code. */
export async function dispatch(root: Command, argv: string[]): Promise<number> {
  const path = [root.name];
  let cmd = root;
  let rest = argv;
  while (cmd.subcommands) {
    const [word, ...tail] = rest;
    if (word === undefined || word === "--help" || word === "-h" || word === "help") {
      process.stdout.write(help(path, cmd));
      return word === undefined ? 2 : 0;
    }
    const next = cmd.subcommands.find((c) => c.name === word);
    if (!next) {
      process.stderr.write(`${path.join(" ")}: unknown command "${word}"\n\n${help(path, cmd)}`);
      return 2;
    }
    path.push(word);
    cmd = next;
    rest = tail;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(help(path, cmd));
    return 0;
  }
  try {
    const maxPositionals = cmd.args ? cmd.args.split(" ").length : 0;
    const env = cmd.environment?.(rest) ?? process.env;
    const { values, positionals } = parseArgs(rest, cmd.options ?? [], env, maxPositionals);
    const dataDir = values["data-dir"];
    const starting = typeof dataDir === "string" && !cmd.runsWhileStarting ? startingStep(dataDir) : null;
    if (starting)
      return fail(
        `serve (pid ${starting.pid}) is preparing the store in ${dataDir} before it serves, ${startingText(starting, Date.now())}: try again when it is done (it logs each step; /healthz says how far it is)`,
      );
    return await cmd.run!(values, positionals);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`${path.join(" ")}: ${e.message}\nRun '${path.join(" ")} --help' for usage.\n`);
      return 2;
    }
    if (e instanceof StoreMissingError || e instanceof StoreTooNewError || e instanceof DataFolderError)
      return fail(e.message);
    throw e;
  }
}

export function fail(message: string, code = 1): number {
  process.stderr.write(`parkd: ${message}\n`);
  return code;
}

export function printTable(rows: Record<string, string>[], columns: string[]): void {
  if (rows.length === 0) {
    process.stdout.write("(none)\n");
    return;
  }
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  process.stdout.write(
    `${[line(columns), ...rows.map((r) => line(columns.map((c) => r[c] ?? "")))].join("\n")}\n`,
  );
}

export function isoOrDash(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? "-" : new Date(ms).toISOString();
}

/** What a schema upgrade made on opening the store tells the technician. */
export function upgradeText(u: StoreUpgrade): string {
  return u.unchecked
    ? `store schema upgraded from version ${u.from} to ${u.to}; the store as it was before is copied, and the copy is checked now, beside serving, before it is kept at ${u.backup}`
    : `store schema upgraded from version ${u.from} to ${u.to}; the store as it was before is kept at ${u.backup}`;
}
