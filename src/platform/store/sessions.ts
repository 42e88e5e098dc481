import type { Database, Statement } from "bun:sqlite";
import { columnList, insertColumns } from "./columns.ts";
import { commitRelaxed } from "./connection.ts";
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

const KEYS = [
  "idHash",
  "credentialKind",
  "credentialId",
  "createdAt",
  "seenAt",
  "expiresAt",
] as const satisfies readonly (keyof StoredSession)[];

export class BrowserSessionRecords {
  private readonly byHash: Statement<StoredSession, [string]>;
  private readonly insert: Statement<void, [StoredSession]>;
  private readonly touch: Statement<void, [SessionUse & SessionLife]>;
  private readonly deleteOne: Statement<{ idHash: string }, [string]>;
  private readonly deleteOfCredential: Statement<{ idHash: string }, [string, string]>;
  private readonly deleteOwnBeyond: Statement<{ idHash: string }, [string, string, number]>;
  private readonly deleteLeastRecent: Statement<{ idHash: string }, [number]>;
  private readonly deleteExpiredBy: Statement<{ idHash: string }, [number]>;
  private readonly countAll: Statement<{ n: number }, []>;

  constructor(private readonly sqlite: Database) {
    this.byHash = sqlite.prepare(
      `SELECT ${columnList(browserSessions)} FROM browser_sessions WHERE id_hash = ?1`,
    );
    this.insert = sqlite.prepare(`INSERT INTO browser_sessions ${insertColumns(browserSessions, KEYS)}`);
    // Uses are written late and may come in any order: the latest one counts.
    this.touch = sqlite.prepare(
      `UPDATE browser_sessions SET seen_at = max(seen_at, $seenAt),
         expires_at = min(max(seen_at, $seenAt) + $idleMs, created_at + $maxAgeMs)
       WHERE id_hash = $idHash`,
    );
    this.deleteOne = sqlite.prepare(
      "DELETE FROM browser_sessions WHERE id_hash = ?1 RETURNING id_hash AS idHash",
    );
    this.deleteOfCredential = sqlite.prepare(
      `DELETE FROM browser_sessions WHERE credential_kind = ?1 AND credential_id = ?2
       RETURNING id_hash AS idHash`,
    );
    // The least recently used go first: all but the `?3` most recently seen (of two sessions
    // seen in the same millisecond, the older one).
    this.deleteOwnBeyond = sqlite.prepare(
      `DELETE FROM browser_sessions WHERE id_hash IN (
         SELECT id_hash FROM browser_sessions WHERE credential_kind = ?1 AND credential_id = ?2
         ORDER BY seen_at DESC, rowid DESC LIMIT -1 OFFSET ?3)
       RETURNING id_hash AS idHash`,
    );
    // Counted first (a count is cheap, walking past thousands of rows is not): the `?1` least
    // recently used.
    this.deleteLeastRecent = sqlite.prepare(
      `DELETE FROM browser_sessions WHERE id_hash IN (
         SELECT id_hash FROM browser_sessions ORDER BY seen_at, rowid LIMIT ?1)
       RETURNING id_hash AS idHash`,
    );
    this.deleteExpiredBy = sqlite.prepare(
      "DELETE FROM browser_sessions WHERE expires_at < ?1 RETURNING id_hash AS idHash",
    );
    this.countAll = sqlite.prepare("SELECT count(*) AS n FROM browser_sessions");
  }

  byIdHash(idHash: string): StoredSession | null {
    return this.byHash.get(idHash);
  }

  /**
   * Adds a session and makes room for it in the same transaction: past `perCredential` of its
   * credential's, or `total` in all, the least recently used go. Returns the id hashes that went.
   */
  open(session: StoredSession, caps: { perCredential: number; total: number }): string[] {
    return this.sqlite.transaction(() => {
      this.insert.run(session);
      const gone = this.deleteOwnBeyond.all(session.credentialKind, session.credentialId, caps.perCredential);
      const over = this.countAll.get()!.n - caps.total;
      if (over > 0) gone.push(...this.deleteLeastRecent.all(over));
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
    return this.deleteOne.all(idHash).length > 0;
  }

  /** Ends every session of a credential; call it inside the transaction that ends the credential. */
  deleteFor(kind: CredentialKind, credentialId: string): string[] {
    return this.deleteOfCredential.all(kind, credentialId).map((r) => r.idHash);
  }

  /** Deletes the sessions that ended before `now`; returns their id hashes. */
  deleteExpired(now: number): string[] {
    return this.deleteExpiredBy.all(now).map((r) => r.idHash);
  }

  count(): number {
    return this.countAll.get()!.n;
  }
}
