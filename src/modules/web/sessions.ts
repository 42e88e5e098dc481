import { timingSafeEqual } from "node:crypto";
import type { Credential } from "../../domain/credentials.ts";
import { refuse } from "../../domain/errors.ts";
import { trimOws } from "../../platform/http/http1.ts";
import { WEB_REFUSALS } from "./refusals.ts";

/** Whoever keeps the credentials answers this (the admin module's CredentialService). */
export interface CredentialLookup {
  current(kind: Credential["kind"], id: string): Credential | null;
}

export const SESSION_COOKIE = "parkd_session";
export const CSRF_HEADER = "x-csrf-token";

/** An attendant's shift with the page left open, plus slack; a session unused this long ends. */
const IDLE_MS = 12 * 3_600_000;
/** However busy, a session is signed in again after a week. */
const MAX_AGE_MS = 7 * 24 * 3_600_000;
/** Past this many live sessions the least recently used go first (memory stays bounded). */
const MAX_SESSIONS = 10_000;
/**
 * Sessions one credential may hold (a token shared by a team's handhelds and browsers); past it
 * that credential's least recently used goes, so a credential can evict only its own sessions.
 */
export const MAX_SESSIONS_PER_CREDENTIAL = 50;

interface Session {
  kind: Credential["kind"];
  credentialId: string;
  csrf: string;
  createdAt: number;
  seenAt: number;
}

export interface SessionView {
  credential: Credential;
  csrf: string;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function randomToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

function hashOf(id: string): string {
  return Bun.CryptoHasher.hash("sha256", id, "hex") as string;
}

function sameText(a: string, b: string): boolean {
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
    WEB_REFUSALS,
    "csrf",
    `A write through a browser session needs the header X-CSRF-Token with the session's csrf value`,
  );

/**
 * Browser sessions, kept in this process only: the cookie carries a random id, the map keys on
 * its SHA-256, so a memory dump does not hand out live cookies. A restart signs browsers out
 * (the page signs in again from the token it was given, or asks). The credential behind a
 * session is looked up again on every request, so a revoked token or deleted user ends it.
 */
/**
 * Why a browser's session is gone, for the page to say so: the box restarted (sessions live in
 * memory), the token was revoked or the user deleted, it expired, or it was ended otherwise
 * (signed out elsewhere, pushed out past the cap).
 */
export type LostReason = "restarted" | "revoked" | "deleted" | "expired" | "ended";

/** Why sessions ended are kept this long, for the page that comes back to ask. */
const LOST_REASONS_MAX = 10_000;

export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  /** The ids of this process's sessions start with it: one from before a restart is known as such. */
  private readonly boot = randomToken().slice(0, 8);
  private readonly lost = new Map<string, LostReason>();

  constructor(
    private readonly credentials: CredentialLookup,
    private readonly now: () => number = Date.now,
  ) {}

  open(credential: Credential): { id: string; csrf: string } {
    const id = `${this.boot}.${randomToken()}`;
    const csrf = randomToken();
    const at = this.now();
    this.evictOwnBeyondCap(credential);
    this.sessions.set(hashOf(id), {
      kind: credential.kind,
      credentialId: credential.id,
      csrf,
      createdAt: at,
      seenAt: at,
    });
    if (this.sessions.size > MAX_SESSIONS) {
      // Map order is insertion order, and every use re-inserts: the first key is the least recent.
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.sessions.delete(oldest);
    }
    return { id, csrf };
  }

  private evictOwnBeyondCap(credential: Credential): void {
    let own = 0;
    let oldest: string | undefined;
    for (const [key, s] of this.sessions)
      if (s.kind === credential.kind && s.credentialId === credential.id) {
        own++;
        oldest ??= key;
      }
    if (own >= MAX_SESSIONS_PER_CREDENTIAL && oldest !== undefined) this.sessions.delete(oldest);
  }

  /** The session the request's cookie names, with its credential as it stands now; else null. */
  view(request: Request): SessionView | null {
    const id = cookieValue(request, SESSION_COOKIE);
    if (!id) return null;
    const key = hashOf(id);
    const s = this.sessions.get(key);
    if (!s) return null;
    const at = this.now();
    if (at - s.seenAt > IDLE_MS || at - s.createdAt > MAX_AGE_MS) {
      this.forget(key, "expired");
      return null;
    }
    const credential = this.credentials.current(s.kind, s.credentialId);
    if (!credential) {
      this.forget(key, s.kind === "token" ? "revoked" : "deleted");
      return null;
    }
    s.seenAt = at;
    this.sessions.delete(key);
    this.sessions.set(key, s);
    return { credential, csrf: s.csrf };
  }

  /**
   * What the auth plugin asks when a request carries no Authorization header: the session's
   * credential, or null (401). A write without the right X-CSRF-Token is refused (403): a page
   * elsewhere can make the browser send the cookie, but cannot read the csrf value to send it.
   */
  credentialOf(request: Request): Credential | null {
    const view = this.view(request);
    if (!view) return null;
    if (!SAFE_METHODS.has(request.method)) {
      const sent = request.headers.get(CSRF_HEADER);
      if (!sent || !sameText(sent, view.csrf)) throw csrfRefused();
    }
    return view.credential;
  }

  /** Ends every session of the credential (its token revoked, its user deleted). */
  endFor(kind: Credential["kind"], credentialId: string, reason: LostReason): void {
    for (const [key, s] of this.sessions)
      if (s.kind === kind && s.credentialId === credentialId) this.forget(key, reason);
  }

  /**
   * Why the request's cookie names no live session: null without a cookie or with a live one.
   * A session of another run of the box is "restarted"; one this run ended says how.
   */
  lostReason(request: Request): LostReason | null {
    const id = cookieValue(request, SESSION_COOKIE);
    if (!id || this.sessions.has(hashOf(id))) return null;
    if (!id.startsWith(`${this.boot}.`)) return "restarted";
    return this.lost.get(hashOf(id)) ?? "ended";
  }

  private forget(key: string, reason: LostReason): void {
    this.sessions.delete(key);
    this.lost.set(key, reason);
    if (this.lost.size > LOST_REASONS_MAX) {
      const oldest = this.lost.keys().next().value;
      if (oldest !== undefined) this.lost.delete(oldest);
    }
  }

  end(request: Request): void {
    const id = cookieValue(request, SESSION_COOKIE);
    if (id) this.sessions.delete(hashOf(id));
  }

  get size(): number {
    return this.sessions.size;
  }
}

/** The Set-Cookie value for a new session, or (id empty) for ending one. */
export function sessionCookie(request: Request, id: string): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  const life = id ? "" : "; Max-Age=0";
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict${secure}${life}`;
}
