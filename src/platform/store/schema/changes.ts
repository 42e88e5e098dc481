import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Every operator write to lots, permits, tokens and users, whoever made it and however (API,
 * console, CLI): who, when, what, and the fields it changed, before and after. Secrets (token
 * hashes, password hashes) are never in it.
 */
export const operatorChanges = sqliteTable(
  "operator_changes",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    at: integer().notNull(),
    /** The credential label (`token:ops-laptop`, `user:anna`) or `cli` for the command line. */
    actor: text().notNull(),
    via: text({ enum: ["api", "console", "cli", "handheld"] }).notNull(),
    subject: text({ enum: ["lot", "permit", "token", "user", "notice", "notice_reason"] }).notNull(),
    subjectId: text("subject_id").notNull(),
    action: text({ enum: ["create", "update", "delete", "revoke", "issue", "void"] }).notNull(),
    /** JSON object of the changed fields as they were; null for a create. */
    before: text({ mode: "json" }).$type<Record<string, unknown>>(),
    /** JSON object of the changed fields as they became; null for a delete. */
    after: text({ mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    index("operator_changes_at").on(t.at),
    index("operator_changes_subject").on(t.subject, t.subjectId, t.id),
    index("operator_changes_kind").on(t.subject, t.id),
    index("operator_changes_actor").on(t.actor, t.id),
  ],
);
