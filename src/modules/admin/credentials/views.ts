import type { Static } from "elysia";
import { iso, isoOrNull } from "../paging.ts";
import type { TokenInfo, UserInfo } from "./model.ts";
import type { TokenInfo as TokenRecord, UserInfo as UserRecord } from "./service.ts";

/** A token as the API and `parkd token list --json` show it: snake_case, instants in UTC. */
export function tokenView(x: TokenRecord): Static<typeof TokenInfo> {
  return {
    id: x.id,
    name: x.name,
    scopes: x.scopes,
    created_at: iso(x.createdAt),
    last_used_at: isoOrNull(x.lastUsedAt),
    expires_at: isoOrNull(x.expiresAt),
    revoked_at: isoOrNull(x.revokedAt),
  };
}

/** A Basic user as the API and `parkd user list --json` show it. */
export function userView(u: UserRecord): Static<typeof UserInfo> {
  return {
    id: u.id,
    name: u.name,
    scopes: u.scopes,
    created_at: iso(u.createdAt),
    last_used_at: isoOrNull(u.lastUsedAt),
  };
}
