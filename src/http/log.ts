/** One JSON object per line on stdout (requests) or stderr (errors). */

let enabled = true;

export function setLogging(on: boolean): void {
  enabled = on;
}

// Lines are gathered and written once per turn of the event loop: one write for many requests.
let pending: string[] = [];
function flush(): void {
  const lines = pending;
  pending = [];
  process.stdout.write(lines.join(""));
}

export function logLine(fields: Record<string, unknown>): void {
  if (!enabled) return;
  if (pending.length === 0) setImmediate(flush);
  pending.push(`{"time":"${new Date().toISOString()}",${JSON.stringify(fields).slice(1)}\n`);
}

export function logError(message: string, error: unknown, fields: Record<string, unknown> = {}): void {
  if (!enabled) return;
  const err =
    error instanceof Error
      ? { name: error.name, message: error.message, stack: error.stack }
      : { value: String(error) };
  process.stderr.write(
    `${JSON.stringify({ time: new Date().toISOString(), level: "error", message, ...fields, error: err })}\n`,
  );
}

/** Plates are personal data: logs keep the first two characters only. */
export function maskPlate(plate: string): string {
  const p = plate.trim();
  return p.length <= 2 ? "**" : `${p.slice(0, 2)}${"*".repeat(Math.min(p.length - 2, 6))}`;
}
