/** notices:write: issue control notices (a handheld that only checks holds permits:read alone). */
export const SCOPES = ["tickets:write", "permits:read", "notices:write", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}

export interface Credential {
  kind: "token" | "user";
  id: string;
  name: string;
  scopes: readonly Scope[];
}

/** `admin` grants everything. */
export function grants(credential: Credential, scope: Scope): boolean {
  return credential.scopes.includes("admin") || credential.scopes.includes(scope);
}

/** How a credential is named in event logs and lookup records. */
export function credentialLabel(c: Credential): string {
  return `${c.kind}:${c.name}`;
}
