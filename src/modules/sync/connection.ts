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
  return u.toString();
}

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
 * are plenty, and a dead link must fail fast (connectionTimeout) so the backoff takes over.
 */
export function connectCentral(target: CentralTarget, opts: { max?: number } = {}): SQL {
  // Through Bun.SQL at the call, not a value import: loading the client costs every start of
  // the binary about 7 ms, and most boxes never talk to an office.
  return new Bun.SQL(target.url, {
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
