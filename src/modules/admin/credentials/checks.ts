import { timingSafeEqual } from "node:crypto";
import { CREDENTIAL_REFUSALS, isScope, type Scope } from "../../../domain/credentials.ts";
import { COMMON_REFUSALS, DomainError } from "../../../domain/errors.ts";

/** What tokens and users are, and the checks on what an operator asks for. */

const CODES = {
  invalid: "validation",
  "not-found": "credential-not-found",
  conflict: "credential-exists",
} as const;
const REFUSALS = { ...COMMON_REFUSALS, ...CREDENTIAL_REFUSALS };

/**
 * A refused credential change: its kind decides the API's answer (the platform maps it, as any
 * DomainError), the field names what was wrong, and the detail is what the CLI prints.
 */
export class CredentialError extends DomainError {
  constructor(kind: keyof typeof CODES, detail: string, field?: string) {
    super(
      kind,
      CODES[kind],
      REFUSALS[CODES[kind]].title,
      detail,
      kind === "invalid" ? [{ pointer: field ? `/${field}` : "", message: detail }] : undefined,
    );
  }
}

export interface TokenInfo {
  id: string;
  name: string;
  scopes: Scope[];
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
  revokedAt: number | null;
}

export interface UserInfo {
  id: string;
  name: string;
  scopes: Scope[];
  createdAt: number;
  lastUsedAt: number | null;
}

export function sha256Hex(text: string): string {
  return Bun.CryptoHasher.hash("sha256", text, "hex") as string;
}

export function parseScopes(text: string): Scope[] {
  return text.split(" ").filter(isScope);
}

// Every authenticated request needs its credential's scopes; there are only a few distinct texts.
const sharedScopes = new Map<string, readonly Scope[]>();
export function credentialScopes(text: string): readonly Scope[] {
  let scopes = sharedScopes.get(text);
  if (!scopes) {
    scopes = Object.freeze(parseScopes(text));
    if (sharedScopes.size < 1_000) sharedScopes.set(text, scopes);
  }
  return scopes;
}

export function checkScopes(scopes: readonly string[]): Scope[] {
  if (scopes.length === 0)
    throw new CredentialError("invalid", "at least one scope is needed (--scope)", "scopes");
  for (const s of scopes)
    if (!isScope(s))
      throw new CredentialError(
        "invalid",
        `unknown scope "${s}" (use tickets:write, permits:read, notices:write or admin)`,
        "scopes",
      );
  return [...new Set(scopes)] as Scope[];
}

export function checkName(name: string | undefined): string {
  if (!name || !/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/.test(name))
    throw new CredentialError(
      "invalid",
      "a name is 1-64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit",
      "name",
    );
  return name;
}

export function newId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return prefix + Buffer.from(bytes).toString("hex");
}

export function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

export function checkLifetime(expiresInMs: number | undefined): void {
  if (expiresInMs !== undefined && !(expiresInMs > 0))
    throw new CredentialError(
      "invalid",
      "a token must live longer than 0 (leave out the expiry for none)",
      "expires_in_days",
    );
}

export function checkPassword(password: string): void {
  if (password.length < 12)
    throw new CredentialError("invalid", "the password must be at least 12 characters", "password");
}
