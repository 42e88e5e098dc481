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

// Many lines fall in the same millisecond: format the time once per millisecond.
let lastMs = -1;
let lastIso = "";
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

function push(line: string): void {
  if (pending.length === 0) setImmediate(flush);
  pending.push(line);
}

export function logLine(fields: Record<string, unknown>): void {
  if (!enabled) return;
  push(`{"time":"${isoNow()}",${JSON.stringify(fields).slice(1)}\n`);
}

export interface RequestLine {
  method: string;
  route: string;
  status: number;
  ms: number;
  credential?: string;
  requestId: string;
}

/**
 * The per-request line, the same as `logLine({ msg: "request", ...entry })` writes, built
 * without an intermediate object: it is written for every request.
 */
export function logRequest(e: RequestLine): void {
  if (!enabled) return;
  const credential = e.credential === undefined ? "" : `,"credential":${JSON.stringify(e.credential)}`;
  push(
    `{"time":"${isoNow()}","msg":"request","method":${JSON.stringify(e.method)},"route":${JSON.stringify(e.route)},"status":${e.status},"ms":${JSON.stringify(e.ms)}${credential},"requestId":${JSON.stringify(e.requestId)}}\n`,
  );
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
