import type { Credential } from "../../domain/credentials.ts";

/** Why a credential can no longer be used, as the last event of its feeds says. */
export type EndReason = "revoked" | "deleted" | "ended";

/** What the watch asks of whoever keeps the credentials (the admin module's CredentialService). */
export interface CredentialState {
  /** The credential as it stands now; null once revoked, expired or deleted (by any process). */
  current(kind: Credential["kind"], id: string): Credential | null;
  /** Called at once for each credential ended through this process. */
  onEnded(listener: (ended: { kind: Credential["kind"]; id: string; reason: EndReason }) => void): () => void;
}

/**
 * A credential that ends (revoked, expired, its user deleted) must not keep streaming plates:
 * everything held open under it is ended at once when it ends through this process (the API),
 * and within `everyMs` when another process ends it (`parkd token revoke`).
 */
export class CredentialWatch {
  private readonly held = new Map<
    string,
    { kind: Credential["kind"]; id: string; ends: Set<(r: EndReason) => void> }
  >();
  private timer: ReturnType<typeof setInterval> | undefined;
  private stopListening: (() => void) | undefined;

  constructor(
    private readonly credentials: CredentialState,
    private readonly everyMs = 400,
  ) {}

  /** Calls `end` when the credential ends; returns the function that stops watching for it. */
  hold(credential: Credential, end: (reason: EndReason) => void): () => void {
    const key = `${credential.kind} ${credential.id}`;
    let entry = this.held.get(key);
    if (!entry) {
      entry = { kind: credential.kind, id: credential.id, ends: new Set() };
      this.held.set(key, entry);
    }
    entry.ends.add(end);
    this.start();
    return () => {
      const e = this.held.get(key);
      if (!e) return;
      e.ends.delete(end);
      if (e.ends.size === 0) this.held.delete(key);
      if (this.held.size === 0) this.stop();
    };
  }

  private endAll(kind: Credential["kind"], id: string, reason: EndReason): void {
    const e = this.held.get(`${kind} ${id}`);
    if (!e) return;
    for (const end of [...e.ends]) end(reason);
  }

  private check(): void {
    for (const e of [...this.held.values()]) {
      let live: Credential | null;
      try {
        live = this.credentials.current(e.kind, e.id);
      } catch {
        continue; // a store that cannot be read now is asked again at the next check
      }
      if (live === null) this.endAll(e.kind, e.id, "ended");
    }
  }

  private start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), this.everyMs);
    this.timer.unref?.();
    this.stopListening = this.credentials.onEnded((c) => this.endAll(c.kind, c.id, c.reason));
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopListening?.();
    this.stopListening = undefined;
  }
}
