import { t } from "elysia";
import { SCOPES } from "../../domain/credentials.ts";

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
