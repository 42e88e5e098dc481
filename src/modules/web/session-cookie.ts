import { createHmac, timingSafeEqual } from "node:crypto";
import { refuse } from "../../domain/errors.ts";
import { trimOws } from "../../platform/http/http1.ts";

/** The browser session's cookie and its csrf value: what a request carries, and how it is read. */

export const SESSION_COOKIE = "parkd_session";
export const CSRF_HEADER = "x-csrf-token";

export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function randomToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

export function hashOf(id: string): string {
  return Bun.CryptoHasher.hash("sha256", id, "hex") as string;
}

/**
 * The session's csrf value, derived from its cookie's id: the box needs to keep nothing to
 * check it or to tell it again after a restart, and the store's id hash does not give it. A page
 * elsewhere can make the browser send the cookie but can read neither it nor this.
 */
export function csrfOf(id: string): string {
  return createHmac("sha256", id).update("parkd csrf").digest("base64url");
}

export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function cookieValue(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && trimOws(part.slice(0, eq)) === name) return trimOws(part.slice(eq + 1));
  }
  return undefined;
}

export const csrfRefused = () =>
  refuse(
    "csrf",
    `A write through a browser session needs the header X-CSRF-Token with the session's csrf value`,
  );

/**
 * The Set-Cookie value for a session that lasts `lifeMs` more unless used, or (id empty) for
 * ending one. A lasting cookie, not one that dies with the browser: an attendant who closes the
 * browser and opens it again is still signed in while the session is. The page asks for its
 * session when it starts and every half hour, and each answer sets the cookie again, so the
 * cookie's end follows the session's idle end.
 */
export function sessionCookie(request: Request, id: string, lifeMs = 0): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  const life = `; Max-Age=${id ? Math.floor(lifeMs / 1000) : 0}`;
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict${secure}${life}`;
}
