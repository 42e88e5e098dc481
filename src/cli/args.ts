import { parseArgs as nodeParseArgs } from "node:util";

/** A small flag parser: every flag can also come from the environment as PARKD_<FLAG>. */

export type OptionType = "string" | "boolean" | "list";

export interface OptionSpec {
  name: string;
  type: OptionType;
  help: string;
  valueName?: string;
  default?: string;
}

export type OptionValues = Record<string, string | boolean | string[] | undefined>;

export class UsageError extends Error {}

export function envName(flag: string): string {
  return `PARKD_${flag.toUpperCase().replace(/-/g, "_")}`;
}

const TRUE = new Set(["1", "true", "yes", "on"]);
const FALSE = new Set(["0", "false", "no", "off"]);

/** node:util's own parse errors, said the way the rest of the CLI says them. */
function usageOf(e: unknown): UsageError {
  const err = e as { code?: string; message?: string };
  const message = String(err.message ?? e);
  const option = /'(-{1,2}[^']*)'/.exec(message)?.[1]?.split(/[ =]/)[0];
  switch (err.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return new UsageError(`unknown option ${option ?? message}`);
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return new UsageError(
        option && message.includes("does not take")
          ? `${option} takes no value`
          : `${option ?? "an option"} needs a value`,
      );
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return new UsageError(`unexpected argument ${message.match(/'([^']*)'/)?.[1] ?? ""}`.trim());
    default:
      return new UsageError(message);
  }
}

/**
 * Flags through node:util's parseArgs in strict mode (an unknown flag, short or long, is a usage
 * error), then the environment (`PARKD_<FLAG>`) for flags not given, then defaults. More than
 * `maxPositionals` words besides the flags is a usage error too: a stray word is never ignored.
 */
export function parseArgs(
  argv: readonly string[],
  specs: readonly OptionSpec[],
  env: Record<string, string | undefined> = process.env,
  maxPositionals = Number.POSITIVE_INFINITY,
): { values: OptionValues; positionals: string[] } {
  const options: Record<string, { type: "string" | "boolean"; multiple?: boolean }> = {};
  for (const spec of specs)
    options[spec.name] = {
      type: spec.type === "boolean" ? "boolean" : "string",
      multiple: spec.type === "list",
    };
  let parsed: ReturnType<typeof nodeParseArgs>;
  try {
    parsed = nodeParseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (e) {
    throw usageOf(e);
  }
  const positionals = parsed.positionals;
  if (positionals.length > maxPositionals)
    throw new UsageError(`unexpected argument ${positionals[maxPositionals]}`);
  const values: OptionValues = {};
  for (const spec of specs) {
    const given = (parsed.values as Record<string, string | boolean | string[] | undefined>)[spec.name];
    if (given !== undefined) {
      values[spec.name] = given;
      continue;
    }
    const fromEnv = env[envName(spec.name)];
    if (fromEnv !== undefined && fromEnv !== "") {
      if (spec.type === "boolean") {
        const word = fromEnv.trim().toLowerCase();
        if (!TRUE.has(word) && !FALSE.has(word))
          throw new UsageError(
            `${envName(spec.name)} must be true or false (1/0, yes/no, on/off), not "${fromEnv}"`,
          );
        values[spec.name] = TRUE.has(word);
      } else if (spec.type === "list")
        values[spec.name] = fromEnv
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
      else values[spec.name] = fromEnv;
    } else if (spec.default !== undefined) values[spec.name] = spec.default;
  }
  return { values, positionals };
}

export function formatOptions(specs: readonly OptionSpec[]): string {
  const rows = specs.map((s) => {
    const flag = s.type === "boolean" ? `--${s.name}` : `--${s.name} ${s.valueName ?? "VALUE"}`;
    const extra = [s.default !== undefined ? `default ${s.default}` : "", `env ${envName(s.name)}`]
      .filter(Boolean)
      .join(", ");
    return [flag, `${s.help}${s.type === "list" ? " (repeatable)" : ""} [${extra}]`] as const;
  });
  const width = Math.max(0, ...rows.map(([f]) => f.length));
  return rows.map(([f, h]) => `  ${f.padEnd(width)}  ${h}`).join("\n");
}

export function stringOpt(values: OptionValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === "string" ? v : undefined;
}

export function listOpt(values: OptionValues, name: string): string[] {
  const v = values[name];
  return Array.isArray(v) ? v : [];
}

export function intOpt(
  values: OptionValues,
  name: string,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  const v = stringOpt(values, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a whole number`);
  const n = Number(v);
  if (n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}`);
  return n;
}

/** Longer than any credential should live; also keeps expiry instants within a Date's range. */
const MAX_DURATION_MS = 100 * 365 * 86_400_000;

/** "90d", "12h", "30m", "45s", "2w" → milliseconds; more than 0 and at most 100 years. */
export function parseDuration(text: string): number {
  const m = /^(\d{1,12})\s*([smhdw])$/.exec(text.trim());
  if (!m) throw new UsageError(`bad duration "${text}": use a number and s, m, h, d or w (e.g. 90d)`);
  const unit = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 }[m[2] as "s" | "m" | "h" | "d" | "w"];
  const ms = Number(m[1]) * unit * 1000;
  if (ms === 0) throw new UsageError(`duration "${text}" is zero: it would make something dead on arrival`);
  if (ms > MAX_DURATION_MS) throw new UsageError(`duration "${text}" is longer than 100 years`);
  return ms;
}
