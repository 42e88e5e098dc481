import { t } from "elysia";
import { SCOPES } from "../../credentials/scopes.ts";

const Scopes = t.Array(t.UnionEnum(SCOPES), { minItems: 1, uniqueItems: true });
const Name = t.String({
  pattern: "^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$",
  description: "1-64 letters, digits, . _ @ -",
});
const Instant = t.String({ format: "date-time" });
const Cursor = t.String({ maxLength: 200, description: "next_cursor of the previous page" });
const Limit = t.Numeric({ minimum: 1, maximum: 200, default: 50 });

export const SignIn = t.Union(
  [
    t.Object({ token: t.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
    t.Object(
      {
        username: t.String({ minLength: 1, maxLength: 64 }),
        password: t.String({ minLength: 1, maxLength: 1024 }),
      },
      { additionalProperties: false },
    ),
  ],
  { description: "A token, or a Basic user's name and password" },
);

export const SessionEnvelope = t.Object({
  data: t.Object({
    kind: t.Union([t.Literal("token"), t.Literal("user")]),
    name: t.String(),
    scopes: t.Array(t.UnionEnum(SCOPES)),
    csrf: t.String({ description: "Send it as X-CSRF-Token with every write made through the session" }),
  }),
});

export const TokenInput = t.Object(
  {
    name: Name,
    scopes: Scopes,
    expires_in_days: t.Optional(t.Integer({ minimum: 1, maximum: 3650 })),
  },
  { additionalProperties: false },
);

export const TokenInfo = t.Object({
  id: t.String(),
  name: t.String(),
  scopes: t.Array(t.UnionEnum(SCOPES)),
  createdAt: Instant,
  lastUsedAt: t.Union([Instant, t.Null()]),
  expiresAt: t.Union([Instant, t.Null()]),
  revokedAt: t.Union([Instant, t.Null()]),
});
export const TokenList = t.Object({ data: t.Array(TokenInfo) });
export const NewToken = t.Object({
  data: t.Object({
    id: t.String(),
    name: t.String(),
    scopes: t.Array(t.UnionEnum(SCOPES)),
    expiresAt: t.Union([Instant, t.Null()]),
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
  scopes: t.Array(t.UnionEnum(SCOPES)),
  createdAt: Instant,
  lastUsedAt: t.Union([Instant, t.Null()]),
});
export const UserList = t.Object({ data: t.Array(UserInfo) });
export const UserEnvelope = t.Object({ data: UserInfo });

export const IdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 80 }) });

export const TicketSearchQuery = t.Object({
  registration_number: t.Optional(t.String({ maxLength: 32 })),
  zone: t.Optional(t.Numeric({ minimum: 0, maximum: 2_147_483_647 })),
  // Literals, not UnionEnum: Elysia fills a missing query UnionEnum with its first value.
  status: t.Optional(t.Union([t.Literal("running"), t.Literal("stopped"), t.Literal("canceled")])),
  from: t.Optional(Instant),
  to: t.Optional(Instant),
  cursor: t.Optional(Cursor),
  limit: t.Optional(Limit),
});

export const TicketSummary = t.Object({
  ticketId: t.String(),
  status: t.UnionEnum(["running", "stopped", "canceled"]),
  zone: t.Integer(),
  parkingLotId: t.Union([t.Integer(), t.Null()]),
  licenseNumber: t.String(),
  startAt: Instant,
  endAt: t.Union([Instant, t.Null()]),
  updatedAt: Instant,
});
export const TicketPage = t.Object({
  data: t.Array(TicketSummary),
  next_cursor: t.Union([t.String(), t.Null()], { description: "null on the last page" }),
});

export const PageQuery = t.Object({ cursor: t.Optional(Cursor), limit: t.Optional(Limit) });
export const LookupPage = t.Object({
  data: t.Array(
    t.Object({
      at: Instant,
      credential: t.String(),
      by: t.UnionEnum(["registration_number", "zone", "zone_list"]),
      query: t.String({ description: "The normalized plate or the zone number" }),
      results: t.Integer(),
    }),
  ),
  next_cursor: t.Union([t.String(), t.Null()]),
});

export const Status = t.Object({
  data: t.Object({
    version: t.String(),
    uptimeSeconds: t.Number(),
    storeBytes: t.Union([t.Number(), t.Null()]),
    residentMemoryBytes: t.Union([t.Number(), t.Null()]),
    events: t.Object({
      lastMinute: t.Integer(),
      lastHour: t.Integer(),
      sinceStart: t.Record(t.String(), t.Number(), { description: "Accepted events by eventType" }),
    }),
    terminals: t.Array(t.Object({ credential: t.String(), lastAt: Instant, events: t.Integer() })),
    lookupsSinceStart: t.Record(t.String(), t.Number()),
    requests: t.Object({ total: t.Number(), clientErrors: t.Number(), serverErrors: t.Number() }),
    liveFeeds: t.Integer(),
  }),
});
