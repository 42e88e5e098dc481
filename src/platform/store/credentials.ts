import type { Database, Statement } from "bun:sqlite";
import { and, count, eq, isNull, or, sql } from "drizzle-orm";
import { columnList } from "./columns.ts";
import { commitRelaxed } from "./connection.ts";
import type { Db } from "./db.ts";
import { apiTokens, apiUsers } from "./schema/index.ts";

/**
 * The one owner of the `api_tokens` and `api_users` tables. Scopes are stored space-separated.
 * Two statements stay prepared by hand: the credential checks (a token by its hash, a user by
 * name) that every authenticated request runs, the intake's first of all, read without drizzle's
 * mapping; the rest is drizzle's builder.
 */

export type StoredToken = typeof apiTokens.$inferSelect;
export type StoredUser = typeof apiUsers.$inferSelect;

/** What verifying a bearer token needs, read for every authenticated request. */
export interface TokenCheck {
  id: string;
  name: string;
  tokenHash: string;
  scopes: string;
  expiresAt: number | null;
  revokedAt: number | null;
}

export class CredentialRecords {
  private readonly tokenByHash: Statement<TokenCheck, [string]>;
  private readonly userByName: Statement<StoredUser, [string]>;
  private readonly touchToken;
  private readonly touchUser;
  private readonly tokenWithId;
  private readonly userWithId;

  constructor(
    private readonly sqlite: Database,
    private readonly db: Db,
  ) {
    this.tokenByHash = sqlite.prepare(
      `SELECT ${columnList(apiTokens, ["id", "name", "tokenHash", "scopes", "expiresAt", "revokedAt"])}
       FROM api_tokens WHERE token_hash = ?1`,
    );
    this.userByName = sqlite.prepare(`SELECT ${columnList(apiUsers)} FROM api_users WHERE name = ?1`);
    this.touchToken = db
      .update(apiTokens)
      .set({ lastUsedAt: sql`${sql.placeholder("at")}` })
      .where(eq(apiTokens.id, sql.placeholder("id")))
      .prepare();
    this.touchUser = db
      .update(apiUsers)
      .set({ lastUsedAt: sql`${sql.placeholder("at")}` })
      .where(eq(apiUsers.id, sql.placeholder("id")))
      .prepare();
    this.tokenWithId = db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.id, sql.placeholder("id")))
      .prepare();
    this.userWithId = db
      .select()
      .from(apiUsers)
      .where(eq(apiUsers.id, sql.placeholder("id")))
      .prepare();
  }

  tokenForHash(hash: string): TokenCheck | null {
    return this.tokenByHash.get(hash);
  }

  /**
   * A token by id, for a browser session checking its credential on every request and the open
   * feeds' watch (every credential behind a feed, a few times a second): prepared once.
   */
  tokenById(id: string): StoredToken | null {
    return this.tokenWithId.get({ id }) ?? null;
  }

  userById(id: string): StoredUser | null {
    return this.userWithId.get({ id }) ?? null;
  }

  /** The live (not revoked) token with this name; it may have expired. */
  liveTokenNamed(name: string): { id: string; expiresAt: number | null } | null {
    return (
      this.db
        .select({ id: apiTokens.id, expiresAt: apiTokens.expiresAt })
        .from(apiTokens)
        .where(and(eq(apiTokens.name, name), isNull(apiTokens.revokedAt)))
        .get() ?? null
    );
  }

  /** The id of the live token with this id or name. */
  liveTokenByIdOrName(idOrName: string): string | null {
    return (
      this.db
        .select({ id: apiTokens.id })
        .from(apiTokens)
        .where(and(or(eq(apiTokens.id, idOrName), eq(apiTokens.name, idOrName)), isNull(apiTokens.revokedAt)))
        .get()?.id ?? null
    );
  }

  /**
   * Inserts a token; `retire` (an expired token of the same name) is marked revoked at the moment
   * it expired, in the same transaction, so the name is free for the new one.
   */
  insertToken(token: typeof apiTokens.$inferInsert, retire?: { id: string; at: number }): void {
    this.sqlite.transaction(() => {
      if (retire) this.revokeToken(retire.id, retire.at);
      this.db.insert(apiTokens).values(token).run();
    })();
  }

  tokens(): StoredToken[] {
    return this.db.select().from(apiTokens).orderBy(apiTokens.createdAt).all();
  }

  revokeToken(id: string, at: number): void {
    this.db.update(apiTokens).set({ revokedAt: at }).where(eq(apiTokens.id, id)).run();
  }

  userNamed(name: string): StoredUser | null {
    return this.userByName.get(name);
  }

  /** The id of the user with this id or name. */
  userByIdOrName(idOrName: string): string | null {
    return (
      this.db
        .select({ id: apiUsers.id })
        .from(apiUsers)
        .where(or(eq(apiUsers.id, idOrName), eq(apiUsers.name, idOrName)))
        .get()?.id ?? null
    );
  }

  insertUser(user: typeof apiUsers.$inferInsert): void {
    this.db.insert(apiUsers).values(user).run();
  }

  users(): StoredUser[] {
    return this.db.select().from(apiUsers).orderBy(apiUsers.createdAt).all();
  }

  deleteUser(id: string): void {
    this.db.delete(apiUsers).where(eq(apiUsers.id, id)).run();
  }

  /** Last-used times in one relaxed commit: losing a few on a power cut costs nothing. */
  recordLastUsed(entries: Iterable<[string, { kind: "token" | "user"; at: number }]>): void {
    commitRelaxed(this.sqlite, () => {
      for (const [id, { kind, at }] of entries)
        (kind === "token" ? this.touchToken : this.touchUser).run({ at, id });
    });
  }

  counts(): { tokens: number; users: number } {
    return {
      tokens: this.db.select({ n: count() }).from(apiTokens).where(isNull(apiTokens.revokedAt)).get()!.n,
      users: this.db.select({ n: count() }).from(apiUsers).get()!.n,
    };
  }
}
