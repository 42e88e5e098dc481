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

const truthy = new Set(["1", "true", "yes", "on"]);

export function parseArgs(
  argv: readonly string[],
  specs: readonly OptionSpec[],
  env: Record<string, string | undefined> = process.env,
): { values: OptionValues; positionals: string[] } {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const values: OptionValues = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = byName.get(name);
    if (!spec) throw new UsageError(`unknown option --${name}`);
    if (spec.type === "boolean") {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      values[name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (spec.type === "list") {
      const list = (values[name] as string[] | undefined) ?? [];
      list.push(value);
      values[name] = list;
    } else values[name] = value;
  }
  for (const spec of specs) {
    if (values[spec.name] !== undefined) continue;
    const fromEnv = env[envName(spec.name)];
    if (fromEnv !== undefined && fromEnv !== "") {
      if (spec.type === "boolean") values[spec.name] = truthy.has(fromEnv.toLowerCase());
      else if (spec.type === "list")
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

/** "90d", "12h", "30m", "45s", "2w" → milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+)\s*([smhdw])$/.exec(text.trim());
  if (!m) throw new UsageError(`bad duration "${text}": use a number and s, m, h, d or w (e.g. 90d)`);
  const unit = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 }[m[2] as "s" | "m" | "h" | "d" | "w"];
  return Number(m[1]) * unit * 1000;
}
