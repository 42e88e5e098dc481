import { timingSafeEqual } from "node:crypto";
import { isScope, type Scope } from "../../../domain/credentials.ts";
import { type Problem, refuse } from "../../../domain/errors.ts";

/** What tokens and users are, and the checks on what an operator asks for. */

/**
 * A refused credential field: the field names what was wrong (the API's pointer), and the detail
 * is what the CLI prints.
 */
export function credentialInvalid(detail: string, field: string): Problem {
  return refuse("validation", detail, { errors: [{ pointer: `/${field}`, message: detail }] });
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
  if (scopes.length === 0) throw credentialInvalid("at least one scope is needed (--scope)", "scopes");
  for (const s of scopes)
    if (!isScope(s))
      throw credentialInvalid(
        `unknown scope "${s}" (use tickets:write, permits:read, notices:write or admin)`,
        "scopes",
      );
  return [...new Set(scopes)] as Scope[];
}

export function checkName(name: string | undefined): string {
  if (!name || !/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/.test(name))
    throw credentialInvalid(
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
    throw credentialInvalid(
      "a token must live longer than 0 (leave out the expiry for none)",
      "expires_in_days",
    );
}

export function checkPassword(password: string): void {
  if (password.length < 12)
    throw credentialInvalid("the password must be at least 12 characters", "password");
}
