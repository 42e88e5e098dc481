import { sql } from "drizzle-orm";
import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Bearer tokens. Only the SHA-256 of a token is kept; the token itself is shown once. */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: text().primaryKey(),
    name: text().notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    /** Space-separated scope names. */
    scopes: text().notNull(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_tokens_live_name").on(t.name).where(sql`revoked_at IS NULL`)],
);

/** Basic-auth users for terminals that cannot send a bearer token. */
export const apiUsers = sqliteTable("api_users", {
  id: text().primaryKey(),
  name: text().notNull().unique(),
  /** argon2id, from Bun.password. */
  passwordHash: text("password_hash").notNull(),
  scopes: text().notNull(),
  createdAt: integer("created_at").notNull(),
  lastUsedAt: integer("last_used_at"),
});
