import type { Database } from "bun:sqlite";
import { and, asc, count, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { ROWID } from "./columns.ts";
import { commitRelaxed } from "./connection.ts";
import type { Db } from "./db.ts";
import { browserSessions } from "./schema/index.ts";

/** The one owner of the `browser_sessions` table: the web app's sign-in sessions, by id hash. */

export type CredentialKind = "token" | "user";

/** A type, not an interface: bun:sqlite binds it as named parameters. */
export type StoredSession = {
  idHash: string;
  credentialKind: CredentialKind;
  credentialId: string;
  createdAt: number;
  seenAt: number;
  expiresAt: number;
};

/** A later use of a session. */
export type SessionUse = { idHash: string; seenAt: number };

/** How long a session lasts unused, and at most: what a use moves its expiry by. */
export type SessionLife = { idleMs: number; maxAgeMs: number };

const s = browserSessions;
const p = sql.placeholder;
const GONE = { idHash: s.idHash };

export class BrowserSessionRecords {
  private readonly byHash;
  private readonly touch;
  private readonly deleteOwnBeyond;
  private readonly deleteLeastRecent;

  constructor(
    private readonly sqlite: Database,
    private readonly db: Db,
  ) {
    this.byHash = db
      .select()
      .from(s)
      .where(eq(s.idHash, p("idHash")))
      .prepare();
    // Uses are written late and may come in any order: the latest one counts.
    const seen = sql`max(${s.seenAt}, ${p("seenAt")})`;
    this.touch = db
      .update(s)
      .set({
        seenAt: seen,
        expiresAt: sql`min(${seen} + ${p("idleMs")}, ${s.createdAt} + ${p("maxAgeMs")})`,
      })
      .where(eq(s.idHash, p("idHash")))
      .prepare();
    // The least recently used go first: all but the `keep` most recently seen (of two sessions
    // seen in the same millisecond, the older one).
    this.deleteOwnBeyond = db
      .delete(s)
      .where(
        inArray(
          s.idHash,
          db
            .select({ idHash: s.idHash })
            .from(s)
            .where(and(eq(s.credentialKind, p("kind")), eq(s.credentialId, p("id"))))
            .orderBy(desc(s.seenAt), desc(ROWID))
            // An OFFSET needs a LIMIT; this one bounds nothing (drizzle leaves out SQLite's -1).
            .limit(Number.MAX_SAFE_INTEGER)
            .offset(p("keep")),
        ),
      )
      .returning(GONE)
      .prepare();
    // Counted first (a count is cheap, walking past thousands of rows is not): the `n` least
    // recently used.
    this.deleteLeastRecent = db
      .delete(s)
      .where(
        inArray(
          s.idHash,
          db.select({ idHash: s.idHash }).from(s).orderBy(asc(s.seenAt), ROWID).limit(p("n")),
        ),
      )
      .returning(GONE)
      .prepare();
  }

  byIdHash(idHash: string): StoredSession | null {
    return this.byHash.get({ idHash }) ?? null;
  }

  /**
   * Adds a session and makes room for it in the same transaction: past `perCredential` of its
   * credential's, or `total` in all, the least recently used go. Returns the id hashes that went.
   */
  open(session: StoredSession, caps: { perCredential: number; total: number }): string[] {
    return this.sqlite.transaction(() => {
      this.db.insert(s).values(session).run();
      const gone = this.deleteOwnBeyond.all({
        kind: session.credentialKind,
        id: session.credentialId,
        keep: caps.perCredential,
      });
      const over = this.count() - caps.total;
      if (over > 0) gone.push(...this.deleteLeastRecent.all({ n: over }));
      return gone.map((r) => r.idHash);
    })();
  }

  /**
   * Last uses in one relaxed commit: a power cut loses at most a few minutes of them, which
   * only brings a session's idle end that much closer.
   */
  recordUses(uses: Iterable<SessionUse>, life: SessionLife): void {
    commitRelaxed(this.sqlite, () => {
      for (const use of uses) this.touch.run({ ...use, ...life });
    });
  }

  /** True when there was such a session. */
  delete(idHash: string): boolean {
    return this.db.delete(s).where(eq(s.idHash, idHash)).returning(GONE).all().length > 0;
  }

  /** Ends every session of a credential; call it inside the transaction that ends the credential. */
  deleteFor(kind: CredentialKind, credentialId: string): string[] {
    return this.db
      .delete(s)
      .where(and(eq(s.credentialKind, kind), eq(s.credentialId, credentialId)))
      .returning(GONE)
      .all()
      .map((r) => r.idHash);
  }

  /** Deletes the sessions that ended before `now`; returns their id hashes. */
  deleteExpired(now: number): string[] {
    return this.db
      .delete(s)
      .where(lt(s.expiresAt, now))
      .returning(GONE)
      .all()
      .map((r) => r.idHash);
  }

  count(): number {
    return this.db.select({ n: count() }).from(s).get()!.n;
  }
}
