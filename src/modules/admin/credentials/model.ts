import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { SCOPES } from "../../../domain/credentials.ts";

const Scopes = t.Array(t.UnionEnum(SCOPES), { minItems: 1, uniqueItems: true });
const ScopeList = t.Array(t.UnionEnum(SCOPES));
const Name = t.String({
  pattern: "^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$",
  description: "1-64 letters, digits, . _ @ -",
});
const Instant = t.String({ format: "date-time" });
const When = t.Union([Instant, t.Null()]);

export const TokenInput = t.Object(
  { name: Name, scopes: Scopes, expires_in_days: t.Optional(Type.Integer({ minimum: 1, maximum: 3650 })) },
  { additionalProperties: false },
);
export const TokenInfo = t.Object({
  id: t.String(),
  name: t.String(),
  scopes: ScopeList,
  created_at: Instant,
  last_used_at: When,
  expires_at: When,
  revoked_at: When,
});
export const NewToken = t.Object({
  data: t.Object({
    id: t.String(),
    name: t.String(),
    scopes: ScopeList,
    expires_at: When,
    token: t.String({ description: "Shown this once; only its SHA-256 is kept" }),
  }),
});
export const UserInput = t.Object(
  { name: Name, scopes: Scopes, password: t.String({ minLength: 12, maxLength: 1024 }) },
  { additionalProperties: false },
);
export const UserInfo = t.Object({
  id: t.String(),
  name: t.String(),
  scopes: ScopeList,
  created_at: Instant,
  last_used_at: When,
});
export const TokenList = t.Object({ data: t.Array(TokenInfo) });
export const UserList = t.Object({ data: t.Array(UserInfo) });
export const UserEnvelope = t.Object({ data: UserInfo });
export const IdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 80 }) });

export const WhoAmI = t.Object({
  kind: t.Union([t.Literal("token"), t.Literal("user")]),
  name: t.String(),
  scopes: t.Array(t.UnionEnum(SCOPES)),
});
