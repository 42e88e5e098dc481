import { fstatSync } from "node:fs";

/**
 * One JSON object per line, every line the same shape: `time`, `level`, `msg`, then fields, each
 * key once. Request lines go to stdout (batched); events, warnings and errors to stderr (at once).
 * A line per request is written only when asked for (`serve --log-requests`): at a site's rates it
 * would be most of the log, and the request counts are in /metrics anyway. A 5xx is always
 * written, with its reason.
 * Levels are the syslog names, so they map one to one onto journald priorities; when a stream
 * is the journal's (systemd sets JOURNAL_STREAM), each line starts with `<N>`, which journald
 * takes as the line's PRIORITY and strips (SyslogLevelPrefix), so `journalctl -p warning` works.
 */

export const LEVELS = {
  debug: 7,
  info: 6,
  notice: 5,
  warning: 4,
  error: 3,
  critical: 2,
} as const;
export type Level = keyof typeof LEVELS;

let enabled = true;
let requestLines = false;

export function setLogging(on: boolean): void {
  enabled = on;
}

/** Whether every request gets a line (`serve --log-requests`); 5xx answers always do. */
export function setRequestLogging(on: boolean): void {
  requestLines = on;
}

/** Whether file descriptor `fd` is the journal stream systemd named in JOURNAL_STREAM. */
export function isJournalStream(fd: number, env: string | undefined = process.env.JOURNAL_STREAM): boolean {
  if (!env) return false;
  const [dev, ino] = env.split(":");
  try {
    const st = fstatSync(fd);
    return String(st.dev) === dev && String(st.ino) === ino;
  } catch {
    return false;
  }
}

const journal = { out: isJournalStream(1), err: isJournalStream(2) };

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

/** The line's own keys: a field of the same name would write the key twice. */
const OWN_KEYS = ["time", "level", "msg"] as const;

/**
 * The text of one line (without the journald prefix). A field named like one of the line's own
 * keys is dropped: a reader (journald's priority, jq) takes one of two equal keys and ignores
 * the other, so a second `level` would hide a warning as info.
 */
export function formatLine(level: Level, msg: string, fields: Record<string, unknown> = {}): string {
  if (OWN_KEYS.some((k) => k in fields)) {
    fields = { ...fields };
    for (const k of OWN_KEYS) delete fields[k];
  }
  const rest = JSON.stringify(fields);
  return `{"time":"${isoNow()}","level":"${level}","msg":${JSON.stringify(msg)}${rest === "{}" ? "" : `,${rest.slice(1, -1)}`}}\n`;
}

/** An event line (start-up, shutdown, retention, auth failures, errors) on stderr. */
export function log(level: Level, msg: string, fields: Record<string, unknown> = {}): void {
  if (!enabled) return;
  const line = formatLine(level, msg, fields);
  // Pending request lines first, so the two streams read in order on one terminal.
  if (pending.length) flush();
  process.stderr.write(journal.err ? `<${LEVELS[level]}>${line}` : line);
}

export interface RequestLine {
  method: string;
  route: string;
  status: number;
  ms: number;
  /** The peer address (the client, or the proxy in front). */
  client?: string;
  credential?: string;
  requestId: string;
  /** Why a 5xx was answered (the problem type and its detail, or the error), for its line. */
  reason?: string;
}

/**
 * The per-request line, `{time, level, msg: "request", method, route, status, ms, client,
 * credential, requestId, reason}`, built without an intermediate object. Written for every
 * request at `debug` when request lines are on; a 5xx is written whatever the setting, as an
 * `error` with its `reason`.
 */
export function logRequest(e: RequestLine): void {
  if (!enabled) return;
  const failed = e.status >= 500;
  if (!failed && !requestLines) return;
  const level: Level = failed ? "error" : "debug";
  const client = e.client === undefined ? "" : `,"client":${JSON.stringify(e.client)}`;
  const credential = e.credential === undefined ? "" : `,"credential":${JSON.stringify(e.credential)}`;
  const reason = e.reason === undefined ? "" : `,"reason":${JSON.stringify(e.reason)}`;
  const line = `{"time":"${isoNow()}","level":"${level}","msg":"request","method":${JSON.stringify(e.method)},"route":${JSON.stringify(e.route)},"status":${e.status},"ms":${JSON.stringify(e.ms)}${client}${credential},"requestId":${JSON.stringify(e.requestId)}${reason}}\n`;
  push(journal.out ? `<${LEVELS[level]}>${line}` : line);
}

/** An error with its stack, as one line: `{..., level: "error", msg, ...fields, error}`. */
export function logError(msg: string, error: unknown, fields: Record<string, unknown> = {}): void {
  const err =
    error instanceof Error
      ? { name: error.name, message: error.message, stack: error.stack }
      : { value: String(error) };
  log("error", msg, { ...fields, error: err });
}

/** For callers that log a free-form event: `{msg, level?, ...fields}`, at info unless `level` says. */
export function logLine(fields: { msg: string; level?: Level } & Record<string, unknown>): void {
  const { msg, level = "info", ...rest } = fields;
  log(level, msg, rest);
}

/** Plates are personal data: logs keep the first two characters only. */
export function maskPlate(plate: string): string {
  const p = plate.trim();
  return p.length <= 2 ? "**" : `${p.slice(0, 2)}${"*".repeat(Math.min(p.length - 2, 6))}`;
}
