import { createHash, randomBytes } from "node:crypto";

/** Long enough to scan the code and walk to the handheld; short enough that a photo of it is stale. */
export const SIGN_IN_CODE_MS = 10 * 60_000;
/** Codes waiting to be used; past it the oldest is dropped (memory stays bounded). */
const MAX_CODES = 1_000;

const hashOf = (code: string) => createHash("sha256").update(code).digest("base64url");

/** The credential a code signs in as. */
export interface CodeFor {
  kind: "token" | "user";
  id: string;
}

/**
 * One-time sign-in codes for handhelds: the console shows a QR code of the box's address with a
 * code in it, and the handheld exchanges the code for a browser session of the token or user it
 * was made for. The token itself never appears in a URL (browsers keep URLs in history, sessions
 * and favicons; camera apps keep what they scanned). Codes live in memory, as hashes, for
 * minutes, and work once.
 */
export class SignInCodes {
  private readonly codes = new Map<string, CodeFor & { expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(credential: CodeFor): { code: string; expiresAt: number } {
    const at = this.now();
    for (const [key, c] of this.codes) if (c.expiresAt <= at) this.codes.delete(key);
    const code = randomBytes(24).toString("base64url");
    const expiresAt = at + SIGN_IN_CODE_MS;
    this.codes.set(hashOf(code), { kind: credential.kind, id: credential.id, expiresAt });
    if (this.codes.size > MAX_CODES) {
      const oldest = this.codes.keys().next().value;
      if (oldest !== undefined) this.codes.delete(oldest);
    }
    return { code, expiresAt };
  }

  /** The credential the code was made for, once; null for an unknown, used or expired code. */
  redeem(code: string): CodeFor | null {
    const key = hashOf(code);
    const c = this.codes.get(key);
    if (!c) return null;
    this.codes.delete(key);
    return c.expiresAt > this.now() ? { kind: c.kind, id: c.id } : null;
  }

  get size(): number {
    return this.codes.size;
  }
}

/** Loopback names and addresses: a QR code pointing there is useless to a handheld. */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "::1" ||
    host === "0.0.0.0" ||
    host === "::" ||
    /^(?:::ffff:)?127\.\d+\.\d+\.\d+$/.test(host) ||
    /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host)
  );
}

/**
 * Where a handheld should be sent: the operator's --public-url, else the first LAN address the
 * box listens on, else the address the console itself used. `reachable` is false when that is a
 * loopback address, which only the box itself can open.
 */
export function handheldBase(
  publicUrl: string | undefined,
  listening: readonly string[],
  consoleOrigin: string,
): { base: string; reachable: boolean } {
  const base = publicUrl ?? listening.find((u) => !isLoopback(u)) ?? consoleOrigin;
  return { base, reachable: !isLoopback(base) };
}

/** The origin the console used, from its Host header (the app sees every request as localhost). */
export function consoleOrigin(request: Request): string {
  const scheme = new URL(request.url).protocol;
  const origin = `${scheme}//${request.headers.get("host") ?? "localhost"}`;
  // A Host the reader let through can still be no URL (a port past 65535): said as localhost,
  // which the answer marks unreachable, rather than a 500.
  return URL.canParse(origin) ? new URL(origin).origin : `${scheme}//localhost`;
}
