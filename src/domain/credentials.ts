import type { RefusalTable } from "./errors.ts";

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

/** Refusals about credentials (the admin API's, the sign-in codes'). */
export const CREDENTIAL_REFUSALS = {
  "credential-exists": {
    kind: "conflict",
    title: "Name in use",
    example: 'a token named "handheld-1" already exists; revoke it first',
  },
  "credential-not-found": {
    kind: "not-found",
    title: "No such credential",
    example: 'no live token with id or name "tok_3f9a1c22b7e4"',
  },
  "password-checks-busy": {
    kind: "busy",
    title: "Password checks busy",
    example: "8 password checks are waiting; try again in 1 s",
  },
} as const satisfies RefusalTable;
