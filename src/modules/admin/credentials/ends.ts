import { logError } from "../../../platform/log.ts";

/** A credential that can no longer be used, and why, for whoever holds something open under it. */
export interface EndedCredential {
  kind: "token" | "user";
  id: string;
  reason: "revoked" | "deleted";
  /** The id hashes of its browser sessions, deleted in the same transaction as the credential. */
  sessions: readonly string[];
}

/** Who wants to know at once when a credential ends (open feeds, browser sessions). */
export class CredentialEnds {
  private readonly listeners = new Set<(ended: EndedCredential) => void>();

  listen(listener: (ended: EndedCredential) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  ended(e: EndedCredential): void {
    for (const listen of this.listeners) {
      try {
        listen(e);
      } catch (err) {
        // A listener's trouble must not undo or hide the revocation itself.
        logError("closing what an ended credential held open failed", err);
      }
    }
  }
}
