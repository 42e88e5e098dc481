/**
 * The service's settings file (/etc/parkd/parkd.env) read as systemd reads an EnvironmentFile:
 * KEY=VALUE lines, `#` and `;` comments, values optionally in single or double quotes. What the
 * unit's service sees, so that a command run by hand (doctor) checks the settings the service runs with.
 */
import { readFileSync } from "node:fs";

/** The package's file, which the unit names. */
export const SERVICE_ENV_FILE = "/etc/parkd/parkd.env";

export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    const eq = line.indexOf("=");
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) continue;
    let value = line.slice(eq + 1).trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.endsWith(quote) && value.length >= 2)
      value = value.slice(1, -1);
    out[key] = value;
  }
  return out;
}

/** The file's settings, or null when there is none (or it cannot be read: it is 0600, root's). */
export function readEnvFile(path: string): Record<string, string> | null {
  try {
    return parseEnvFile(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}
