import { timingSafeEqual } from "node:crypto";
import { type Actor, type ChangeAction, CLI_ACTOR, type Fields } from "../../../domain/changes.ts";
import { type Credential, isScope, type Scope } from "../../../domain/credentials.ts";
import { type Problem, refuse } from "../../../domain/errors.ts";
import { logLine } from "../../../platform/log.ts";
import type { TokenCheck } from "../../../platform/store/credentials.ts";
import type { Store } from "../../../platform/store/db.ts";
import { CredentialEnds, type EndedCredential } from "./ends.ts";
import { dummyHash, PasswordChecks } from "./passwords.ts";

const TOKEN_PREFIX = "pk_";
const LAST_USED_FLUSH_MS = 5_000;
/**
 * A bearer token's row is trusted this long (monotonic time) before it is read again: a token
 * revoked by the CLI, in another process, is refused within this time. Half the promised second.
 */
const TOKEN_CACHE_MS = 500;
/** Tokens cached at most; more distinct ones in half a second than this and the cache starts over. */
const TOKEN_CACHE_MAX = 1_000;

/**
 * Tokens and Basic users. A token's row is read from the store at most every half second
 * (TOKEN_CACHE_MS), and at once after a write through this service, so a token created by the
 * CLI in another process counts on the very next request and one revoked there is refused
 * within half a second; expiry is checked against the clock on every request.
 */
/** The credentials' tables, the history of their changes, and the browser sessions they end. */
export type CredentialStore = Pick<Store, "credentials" | "changes" | "browserSessions" | "transaction">;

export class CredentialService {
  private readonly passwords: PasswordChecks;
  private readonly tokenCache = new Map<string, { row: TokenCheck; readAt: number }>();
  private readonly lastUsed = new Map<string, { kind: "token" | "user"; at: number }>();
  private flushTimer: ReturnType<typeof setInterval> | undefined;
  private flushFailing = false;
  private readonly ends = new CredentialEnds();

  constructor(
    private readonly store: CredentialStore,
    private readonly now: () => number = Date.now,
  ) {
    this.passwords = new PasswordChecks(now);
  }

  /** Keeps a credential write in the change history; call it inside the write's transaction. */
  private record(
    actor: Actor,
    subject: "token" | "user",
    id: string,
    action: ChangeAction,
    before: Fields | null,
    after: Fields | null,
  ): void {
    this.store.changes.record({
      at: this.now(),
      actor: actor.who,
      via: actor.via,
      subject,
      subjectId: id,
      action,
      before,
      after,
    });
  }

  /** `actor`: who asks (the command line unless a request says otherwise). */
  createToken(
    input: { name: string; scopes: readonly string[]; expiresInMs?: number },
    actor: Actor = CLI_ACTOR,
  ): {
    id: string;
    token: string;
  } {
    const name = checkName(input.name);
    const scopes = checkScopes(input.scopes);
    checkLifetime(input.expiresInMs);
    const now = this.now();
    // A name belongs to one token that can still be used: an expired one gives it up (it is
    // marked revoked as of its expiry, so the record stays true), a live one keeps it.
    const holder = this.store.credentials.liveTokenNamed(name);
    const expired = holder !== null && holder.expiresAt !== null && holder.expiresAt <= now;
    if (holder !== null && !expired)
      throw refuse("credential-exists", `a token named "${name}" already exists; revoke it first`);
    const token =
      TOKEN_PREFIX + Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    const id = newId("tok_");
    this.tokenCache.clear();
    const expiresAt = input.expiresInMs === undefined ? null : now + input.expiresInMs;
    this.store.transaction(() => {
      this.store.credentials.insertToken(
        { id, name, tokenHash: sha256Hex(token), scopes: scopes.join(" "), createdAt: now, expiresAt },
        expired ? { id: holder.id, at: holder.expiresAt! } : undefined,
      );
      this.record(actor, "token", id, "create", null, {
        name,
        scopes,
        expires_at: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      });
    })();
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
  revokeToken(idOrName: string, actor: Actor = CLI_ACTOR): string {
    const id = this.store.credentials.liveTokenByIdOrName(idOrName);
    if (id === null) throw refuse("credential-not-found", `no live token with id or name "${idOrName}"`);
    this.tokenCache.clear();
    const at = this.now();
    let sessions: string[] = [];
    this.store.transaction(() => {
      this.store.credentials.revokeToken(id, at);
      // Its browser sessions end with it, also when the command line revokes it.
      sessions = this.store.browserSessions.deleteFor("token", id);
      this.record(
        actor,
        "token",
        id,
        "revoke",
        { revoked_at: null },
        { revoked_at: new Date(at).toISOString() },
      );
    })();
    this.ends.ended({ kind: "token", id, reason: "revoked", sessions });
    return id;
  }

  async createUser(
    input: {
      name: string;
      scopes: readonly string[];
      password: string;
    },
    actor: Actor = CLI_ACTOR,
  ): Promise<{ id: string }> {
    const name = checkName(input.name);
    const scopes = checkScopes(input.scopes);
    checkPassword(input.password);
    if (this.store.credentials.userNamed(name))
      throw refuse("credential-exists", `a user named "${name}" already exists`);
    const id = newId("usr_");
    const passwordHash = await Bun.password.hash(input.password, { algorithm: "argon2id" });
    this.tokenCache.clear();
    this.store.transaction(() => {
      this.store.credentials.insertUser({
        id,
        name,
        passwordHash,
        scopes: scopes.join(" "),
        createdAt: this.now(),
      });
      this.record(actor, "user", id, "create", null, { name, scopes });
    })();
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

  deleteUser(idOrName: string, actor: Actor = CLI_ACTOR): string {
    const id = this.store.credentials.userByIdOrName(idOrName);
    if (id === null) throw refuse("credential-not-found", `no user with id or name "${idOrName}"`);
    this.tokenCache.clear();
    let sessions: string[] = [];
    this.store.transaction(() => {
      const user = this.store.credentials.users().find((u) => u.id === id);
      this.store.credentials.deleteUser(id);
      sessions = this.store.browserSessions.deleteFor("user", id);
      if (user)
        this.record(actor, "user", id, "delete", { name: user.name, scopes: parseScopes(user.scopes) }, null);
    })();
    this.ends.ended({ kind: "user", id, reason: "deleted", sessions });
    return id;
  }

  /**
   * Called at once with every token revoked and user deleted through this process (the API).
   * One ended by another process (the CLI) is seen by asking `current` again.
   */
  onEnded(listener: (ended: EndedCredential) => void): () => void {
    return this.ends.listen(listener);
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
   * The user's credential when `password` is theirs, asked from `client` (an address: the
   * password checks are shared fairly between addresses). `knownOnly` (an address locked out
   * after many failures): only a name and password verified before in this process is answered,
   * with no argon2id work; any other pair is null.
   */
  async verifyBasic(
    name: string,
    password: string,
    client: string,
    knownOnly = false,
  ): Promise<Credential | null> {
    const row = this.store.credentials.userNamed(name);
    const key = sha256Hex(`${name}\u0000${password}`);
    if (!row) {
      // The same argon2id work as a wrong password, so the answer's timing does not tell which
      // user names exist.
      if (!knownOnly) await this.passwords.waste(key, password, await dummyHash(), client);
      return null;
    }
    if ((await this.passwords.check(key, password, row.passwordHash, client, knownOnly)) !== "valid")
      return null;
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
        level: "warning",
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

// What tokens and users are, and the checks on what an operator asks for (names, scopes,
// lifetimes, passwords): the rules this service keeps.

/**
 * A refused credential field: the field names what was wrong (the API's pointer), and the detail
 * is what the CLI prints.
 */
function credentialInvalid(detail: string, field: string): Problem {
  return refuse("validation", detail, { errors: [{ pointer: `/${field}`, message: detail }] });
}

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
  if (scopes.length === 0) throw credentialInvalid("at least one scope is needed (--scope)", "scopes");
  for (const s of scopes)
    if (!isScope(s))
      throw credentialInvalid(
        `unknown scope "${s}" (use tickets:write, permits:read, notices:write or admin)`,
        "scopes",
      );
  return [...new Set(scopes)] as Scope[];
}

function checkName(name: string | undefined): string {
  if (!name || !/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/.test(name))
    throw credentialInvalid(
      "a name is 1-64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit",
      "name",
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

function checkLifetime(expiresInMs: number | undefined): void {
  if (expiresInMs !== undefined && !(expiresInMs > 0))
    throw credentialInvalid(
      "a token must live longer than 0 (leave out the expiry for none)",
      "expires_in_days",
    );
}

function checkPassword(password: string): void {
  if (password.length < 12)
    throw credentialInvalid("the password must be at least 12 characters", "password");
}
