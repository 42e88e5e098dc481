import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Browser sessions (the web app's sign-in cookie), kept so that a restart or an upgrade of the
 * box does not sign every handheld out mid-round. A row is keyed by the SHA-256 of the cookie's
 * id, never the id itself: a copy of the store (a backup) hands out no live cookie. The csrf
 * value is not kept at all: it is derived from the cookie's id (docs/web.md).
 */
export const browserSessions = sqliteTable(
  "browser_sessions",
  {
    /** SHA-256 of the cookie's id, hex. */
    idHash: text("id_hash").primaryKey(),
    credentialKind: text("credential_kind", { enum: ["token", "user"] }).notNull(),
    credentialId: text("credential_id").notNull(),
    createdAt: integer("created_at").notNull(),
    /** Last use, written at most every few minutes (the box holds newer uses in memory). */
    seenAt: integer("seen_at").notNull(),
    /** When it ends unless used again: the earlier of seen_at + the idle time and created_at + the maximum age. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    index("browser_sessions_credential").on(t.credentialKind, t.credentialId, t.seenAt),
    index("browser_sessions_seen").on(t.seenAt),
    index("browser_sessions_expires").on(t.expiresAt),
  ],
);
