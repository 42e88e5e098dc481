import { timingSafeEqual } from "node:crypto";
import { type Credential, isScope, type Scope } from "../../../domain/credentials.ts";
import { logLine } from "../../../platform/log.ts";
import type { TokenCheck } from "../../../platform/store/credentials.ts";
import type { Store } from "../../../platform/store/db.ts";
import { PasswordChecks } from "./passwords.ts";

export class CredentialError extends Error {}

export interface TokenInfo {
  id: string;
  name: string;
  scopes: Scope[];
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
  revokedAt: number | null;
}

export interface UserInfo {
  id: string;
  name: string;
  scopes: Scope[];
  createdAt: number;
  lastUsedAt: number | null;
}

const TOKEN_PREFIX = "pk_";
const LAST_USED_FLUSH_MS = 5_000;
/**
 * A bearer token's row is trusted this long (monotonic time) before it is read again: a token
 * revoked by the CLI, in another process, is refused within this time. Half the promised second.
 */
const TOKEN_CACHE_MS = 500;
/** Tokens cached at most; more distinct ones in half a second than this and the cache starts over. */
const TOKEN_CACHE_MAX = 1_000;

// Made once per process, on first need, with the same parameters as every user's hash.
let dummy: Promise<string> | undefined;
function dummyHash(): Promise<string> {
  dummy ??= Bun.password.hash(crypto.randomUUID(), { algorithm: "argon2id" });
  return dummy;
}

export function sha256Hex(text: string): string {
  return Bun.CryptoHasher.hash("sha256", text, "hex") as string;
}

function parseScopes(text: string): Scope[] {
  return text.split(" ").filter(isScope);
}

// Every authenticated request needs its credential's scopes; there are only a few distinct texts.
const sharedScopes = new Map<string, readonly Scope[]>();
function credentialScopes(text: string): readonly Scope[] {
  let scopes = sharedScopes.get(text);
  if (!scopes) {
    scopes = Object.freeze(parseScopes(text));
    if (sharedScopes.size < 1_000) sharedScopes.set(text, scopes);
  }
  return scopes;
}

function checkScopes(scopes: readonly string[]): Scope[] {
  if (scopes.length === 0) throw new CredentialError("at least one --scope is needed");
  for (const s of scopes)
    if (!isScope(s))
      throw new CredentialError(`unknown scope "${s}" (use tickets:write, permits:read or admin)`);
  return [...new Set(scopes)] as Scope[];
}

function checkName(name: string | undefined): string {
  if (!name || !/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/.test(name))
    throw new CredentialError(
      "a name is 1-64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit",
    );
  return name;
}

function newId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return prefix + Buffer.from(bytes).toString("hex");
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Tokens and Basic users. A token's row is read from the store at most every half second
 * (TOKEN_CACHE_MS), and at once after a write through this service, so a token created by the
 * CLI in another process counts on the very next request and one revoked there is refused
 * within half a second; expiry is checked against the clock on every request.
 */
export class CredentialService {
  private readonly passwords: PasswordChecks;
  private readonly tokenCache = new Map<string, { row: TokenCheck; readAt: number }>();
  private readonly lastUsed = new Map<string, { kind: "token" | "user"; at: number }>();
  private flushTimer: ReturnType<typeof setInterval> | undefined;
  private flushFailing = false;

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {
    this.passwords = new PasswordChecks(now);
  }

  createToken(input: { name: string; scopes: readonly string[]; expiresInMs?: number }): {
    id: string;
    token: string;
  } {
    const name = checkName(input.name);
    const scopes = checkScopes(input.scopes);
    if (input.expiresInMs !== undefined && !(input.expiresInMs > 0))
      throw new CredentialError("a token must live longer than 0 (leave out the expiry for none)");
    const now = this.now();
    // A name belongs to one token that can still be used: an expired one gives it up (it is
    // marked revoked as of its expiry, so the record stays true), a live one keeps it.
    const holder = this.store.credentials.liveTokenNamed(name);
    const expired = holder !== null && holder.expiresAt !== null && holder.expiresAt <= now;
    if (holder !== null && !expired)
      throw new CredentialError(`a token named "${name}" already exists; revoke it first`);
    const token =
      TOKEN_PREFIX + Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    const id = newId("tok_");
    this.tokenCache.clear();
    this.store.credentials.insertToken(
      {
        id,
        name,
        tokenHash: sha256Hex(token),
        scopes: scopes.join(" "),
        createdAt: now,
        expiresAt: input.expiresInMs === undefined ? null : now + input.expiresInMs,
      },
      expired ? { id: holder.id, at: holder.expiresAt! } : undefined,
    );
    return { id, token };
  }

  listTokens(): TokenInfo[] {
    return this.store.credentials.tokens().map((r) => ({
      id: r.id,
      name: r.name,
      scopes: parseScopes(r.scopes),
      createdAt: r.createdAt,
      lastUsedAt: r.lastUsedAt,
      expiresAt: r.expiresAt,
      revokedAt: r.revokedAt,
    }));
  }

  /** Revokes the live token with this id or name; returns its id. */
  revokeToken(idOrName: string): string {
    const id = this.store.credentials.liveTokenByIdOrName(idOrName);
    if (id === null) throw new CredentialError(`no live token with id or name "${idOrName}"`);
    this.tokenCache.clear();
    this.store.credentials.revokeToken(id, this.now());
    return id;
  }

  async createUser(input: {
    name: string;
    scopes: readonly string[];
    password: string;
  }): Promise<{ id: string }> {
    const name = checkName(input.name);
    const scopes = checkScopes(input.scopes);
    if (input.password.length < 12) throw new CredentialError("the password must be at least 12 characters");
    if (this.store.credentials.userNamed(name))
      throw new CredentialError(`a user named "${name}" already exists`);
    const id = newId("usr_");
    const passwordHash = await Bun.password.hash(input.password, { algorithm: "argon2id" });
    this.tokenCache.clear();
    this.store.credentials.insertUser({
      id,
      name,
      passwordHash,
      scopes: scopes.join(" "),
      createdAt: this.now(),
    });
    return { id };
  }

  listUsers(): UserInfo[] {
    return this.store.credentials.users().map((r) => ({
      id: r.id,
      name: r.name,
      scopes: parseScopes(r.scopes),
      createdAt: r.createdAt,
      lastUsedAt: r.lastUsedAt,
    }));
  }

  deleteUser(idOrName: string): string {
    const id = this.store.credentials.userByIdOrName(idOrName);
    if (id === null) throw new CredentialError(`no user with id or name "${idOrName}"`);
    this.tokenCache.clear();
    this.store.credentials.deleteUser(id);
    return id;
  }

  /**
   * The credential as it stands now, by id: null once its token is revoked or expired or its
   * user deleted. A browser session asks this on every request, as a Bearer request would.
   */
  current(kind: "token" | "user", id: string): Credential | null {
    const now = this.now();
    if (kind === "token") {
      const row = this.store.credentials.tokenById(id);
      if (!row || row.revokedAt !== null || (row.expiresAt !== null && row.expiresAt <= now)) return null;
      this.lastUsed.set(row.id, { kind, at: now });
      return { kind, id: row.id, name: row.name, scopes: credentialScopes(row.scopes) };
    }
    const row = this.store.credentials.userById(id);
    if (!row) return null;
    this.lastUsed.set(row.id, { kind, at: now });
    return { kind, id: row.id, name: row.name, scopes: credentialScopes(row.scopes) };
  }

  verifyBearer(token: string): Credential | null {
    const row = this.tokenRow(token);
    if (!row) return null;
    const now = this.now();
    if (row.revokedAt !== null) return null;
    if (row.expiresAt !== null && row.expiresAt <= now) return null;
    this.lastUsed.set(row.id, { kind: "token", at: now });
    return { kind: "token", id: row.id, name: row.name, scopes: credentialScopes(row.scopes) };
  }

  /** The token's row, from the cache while it is fresh; unknown tokens are never cached. */
  private tokenRow(token: string): TokenCheck | null {
    const at = performance.now();
    const cached = this.tokenCache.get(token);
    if (cached && at - cached.readAt < TOKEN_CACHE_MS) return cached.row;
    const hash = sha256Hex(token);
    const row = this.store.credentials.tokenForHash(hash);
    if (!row || !sameHex(row.tokenHash, hash)) {
      this.tokenCache.delete(token);
      return null;
    }
    if (this.tokenCache.size >= TOKEN_CACHE_MAX) this.tokenCache.clear();
    this.tokenCache.set(token, { row, readAt: at });
    return row;
  }

  /**
   * The user's credential when `password` is theirs. `knownOnly` (an address locked out after
   * many failures): only a name and password verified before in this process is answered, with
   * no argon2id work; any other pair is null.
   */
  async verifyBasic(name: string, password: string, knownOnly = false): Promise<Credential | null> {
    const row = this.store.credentials.userNamed(name);
    const key = sha256Hex(`${name}\u0000${password}`);
    if (!row) {
      // The same argon2id work as a wrong password, so the answer's timing does not tell which
      // user names exist.
      if (!knownOnly) await this.passwords.waste(key, password, await dummyHash());
      return null;
    }
    if ((await this.passwords.check(key, password, row.passwordHash, knownOnly)) !== "valid") return null;
    this.lastUsed.set(row.id, { kind: "user", at: this.now() });
    return { kind: "user", id: row.id, name: row.name, scopes: credentialScopes(row.scopes) };
  }

  /** last_used_at is written in batches so that reads never wait on a disk sync. */
  startLastUsedFlush(): void {
    this.flushTimer ??= setInterval(() => this.flushLastUsed(), LAST_USED_FLUSH_MS);
    this.flushTimer.unref?.();
  }

  /**
   * Writes the last-used times gathered since the previous flush. It runs on a timer, where a
   * throw would be an uncaught error: a store that cannot write (full, read-only) keeps the
   * times for the next try and is logged once, as one JSON line, until a flush succeeds again.
   */
  flushLastUsed(): void {
    if (this.lastUsed.size === 0) return;
    const pending = [...this.lastUsed];
    this.lastUsed.clear();
    try {
      this.store.credentials.recordLastUsed(pending);
      if (this.flushFailing) logLine({ level: "info", msg: "last-used times written again" });
      this.flushFailing = false;
    } catch (e) {
      // Newer times that came in meanwhile win over the ones kept for the retry.
      for (const [key, used] of pending) if (!this.lastUsed.has(key)) this.lastUsed.set(key, used);
      if (this.flushFailing) return;
      this.flushFailing = true;
      const code = (e as { code?: unknown })?.code;
      logLine({
        level: "warn",
        msg: "last-used times not written; kept for the next try",
        error: typeof code === "string" ? code : String((e as Error)?.message ?? e),
      });
    }
  }

  stop(): void {
    if (this.flushTimer) clearInterval(this.flushTimer);
    this.flushTimer = undefined;
    try {
      this.flushLastUsed();
    } catch {
      // A store that cannot be written at shutdown only loses last-used times.
    }
  }
}
