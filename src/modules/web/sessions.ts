import type { Credential } from "../../domain/credentials.ts";
import { log } from "../../platform/log.ts";
import { isStoreUnavailable, type Store } from "../../platform/store/db.ts";
import {
  CSRF_HEADER,
  cookieValue,
  csrfOf,
  csrfRefused,
  hashOf,
  randomToken,
  SAFE_METHODS,
  SESSION_COOKIE,
  sameText,
} from "./session-cookie.ts";

/** Whoever keeps the credentials answers this (the admin module's CredentialService). */
export interface CredentialLookup {
  current(kind: Credential["kind"], id: string): Credential | null;
}

/** An attendant's shift with the page left open, plus slack; a session unused this long ends. */
export const IDLE_MS = 12 * 3_600_000;
/** However busy, a session is signed in again after a week. */
export const MAX_AGE_MS = 7 * 24 * 3_600_000;
/** Past this many sessions in all the least recently used go first (the store stays bounded). */
export const MAX_SESSIONS = 10_000;
/**
 * Sessions one credential may hold (a token shared by a team's handhelds and browsers); past it
 * that credential's least recently used goes, so a credential can evict only its own sessions.
 */
export const MAX_SESSIONS_PER_CREDENTIAL = 50;
/**
 * A session's last use reaches the store at most this often (in memory in between): a request
 * through a session never waits on a disk write. A crash loses at most this much of it, which
 * brings the session's idle end no closer than 12 hours less these minutes.
 */
export const USE_WRITE_MS = 5 * 60_000;
/** Ended sessions are deleted from the store this often, and when the box starts. */
export const SWEEP_MS = 3_600_000;

const LIFE = { idleMs: IDLE_MS, maxAgeMs: MAX_AGE_MS };

/** A session made at `createdAt` and used at `at` lasts this much longer unless used again. */
const lifeLeft = (createdAt: number, at: number) =>
  Math.max(0, Math.min(IDLE_MS, createdAt + MAX_AGE_MS - at));

/** A session as this process holds it: its newest use is here before it is in the store. */
interface Held {
  kind: Credential["kind"];
  credentialId: string;
  createdAt: number;
  seenAt: number;
}

export interface SessionView {
  credential: Credential;
  csrf: string;
  /** How long the session lasts from now unless used again: 12 h, or less near its 7 days. */
  lifeMs: number;
}

/**
 * Why a browser's session is gone, for the page to say so: the token was revoked or the user
 * deleted, it expired, or it was ended otherwise (signed out, pushed out past a cap, or ended
 * before the box last started, which it no longer remembers the reason of).
 */
export type LostReason = "revoked" | "deleted" | "expired" | "ended";

/** Why sessions ended are kept this long, for the page that comes back to ask. */
const LOST_REASONS_MAX = 10_000;

/**
 * Browser sessions, kept in the store (browser_sessions), so a restart or an upgrade signs no
 * handheld out: the cookie carries a random id, the store keeps its SHA-256 only, so a copy of
 * the store hands out no live cookie. A session read once is held in memory (the store stays the
 * truth; this process is the only one that opens sessions), and its last use is written at most
 * every USE_WRITE_MS. The credential behind a session is looked up again on every request, so a
 * token revoked or a user deleted, also by the command line, ends it.
 */
export class SessionStore {
  private readonly held = new Map<string, Held>();
  /** Uses not yet written, by id hash. */
  private readonly unwritten = new Map<string, number>();
  private readonly lost = new Map<string, LostReason>();
  private writesFailing = false;

  constructor(
    private readonly store: Pick<Store, "browserSessions">,
    private readonly credentials: CredentialLookup,
    private readonly now: () => number = Date.now,
  ) {}

  open(credential: Credential): { id: string; csrf: string; lifeMs: number } {
    const id = randomToken();
    const key = hashOf(id);
    const at = this.now();
    // The caps go by last use: what is still in memory first.
    this.writeUses();
    const gone = this.store.browserSessions.open(
      {
        idHash: key,
        credentialKind: credential.kind,
        credentialId: credential.id,
        createdAt: at,
        seenAt: at,
        expiresAt: Math.min(at + IDLE_MS, at + MAX_AGE_MS),
      },
      { perCredential: MAX_SESSIONS_PER_CREDENTIAL, total: MAX_SESSIONS },
    );
    for (const g of gone) this.drop(g, "ended");
    this.hold(key, { kind: credential.kind, credentialId: credential.id, createdAt: at, seenAt: at });
    return { id, csrf: csrfOf(id), lifeMs: lifeLeft(at, at) };
  }

  /** The session the request's cookie names, with its credential as it stands now; else null. */
  view(request: Request): SessionView | null {
    const id = cookieValue(request, SESSION_COOKIE);
    if (!id) return null;
    const key = hashOf(id);
    const s = this.held.get(key) ?? this.load(key);
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
    this.hold(key, s);
    this.unwritten.set(key, at);
    return { credential, csrf: csrfOf(id), lifeMs: lifeLeft(s.createdAt, at) };
  }

  private load(key: string): Held | null {
    const row = this.store.browserSessions.byIdHash(key);
    if (!row) return null;
    const s = {
      kind: row.credentialKind,
      credentialId: row.credentialId,
      createdAt: row.createdAt,
      seenAt: Math.max(row.seenAt, this.unwritten.get(key) ?? 0),
    };
    this.hold(key, s);
    return s;
  }

  /** Most recently used last; past the cap the least recent is let go (its row stays). */
  private hold(key: string, s: Held): void {
    this.held.delete(key);
    this.held.set(key, s);
    if (this.held.size > MAX_SESSIONS) {
      const oldest = this.held.keys().next().value;
      if (oldest !== undefined) this.held.delete(oldest);
    }
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

  /**
   * Ends every session of the credential (its token revoked, its user deleted). `idHashes`: the
   * sessions already deleted with the credential, in its own transaction.
   */
  endFor(
    kind: Credential["kind"],
    credentialId: string,
    reason: LostReason,
    idHashes: readonly string[] = [],
  ): void {
    const gone = new Set(idHashes);
    for (const [key, s] of this.held) if (s.kind === kind && s.credentialId === credentialId) gone.add(key);
    this.tolerant(() => {
      for (const key of this.store.browserSessions.deleteFor(kind, credentialId)) gone.add(key);
    });
    for (const key of gone) this.drop(key, reason);
  }

  /**
   * Why the request's cookie names no live session: null without a cookie or with a live one.
   * One this run of the box ended says how; any other is "ended".
   */
  lostReason(request: Request): LostReason | null {
    const id = cookieValue(request, SESSION_COOKIE);
    if (!id) return null;
    const key = hashOf(id);
    if (this.held.has(key)) return null;
    return this.lost.get(key) ?? "ended";
  }

  /**
   * A session found ended on its use: deleted, unless the store cannot write now (full,
   * read-only), when the row stays and the same check ends it again on its next use.
   */
  private forget(key: string, reason: LostReason): void {
    this.tolerant(() => this.store.browserSessions.delete(key));
    this.drop(key, reason);
  }

  private drop(key: string, reason: LostReason): void {
    this.held.delete(key);
    this.unwritten.delete(key);
    this.lost.set(key, reason);
    if (this.lost.size > LOST_REASONS_MAX) {
      const oldest = this.lost.keys().next().value;
      if (oldest !== undefined) this.lost.delete(oldest);
    }
  }

  private tolerant(write: () => unknown): void {
    try {
      write();
    } catch (e) {
      if (!isStoreUnavailable(e)) throw e;
    }
  }

  /** Sign-out: the row goes now (a store that cannot write refuses the sign-out, 503). */
  end(request: Request): void {
    const id = cookieValue(request, SESSION_COOKIE);
    if (!id) return;
    const key = hashOf(id);
    this.store.browserSessions.delete(key);
    this.held.delete(key);
    this.unwritten.delete(key);
  }

  /**
   * Writes the uses held in memory. On a timer a throw would be an uncaught error: a store that
   * cannot write keeps them for the next try, logged once until a write succeeds again.
   */
  writeUses(): void {
    if (this.unwritten.size === 0) return;
    const uses = [...this.unwritten].map(([idHash, seenAt]) => ({ idHash, seenAt }));
    this.unwritten.clear();
    try {
      this.store.browserSessions.recordUses(uses, LIFE);
      if (this.writesFailing) log("info", "browser session uses written again");
      this.writesFailing = false;
    } catch (e) {
      for (const u of uses) if (!this.unwritten.has(u.idHash)) this.unwritten.set(u.idHash, u.seenAt);
      if (this.writesFailing) return;
      this.writesFailing = true;
      const code = (e as { code?: unknown })?.code;
      log("warning", "browser session uses not written; kept for the next try", {
        error: typeof code === "string" ? code : String((e as Error)?.message ?? e),
      });
    }
  }

  /**
   * Deletes the sessions that have ended (expired), once their uses held in memory are written:
   * one in use is never taken for an idle one. Returns how many went.
   */
  sweep(): number {
    this.writeUses();
    if (this.unwritten.size > 0) return 0;
    let gone: string[] = [];
    this.tolerant(() => {
      gone = this.store.browserSessions.deleteExpired(this.now());
    });
    for (const key of gone) this.drop(key, "expired");
    if (gone.length > 0) log("info", "expired browser sessions deleted", { deleted: gone.length });
    return gone.length;
  }

  /** `serve`'s background work: the sweep at start and hourly, uses written every few minutes. */
  start(): () => void {
    this.sweep();
    const uses = setInterval(() => this.writeUses(), USE_WRITE_MS);
    const sweeps = setInterval(() => this.sweep(), SWEEP_MS);
    uses.unref?.();
    sweeps.unref?.();
    return () => {
      clearInterval(uses);
      clearInterval(sweeps);
      this.writeUses();
    };
  }

  /** Sessions in the store, ended ones not yet swept included. */
  get size(): number {
    return this.store.browserSessions.count();
  }
}
