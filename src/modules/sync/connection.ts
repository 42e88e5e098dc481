import { readFileSync } from "node:fs";
import type { SQL } from "bun";

/** Where the office's PostgreSQL is and how to log in; the password never comes from a flag. */
export interface CentralTarget {
  /** postgres://user@host:port/db?sslmode=..., without a password. */
  url: string;
  password?: string;
}

export class CentralConfigError extends Error {}

/**
 * Checks a `--central` URL: a postgres URL without a password in it, so that the password is
 * never on a command line (visible to every user in `ps`). Returns it normalized.
 */
export function checkCentralUrl(text: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new CentralConfigError(
      "--central must be a URL such as postgres://parkd@office.example:5432/parkd",
    );
  }
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:")
    throw new CentralConfigError("--central must be a postgres:// URL");
  if (!u.hostname) throw new CentralConfigError("--central needs a host name");
  if (u.password || u.searchParams.has("password") || u.searchParams.has("sslpassword"))
    throw new CentralConfigError(
      "--central must not carry a password: use --central-password-file FILE or PARKD_CENTRAL_PASSWORD",
    );
  // Plates and raw events cross the WAN on this link: encrypted unless the URL says otherwise
  // in so many words (PostgreSQL clients' own default, `prefer`, would go plaintext silently).
  const mode = u.searchParams.get("sslmode");
  if (mode === null) u.searchParams.set("sslmode", "require");
  else if (!SSL_MODES.includes(mode as SslMode))
    throw new CentralConfigError(
      `--central's sslmode=${mode} is not one parkd takes: require (the default), verify-ca, verify-full, or disable for a plaintext link`,
    );
  return u.toString();
}

/** The URL with sslmode=require added where it names no mode (the client's own default is plaintext). */
export function withSslMode(url: string): string {
  const u = new URL(url);
  if (u.searchParams.has("sslmode")) return url;
  u.searchParams.set("sslmode", "require");
  return u.toString();
}

/** The link's TLS modes parkd takes; `allow` and `prefer` could fall back to plaintext unseen. */
export const SSL_MODES = ["require", "verify-ca", "verify-full", "disable"] as const;
export type SslMode = (typeof SSL_MODES)[number];

/** The TLS mode of a URL checkCentralUrl returned (one without sslmode is taken as require). */
export function sslModeOf(url: string): SslMode {
  const mode = new URL(url).searchParams.get("sslmode");
  return SSL_MODES.includes(mode as SslMode) ? (mode as SslMode) : "require";
}

/** What the log, doctor and /readyz say of a link the URL sent in plaintext. */
export const PLAINTEXT_LINK =
  "the office link is not encrypted (sslmode=disable in --central): plates and ticket events cross the network in plaintext";

/** The password from a file (first line, so `echo secret > file` works) or the environment. */
export function centralPassword(file: string | undefined, env: string | undefined): string | undefined {
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new CentralConfigError(`cannot read --central-password-file ${file}: ${(e as Error).message}`);
    }
    const first = text.split(/\r?\n/)[0] ?? "";
    if (first === "") throw new CentralConfigError(`--central-password-file ${file} is empty`);
    return first;
  }
  return env === undefined || env === "" ? undefined : env;
}

/** The URL as logs and metrics may show it: no password, no query string. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = "";
    u.search = "";
    return u.toString();
  } catch {
    return "(unparseable URL)";
  }
}

/**
 * A small pool to the office: the box pushes and pulls one batch at a time, so two connections
 * are plenty, and a dead link must fail fast (connectionTimeout) so the next probe comes soon.
 */
export function connectCentral(target: CentralTarget, opts: { max?: number } = {}): SQL {
  // Through Bun.SQL at the call, not a value import: loading the client costs every start of
  // the binary about 7 ms, and most boxes never talk to an office.
  return new Bun.SQL(withSslMode(target.url), {
    password: target.password,
    max: opts.max ?? 2,
    connectionTimeout: 10,
    idleTimeout: 60,
    maxLifetime: 3600,
    // Statements are few and fixed; prepared once per connection.
    prepare: true,
    onclose: () => {},
  });
}
